// The cold build's pipeline (build.ts): files read on a second thread (read-ahead.ts), every file
// created by a writing thread (writer.ts beginSite). Whatever the order in which it renders and writes, the tree it makes is exactly the
// model rendered in one pass (renderSite), and what it reads is exactly what reading each file
// on the main thread gives.

import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { readContent, validate } from '../generator/content/load.ts';
import { ContentError } from '../generator/content/problems.ts';
import { MARKER_FILE, MARKER_TEXT } from '../generator/output/guard.ts';
import { beginSite } from '../generator/output/writer.ts';
import { renderSite } from '../generator/render/render-site.ts';
import { searchIndexFiles, searchIndexFilesInSteps } from '../generator/render/search-index.ts';
import { entryFile, smallSite, writeContent } from './helpers/content.ts';
import { comparable, isDetailName, readTree } from './helpers/files.ts';
import { mediumSite } from './helpers/medium-site.ts';
import { tempDir } from './helpers/temp.ts';

const outDir = () => join(tempDir('pepys-out-'), 'public');

/** The site as one pass of the renderer gives it, with the writer's marker. */
async function rendered(contentDir: string): Promise<Map<string, string>> {
  const v = validate(await readContent(contentDir, { env: {}, readAhead: false }));
  if (!v.ok) throw new Error(v.problems[0]?.message);
  const files = new Map(renderSite(v.model).map((f) => [f.path, comparable(f.path, f.body)]));
  files.set(MARKER_FILE, MARKER_TEXT);
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Everything readContent gives, without the read times that signatures may carry. */
async function state(contentDir: string, readAhead: boolean) {
  const s = await readContent(contentDir, { env: {}, readAhead });
  const parsed = [...s.parsed].map(([file, p]) => [file, { ...p, signature: p.signature.replace(/^racy:/, '') }]);
  return { ...s, parsed };
}

/** A site big enough that every entry file is read on the second thread (READ_AHEAD_MIN_FILES). */
function largeSite(): Record<string, string> {
  const files = mediumSite(900, 400);
  // File names that do not sort by date: topics' entry lists come out in date order all the same.
  const moved: Record<string, string> = {};
  for (const [path, text] of Object.entries(files)) {
    const m = /^entries\/(\d{4})\/(\d{4}-\d{2}-\d{2})\.html$/.exec(path);
    moved[m === null ? path : `entries/${m[1]}/${[...(m[2] as string)].reverse().join('')}.html`] = text;
  }
  moved['entries/1660/given-title.html'] = entryFile('1669-05-31', 'title: Monday 31 May 1669\ntopics: [3, 4]\n');
  return moved;
}

describe('the cold build pipeline', () => {
  it('makes exactly the tree of the model rendered in one pass (small, medium and large sites)', async () => {
    for (const files of [smallSite(), mediumSite(), largeSite()]) {
      const contentDir = writeContent(files);
      const out = outDir();
      const report = await build({ contentDir, outDir: out, quiet: true, env: {} });
      const expected = await rendered(contentDir);
      // The files on disk (not the details readTree also reads out of the packs).
      expect(new Map([...readTree(out)].filter(([path]) => !isDetailName(path)))).toEqual(expected);
      expect(report.files).toBe(expected.size);
      // The bytes of each file: a binary one (comparable: base64) counts its decoded bytes.
      const size = (body: string) =>
        body.startsWith('base64:') ? Buffer.from(body.slice(7), 'base64').length : Buffer.byteLength(body);
      expect(report.bytes).toBe([...expected.values()].reduce((n, body) => n + size(body), 0));
    }
  });

  it('makes the search index a document at a time, into the files it makes in one go', async () => {
    // The build lets its event loop turn between two documents (build.ts), so that the database's
    // thread is sent rows meanwhile: the index must pause after each, and give the same files.
    const contentDir = writeContent(mediumSite());
    const v = validate(await readContent(contentDir, { env: {}, readAhead: false }));
    if (!v.ok) throw new Error(v.problems[0]?.message);
    const steps = [...searchIndexFilesInSteps(v.model)];
    const pauses = v.model.entries.length + v.model.topics.length;
    expect(steps.slice(0, pauses).every((step) => step === undefined)).toBe(true);
    expect(steps.slice(pauses)).toEqual(searchIndexFiles(v.model));
  });

  it('reads on a second thread exactly what reading each file here gives, problems included', async () => {
    const files = largeSite();
    files['entries/1661/latin1.html'] = entryFile('1661-03-01', '', '<p>caf\u00e9</p>');
    files['topics/crlf.yaml'] = 'id: 9000\r\ntitle: Windows\r\n';
    const contentDir = writeContent(files);
    // Not UTF-8; a directory, a FIFO and a link to nothing where files should be; no read permission.
    writeFileSync(
      join(contentDir, 'entries/1661/latin1.html'),
      Buffer.from(entryFile('1661-03-01', '', '<p>caf\u00e9</p>'), 'latin1'),
    );
    mkdirSync(join(contentDir, 'entries/1662/folder.html'), { recursive: true });
    execFileSync('mkfifo', [join(contentDir, 'topics/fifo.yaml')]);
    symlinkSync('nowhere.yaml', join(contentDir, 'topics/dangling.yaml'));
    writeFileSync(join(contentDir, 'topics/secret.yaml'), 'id: 9001\ntitle: Secret\n');
    chmodSync(join(contentDir, 'topics/secret.yaml'), 0o000);
    const here = await state(contentDir, false);
    const there = await state(contentDir, true);
    expect(there).toEqual(here);
    expect(there.parsed.length).toBeGreaterThan(1000);
    const problems = (s: typeof here) =>
      s.parsed.flatMap(([, p]) => (p as { problems: { message: string }[] }).problems.map((q) => q.message));
    expect(problems(there).some((m) => m.startsWith('not valid UTF-8'))).toBe(true);
    expect(problems(there).some((m) => m.includes('FIFO'))).toBe(true);
    expect(problems(there).some((m) => m.includes('dangling symbolic link'))).toBe(true);
  });

  it('discards what it rendered early when the content proves invalid, leaving the output as it was', async () => {
    const files = largeSite();
    const contentDir = writeContent(files);
    const out = outDir();
    await build({ contentDir, outDir: out, quiet: true, env: {} });
    const before = readTree(out);
    // A second file for a date that has one: found only when everything has been read.
    writeFileSync(join(contentDir, 'entries/1660/zz-duplicate.html'), entryFile('1660-02-01'));
    await expect(build({ contentDir, outDir: out, quiet: true, env: {} })).rejects.toBeInstanceOf(ContentError);
    expect(readTree(out)).toEqual(before);
    // Only the output and the tree a rebuild writes next (output/rebuild.ts).
    expect(readdirSync(dirname(out)).filter((n) => n !== '.public-gen-a')).toEqual(['public']);
  });

  it('reports a file it cannot create by its path, leaving the output as it was and no staging tree', async () => {
    const out = outDir();
    const site = beginSite(out);
    site.add('api/v1/a.json', '{}');
    // A file where a directory must be: the next file cannot be created under it.
    site.add('api/v1/a.json/b.json', '{}');
    site.add('api/v1/c.json', '{}');
    await expect(site.commit()).rejects.toMatchObject({
      code: 'EEXIST',
      syscall: 'mkdir',
      path: expect.stringMatching(/a\.json$/),
    });
    expect(readdirSync(dirname(out))).toEqual([]);
  });

  it('writes bodies of any size and any text, through the ring and around it', async () => {
    const out = outDir();
    const site = beginSite(out);
    const bodies = new Map<string, string>();
    // Many files that wrap around the ring several times, non-ASCII text, and one too large for it.
    for (let i = 0; i < 3000; i++) bodies.set(`d${i % 7}/f${i}.json`, `{"n": ${i}, "s": "${'ü€𝄞x'.repeat(i % 1000)}"}`);
    bodies.set('big.json', `${'y'.repeat(5 * 1024 * 1024)}€`);
    for (const [path, body] of bodies) site.add(path, body);
    const stats = await site.commit();
    await stats.removed;
    expect(stats.files).toBe(bodies.size + 1);
    for (const [path, body] of bodies) expect(readFileSync(join(out, path), 'utf8'), path).toBe(body);
  });
});
