// Rebuilds in a fresh process (output/rebuild.ts): a build over the output of an earlier one writes
// only the files whose bytes change, into the generation that is not live, and swaps; with
// nothing changed it writes nothing. The worked examples: what a rebuild writes and removes after
// one edit of each kind (test/helpers/rebuild-steps.ts; on the sample in
// test/heavy/rebuild-sample.test.ts), nothing touched when nothing changed, --full, invalid
// content, the mirror served. The record it trusts, damaged in every way: test/rebuild-trust.test.ts.
// Every output is compared with a cold build of the same content, made once per content
// (ColdBuilds). Random sequences of edits of every kind: test/edit-sequences.test.ts.

import {
  appendFileSync,
  lstatSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { BuildReport } from '../generator/build.ts';
import { ContentError } from '../generator/content/problems.ts';
import { databaseRunsCopied } from '../generator/render/database-thread.ts';
import { startCli } from './helpers/cli.ts';
import { entryFile, smallSite, writeContent } from './helpers/content.ts';
import { ColdBuilds, type ColdReference, differing, identities } from './helpers/edit-sequences.ts';
import { packPath, readTreeBytes, rot } from './helpers/files.ts';
import { runInProcess } from './helpers/in-process.ts';
import { checkRebuildSteps, EVERYDAY_STEPS, editText, rebuildSite, rebuildOf as run } from './helpers/rebuild-steps.ts';
import { tempDir } from './helpers/temp.ts';

// Some tests run a dozen builds: on a loaded machine that is more than the default 30 s.
vi.setConfig({ testTimeout: 240_000 });

const colds = new ColdBuilds();

/** The files of `out` that differ from the cold build of `content` (made once per content). */
async function notCold(content: string, out: string): Promise<string[]> {
  const reference: ColdReference = await colds.of(content);
  if (!reference.ok) throw new Error(reference.problems.join('\n'));
  return differing(readTreeBytes(out), reference.tree);
}

describe('a rebuild over the output of an earlier build', () => {
  it('writes nothing and touches no file when nothing changed, not even a touched content file', async () => {
    // A small site: the sample's rebuilds are test/heavy/rebuild-sample.test.ts'.
    const content = writeContent(rebuildSite());
    const out = join(tempDir('pepys-rebuild-'), 'public');
    const first = await run(content, out);
    expect(first.mode).toBe('full');
    const before = identities(out);
    // Touched, not changed: the fingerprint is of bytes, not times.
    const entry = join(content, 'entries/1660/1660-01-01.html');
    utimesSync(entry, new Date(), new Date(Date.now() + 5000));
    const again = await run(content, out);
    expect(again).toMatchObject({
      mode: 'unchanged',
      written: 0,
      deleted: 0,
      entries: first.entries,
      topics: first.topics,
    });
    expect(again.categories).toBe(first.categories);
    expect(identities(out)).toEqual(before);
    expect(lstatSync(out).isDirectory()).toBe(true);
  });

  it('writes exactly the files whose bytes change, removes those that go, and serves what a cold build serves', async () => {
    const content = writeContent(rebuildSite());
    const out = join(tempDir('pepys-rebuild-'), 'public');
    await run(content, out);
    // One step of each kind: every step in test/heavy/rebuild-steps.test.ts.
    await checkRebuildSteps(content, out, colds, EVERYDAY_STEPS);
  });

  it("copies from the last build's downloads the tables an edit leaves, and is still the cold build's bytes", async () => {
    const content = writeContent(rebuildSite());
    const out = join(tempDir('pepys-rebuild-'), 'public');
    await run(content, out);
    // A topic's tooltip: its two tables (and only they) made again, the entries' copied.
    const topic = join(content, 'topics/1.yaml');
    writeFileSync(topic, readFileSync(topic, 'utf8').replace('The diarist himself', 'The diarist, himself'));
    await run(content, out);
    expect(databaseRunsCopied()).toEqual(['entries', 'entries_fts', 'categories', 'entry_topics', 'topic_categories']);
    expect(await notCold(content, out)).toEqual([]);
    // An entry's text: the entries' tables made again, the rest copied.
    editText(content, 'entries/1660/1660-01-02.html', 'Plague.');
    await run(content, out);
    expect(databaseRunsCopied()).toEqual(['categories', 'topics', 'topics_fts', 'entry_topics', 'topic_categories']);
    expect(await notCold(content, out)).toEqual([]);
    // An entry's topics: the mentions and the topics' details (their entries) made again too.
    const entry = join(content, 'entries/1660/1660-01-05.html');
    writeFileSync(entry, readFileSync(entry, 'utf8').replace(/^topics: \[/m, 'topics: [1, '));
    await run(content, out);
    expect(databaseRunsCopied()).toEqual(['categories', 'topics_fts', 'topic_categories']);
    expect(await notCold(content, out)).toEqual([]);
    // A byte of the live topics' NDJSON changed in place (its size and time kept): not its
    // manifest's hash, so their table is made again with it.
    rot(join(realpathSync(out), 'api/v1/downloads/topics.ndjson.gz'));
    editText(content, 'entries/1660/1660-01-02.html', 'Once more.');
    await run(content, out);
    expect(databaseRunsCopied()).toEqual(['categories', 'topics_fts', 'entry_topics', 'topic_categories']);
    expect(await notCold(content, out)).toEqual([]);
    // The same of the live database: nothing is copied from it.
    rot(join(realpathSync(out), 'api/v1/downloads/diary.sqlite'));
    editText(content, 'entries/1660/1660-01-02.html', 'Again.');
    await run(content, out);
    expect(databaseRunsCopied()).toEqual([]);
    expect(await notCold(content, out)).toEqual([]);
  });

  it('with --full, writes a whole new tree even when nothing changed', async () => {
    const content = writeContent(smallSite());
    const out = join(tempDir('pepys-rebuild-'), 'public');
    await run(content, out);
    const before = identities(out);
    // That first build was a cold one (into no directory) of this very content: its bytes are
    // the cold build's the tree is held to below (no other build of it made for that).
    const cold = readTreeBytes(out);
    const r = await runInProcess('build', [
      '--content',
      content,
      '--out',
      out,
      '--quiet',
      '--full',
      '--report',
      `${out}.json`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as BuildReport;
    expect(report.mode).toBe('full');
    expect(report.written).toBe(readTreeBytes(out).size);
    const after = identities(out);
    // Every file is a new one (new inodes), with the same bytes as a cold build.
    expect([...after].filter(([path, id]) => before.get(path) === id)).toEqual([]);
    expect(differing(readTreeBytes(out), cold)).toEqual([]);
  });

  it('leaves the live tree as it was when the content is invalid, and the next build is right', async () => {
    const content = writeContent(rebuildSite());
    const out = join(tempDir('pepys-rebuild-'), 'public');
    await run(content, out);
    editText(content, 'entries/1660/1660-01-01.html', 'First.');
    await run(content, out);
    const before = readTreeBytes(out);
    const ids = identities(out);
    // A second file for a date that has one: found only when everything has been read.
    writeFileSync(join(content, 'entries/1660/zz-duplicate.html'), entryFile('1660-01-01'));
    await expect(run(content, out)).rejects.toBeInstanceOf(ContentError);
    expect(readTreeBytes(out)).toEqual(before);
    expect(identities(out)).toEqual(ids);
    rmSync(join(content, 'entries/1660/zz-duplicate.html'));
    editText(content, 'entries/1660/1660-01-01.html', 'Second.');
    await run(content, out);
    expect(await notCold(content, out)).toEqual([]);
  });
});

describe('a rebuild refuses what a cold build refuses', () => {
  // Found by test/edit-sequences.test.ts' long run (seed 1894474268): the link was not in the
  // fingerprint (content/fingerprint.ts), so a rebuild over the last output said "unchanged".
  it('a dangling symbolic link named like an entry file', async () => {
    const content = writeContent(smallSite());
    const out = join(tempDir('pepys-rebuild-'), 'public');
    await run(content, out);
    symlinkSync('nowhere', join(content, 'entries/1660/odd.html'));
    const cold = await colds.of(content);
    expect(cold.ok === false && cold.problems.join('\n')).toMatch(/odd\.html: dangling symbolic link/);
    await expect(run(content, out)).rejects.toBeInstanceOf(ContentError);
  });
});

describe('the generation layout, as its users meet it', () => {
  it('npm start --no-build serves it and npm run verify --built reads it: the mirror is whole', async () => {
    const cwd = tempDir('pepys-layout-');
    const content = writeContent(rebuildSite());
    const out = join(cwd, 'public');
    await run(content, out);
    editText(content, 'entries/1660/1660-01-01.html', 'Edited.');
    await run(content, out);
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    const server = startCli('start', ['--port', '0', '--quiet', '--no-build', '--out', out], {
      cwd,
      env: { NO_COLOR: '1' },
    });
    try {
      const origin = (
        await server.waitFor('stdout', /^Serving .* at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/m)
      )[1] as string;
      const entry = (await (await fetch(`${origin}/api/v1/entries/1660-01-01`)).json()) as { entryHTML: string };
      expect(entry.entryHTML).toContain('Edited.');
      // Its bodies link to the origin the content names, not to this server's. The server is a
      // process of its own; the verify runs in this one (test/helpers/in-process.ts).
      const args = [origin, '--built', out, '--api-origin', 'https://api.test', '--quiet', '--sample', '20'];
      const verified = await runInProcess('verify', args);
      expect(verified.code, verified.stdout + verified.stderr).toBe(0);
      // The answers it expects come from those files: changed by hand, they are refused.
      const pack = packPath(out, 'entries', '1660-01-02');
      appendFileSync(join(out, pack), ' ');
      const refused = await runInProcess('verify', args);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        `public is not what its build wrote (.pepys-manifest.json): ${pack}: other bytes; build it anew (npm run build -- --full)`,
      );
    } finally {
      server.child.kill('SIGTERM');
      await server.done;
    }
  }, 120_000);
});
