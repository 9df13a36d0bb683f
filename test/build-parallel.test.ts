// Parsing on several threads gives exactly what parsing on one gives: the same model, the same
// problems in the same order.

import { describe, expect, it } from 'vitest';
import { loadContent, readContent, validate } from '../generator/content/load.ts';
import type { ParsedFile } from '../generator/content/parse-file.ts';
import { startParsePool } from '../generator/content/parse-pool.ts';
import { ContentError } from '../generator/content/problems.ts';
import { entryFile, writeContent } from './helpers/content.ts';
import { mediumSite } from './helpers/medium-site.ts';

async function problemsWith(dir: string, workers: number): Promise<string[]> {
  const v = validate(await readContent(dir, { workers }));
  return v.ok ? [] : v.problems.map((p) => `${p.file}:${p.line}: ${p.message}`);
}

describe('parallel parsing', () => {
  it('builds the same model with and without workers', async () => {
    const dir = writeContent(mediumSite());
    const one = await loadContent(dir, { workers: 0 });
    const two = await loadContent(dir, { workers: 2 });
    expect(two.model).toEqual(one.model);
    expect(two.files).toEqual(one.files);
  });

  it('reports the same problems, in the same order, with and without workers', async () => {
    const files = mediumSite();
    files['entries/1660/bad-date.html'] = entryFile('1660-02-30');
    files['entries/1661/dup.html'] = entryFile('1661-01-20');
    files['topics/zz-broken.yaml'] = 'id: 9999\ntitle: [unclosed\n';
    files['topics/aa-unknown.yaml'] = 'id: 9998\ntitle: X\ncategories: [nowhere]\n';
    const dir = writeContent(files);
    const single = await problemsWith(dir, 0);
    expect(single.length).toBeGreaterThanOrEqual(4);
    expect(await problemsWith(dir, 1)).toEqual(single);
    expect(await problemsWith(dir, 3)).toEqual(single);
    await expect(loadContent(dir, { workers: 2 })).rejects.toBeInstanceOf(ContentError);
  });

  it('keeps job order whatever thread parsed a file, and survives a pool that is closed early', async () => {
    const dir = writeContent(mediumSite(200, 50));
    const { entryFiles } = await readContent(dir, { workers: 0 });
    const jobs = entryFiles.map((file) => ({ kind: 'entry' as const, file }));
    const pool = startParsePool(2);
    // The workers alone parse everything here.
    const results = await pool.run(dir, jobs, '2026-01-01T00:00:00Z', { mainThread: false });
    await pool.close();
    expect(results.map((r) => (r.kind === 'entry' ? r.parsed?.file : null))).toEqual(entryFiles);
    const local = await startParsePool(0).run(dir, jobs, '2026-01-01T00:00:00Z');
    // Signatures say when a file was read relative to its last change (read-file.ts): not compared.
    const unsigned = (files: ParsedFile[]) => files.map(({ signature: _signature, ...rest }) => rest);
    expect(unsigned(results)).toEqual(unsigned(local));
    // A pool whose workers are gone still parses everything, on the calling thread.
    const closed = startParsePool(1);
    await closed.close();
    expect((await closed.run(dir, jobs, '2026-01-01T00:00:00Z')).length).toBe(jobs.length);
  });
});
