// Rebuilds in a fresh process (output/rebuild.ts): a build over the output of an earlier one writes
// only the files whose bytes change, into the generation that is not live, and swaps; with
// nothing changed it writes nothing. The worked examples: what a rebuild writes and removes after
// one edit of each kind (test/helpers/rebuild-steps.ts; on the sample in
// test/heavy/rebuild-sample.test.ts), nothing touched when nothing changed, --full, invalid
// content, the mirror served. The record it trusts (the manifest, output/manifest.ts) is damaged
// in every way a test can think of; the build must then still be right. Every output is compared
// with a cold build of the same content, made once per content (ColdBuilds: the damage cases
// share theirs). Random sequences of edits of every kind: test/edit-sequences.test.ts.

import {
  appendFileSync,
  cpSync,
  lstatSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { BuildReport } from '../generator/build.ts';
import { ContentError } from '../generator/content/problems.ts';
import { activeSlot, slotDir } from '../generator/output/generations.ts';
import { MANIFEST_FILE, SOURCES_FILE } from '../generator/output/manifest.ts';
import { runCli, startCli } from './helpers/cli.ts';
import { entryFile, smallSite, writeContent } from './helpers/content.ts';
import { ColdBuilds, type ColdReference, differing, identities } from './helpers/edit-sequences.ts';
import { packPath, readTreeBytes } from './helpers/files.ts';
import { checkRebuildSteps, editText, rebuildSite, rebuildOf as run } from './helpers/rebuild-steps.ts';
import { tempDir } from './helpers/temp.ts';

// Some tests run a dozen builds: on a loaded machine that is more than the default 30 s.
vi.setConfig({ testTimeout: 240_000 });

const SAMPLE = join(import.meta.dirname, '..', 'content');

function sampleCopy(): string {
  const dir = join(tempDir('pepys-rebuild-content-'), 'content');
  cpSync(SAMPLE, dir, { recursive: true });
  return dir;
}

const colds = new ColdBuilds();

/** The files of `out` that differ from the cold build of `content` (made once per content). */
async function notCold(content: string, out: string): Promise<string[]> {
  const reference: ColdReference = await colds.of(content);
  if (!reference.ok) throw new Error(reference.problems.join('\n'));
  return differing(readTreeBytes(out), reference.tree);
}

describe('a rebuild over the output of an earlier build', () => {
  it('writes nothing and touches no file when nothing changed, not even a touched content file', async () => {
    const content = sampleCopy();
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
    await checkRebuildSteps(content, out, colds);
  });

  it('with --full, writes a whole new tree even when nothing changed', async () => {
    const content = writeContent(smallSite());
    const out = join(tempDir('pepys-rebuild-'), 'public');
    await run(content, out);
    const before = identities(out);
    const r = await runCli('build', [
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
    expect(await notCold(content, out)).toEqual([]);
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
  // KNOWN BUG (found by test/edit-sequences.test.ts' long run, seed 1894474268): a dangling
  // symbolic link named like an entry file makes a cold build refuse the content, but it is not in
  // the fingerprint, so a rebuild over the last output says "unchanged" and exits 0. A directory
  // or a FIFO of that name is refused by both. `it.fails` until it is fixed; then make this an
  // `it` and remove the carve-out in test/helpers/edit-sequences.ts checkRebuild.
  it.fails('a dangling symbolic link named like an entry file', async () => {
    const content = writeContent(smallSite());
    const out = join(tempDir('pepys-rebuild-'), 'public');
    await run(content, out);
    symlinkSync('nowhere', join(content, 'entries/1660/odd.html'));
    const cold = await colds.of(content);
    expect(cold.ok === false && cold.problems.join('\n')).toMatch(/odd\.html: dangling symbolic link/);
    await expect(run(content, out)).rejects.toBeInstanceOf(ContentError);
  });
});

describe('what a rebuild trusts, damaged in every way: the build is still right', () => {
  /** An output in the generation layout (two builds), and its content. */
  async function layout(): Promise<{ content: string; out: string; liveDir: string; otherDir: string }> {
    const content = writeContent(smallSite());
    const out = join(tempDir('pepys-trust-'), 'public');
    await run(content, out);
    editText(content, 'entries/1660/1660-01-01.html', 'One.');
    await run(content, out);
    editText(content, 'entries/1660/1660-01-02.html', 'Two.');
    await run(content, out);
    const live = activeSlot(out) as 'a' | 'b';
    return { content, out, liveDir: slotDir(out, live), otherDir: slotDir(out, live === 'a' ? 'b' : 'a') };
  }

  const damages: Array<[string, (t: { liveDir: string; otherDir: string }) => void]> = [
    ['the live manifest is missing', ({ liveDir }) => rmSync(join(liveDir, MANIFEST_FILE))],
    [
      'the live manifest is truncated',
      ({ liveDir }) => {
        const path = join(liveDir, MANIFEST_FILE);
        writeFileSync(path, readFileSync(path, 'utf8').slice(0, 500));
      },
    ],
    [
      'the live manifest is of another format',
      ({ liveDir }) => {
        const path = join(liveDir, MANIFEST_FILE);
        writeFileSync(path, readFileSync(path, 'utf8').replace('"format":1', '"format":2'));
      },
    ],
    [
      'the live manifest is of another generator or other options',
      ({ liveDir }) => {
        const path = join(liveDir, MANIFEST_FILE);
        writeFileSync(path, readFileSync(path, 'utf8').replace(/"inputs":"[0-9a-f]+"/, `"inputs":"${'0'.repeat(64)}"`));
      },
    ],
    [
      'a live file was changed by hand',
      ({ liveDir }) => appendFileSync(join(liveDir, packPath(liveDir, 'entries', '1660-01-02')), ' '),
    ],
    [
      'a live file was replaced by one of the same size and time',
      ({ liveDir }) => {
        const path = join(liveDir, packPath(liveDir, 'entries', '1660-01-02'));
        const s = lstatSync(path);
        const bytes = readFileSync(path);
        // As an editor saves: a new file renamed over the old (both exist at once: another inode).
        writeFileSync(`${path}.new`, Buffer.from(bytes.toString('latin1').replace('"', "'"), 'latin1'));
        utimesSync(`${path}.new`, s.atime, s.mtime);
        renameSync(`${path}.new`, path);
      },
    ],
    [
      'a file was added to the live tree',
      ({ liveDir }) => writeFileSync(join(liveDir, 'api/v1/entries/stray.json'), '{}'),
    ],
    ['a live file was removed', ({ liveDir }) => rmSync(join(liveDir, packPath(liveDir, 'topics', '1')))],
    [
      'a file of the other generation was removed',
      ({ otherDir }) => rmSync(join(otherDir, packPath(otherDir, 'entries', '1660-01-01'))),
    ],
    [
      'a file of the other generation was changed by hand',
      ({ otherDir }) => appendFileSync(join(otherDir, 'api/v1/index.json'), 'x'),
    ],
    ['the other generation is gone', ({ otherDir }) => rmSync(otherDir, { recursive: true })],
    // The record of what the live tree was made of, file by file (render/patch-basis.ts): without
    // it, or with one that does not hold, a rebuild renders every file.
    ['the sources file is missing', ({ liveDir }) => rmSync(join(liveDir, SOURCES_FILE))],
    [
      'the sources file was changed',
      ({ liveDir }) => {
        const path = join(liveDir, SOURCES_FILE);
        // Another file's hash, of the same shape: only the manifest's hash of the record tells.
        const text = readFileSync(path, 'utf8');
        const other = /"entries\/1660\/1660-01-02.html":"([^"]*)"/.exec(text)?.[1] as string;
        writeFileSync(path, text.replace(/("entries\/1660\/1660-01-01.html":)"[^"]*"/, `$1"${other}"`));
      },
    ],
    [
      'no sources file recorded (the manifest of an earlier version)',
      ({ liveDir }) => {
        const path = join(liveDir, MANIFEST_FILE);
        writeFileSync(path, readFileSync(path, 'utf8').replace(/"sources":"[0-9a-f]{64}"/, '"sources":null'));
      },
    ],
    [
      'both manifests are missing',
      ({ liveDir, otherDir }) => {
        rmSync(join(liveDir, MANIFEST_FILE));
        rmSync(join(otherDir, MANIFEST_FILE));
      },
    ],
  ];

  for (const [what, damage] of damages) {
    it(`${what}`, async () => {
      const t = await layout();
      damage(t);
      // The same content: nothing to do, unless the live tree's record cannot be trusted (the
      // other generation is not served: damage there shows at the next rebuild).
      const same = await run(t.content, t.out);
      // Every case has the same content: one cold build for all of them (and one after the edit).
      expect(await notCold(t.content, t.out)).toEqual([]);
      if (what.includes('live') || what.startsWith('both')) expect(same.mode).not.toBe('unchanged');
      // And an edit after it.
      editText(t.content, 'entries/1661/1661-01-20.html', 'Three.');
      const edited = await run(t.content, t.out);
      expect(await notCold(t.content, t.out)).toEqual([]);
      if (what.includes('sources')) expect(edited.patched).toBe(false);
    });
  }

  it('a damaged record of the other generation alone does not stop "nothing to do"', async () => {
    const t = await layout();
    rmSync(join(t.otherDir, MANIFEST_FILE));
    expect((await run(t.content, t.out)).mode).toBe('unchanged');
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
      // Its bodies link to the origin the content names, not to this server's.
      const args = [origin, '--built', out, '--api-origin', 'https://api.test', '--quiet', '--sample', '20'];
      const verified = await runCli('verify', args, { cwd });
      expect(verified.code, verified.stdout + verified.stderr).toBe(0);
      // The answers it expects come from those files: changed by hand, they are refused.
      const pack = packPath(out, 'entries', '1660-01-02');
      appendFileSync(join(out, pack), ' ');
      const refused = await runCli('verify', args, { cwd });
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
