// Bytes of the live output changed in place, its size and modification time kept (bit rot, a
// careless editor): issue 36, item 5. The check whether anything changed trusts the files' sizes
// and times (output/manifest.ts checkTree: hashing every file would cost about what the check
// itself costs; docs/performance.md), so the next build with nothing to do says so, and
// `npm run verify -- … --built` is what finds the damage. But a rebuild never copies a file
// forward on trust: what it keeps of the last build is checked against the manifest's hash
// (output/rebuild.ts), so the damage does not survive into the next generation, which is the
// cold build's, patched or not. (The generations share files by hard links: a byte changed in
// the live tree is changed in the other one too.)

import { readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { type BuildReport, build } from '../generator/build.ts';
import { activeSlot, otherSlot, slotDir } from '../generator/output/generations.ts';
import { entryFile, smallSite, writeContent } from './helpers/content.ts';
import { readTreeBytes, rot } from './helpers/files.ts';
import { runInProcess } from './helpers/in-process.ts';
import { tempDir } from './helpers/temp.ts';

vi.setConfig({ testTimeout: 120_000 });

/** A file no edit below changes: the categories' records. */
const KEPT = '_data/records/categories/0/0.pack';

const run = (contentDir: string, outDir: string, full = false): Promise<BuildReport> =>
  build({ contentDir, outDir, quiet: true, env: {}, full });

async function cold(contentDir: string): Promise<Map<string, Buffer>> {
  const out = join(tempDir('pepys-bitrot-cold-'), 'public');
  await run(contentDir, out);
  return readTreeBytes(out);
}

/** Puts `text` at the start of an entry's first paragraph. */
function editEntry(content: string, file: string, text: string): void {
  const path = join(content, file);
  writeFileSync(path, readFileSync(path, 'utf8').replace('<p>', `<p>${text} `));
}

/** An output after two builds: the layout, both generations sharing their unchanged files. */
async function twoGenerations(): Promise<{ content: string; out: string }> {
  const content = writeContent(smallSite());
  const out = join(tempDir('pepys-bitrot-'), 'public');
  await run(content, out);
  editEntry(content, 'entries/1660/1660-01-01.html', 'First.');
  expect((await run(content, out)).mode).toBe('rebuild');
  const live = activeSlot(out) as 'a' | 'b';
  // The file is shared: damaging the live one damages the other generation's too.
  expect(statSync(join(slotDir(out, live), KEPT)).ino).toBe(statSync(join(slotDir(out, otherSlot(live)), KEPT)).ino);
  return { content, out };
}

// GNU touch sets a modification time to the nanosecond.
describe.skipIf(process.platform !== 'linux')(
  'a file of the live output changed in place, its size and time kept',
  () => {
    it('nothing changed: the build says so (it trusts sizes and times), and verify --built finds the damage', async () => {
      const { content, out } = await twoGenerations();
      rot(join(realpathSync(out), KEPT));
      expect((await run(content, out)).mode).toBe('unchanged');
      const verify = await runInProcess('verify', ['http://127.0.0.1:9', '--built', out, '--quiet']);
      expect(verify.code).toBe(2);
      expect(verify.stderr).toContain(`${KEPT}: other bytes`);
      expect(verify.stderr).toContain('build it anew (npm run build -- --full)');
    });

    it('a patched rebuild (an entry edited) does not carry it forward: it renders everything, as a cold build', async () => {
      const { content, out } = await twoGenerations();
      rot(join(realpathSync(out), KEPT));
      editEntry(content, 'entries/1660/1660-01-02.html', 'Second.');
      const report = await run(content, out);
      expect(readTreeBytes(out)).toEqual(await cold(content));
      // The live tree cannot give the file either (it is the same file): everything is rendered.
      expect(report).toMatchObject({ mode: 'rebuild', patched: false });
    });

    it('a rebuild of everything (an entry added) writes it again', async () => {
      const { content, out } = await twoGenerations();
      // What the live tree holds, and its manifest lists, before the damage (read from the tree,
      // not from a cold build of this content made for it: one build fewer).
      const listed = readFileSync(join(realpathSync(out), KEPT));
      rot(join(realpathSync(out), KEPT));
      writeFileSync(join(content, 'entries/1660/1660-03-01.html'), entryFile('1660-03-01'));
      const report = await run(content, out);
      expect(report).toMatchObject({ mode: 'rebuild', patched: false });
      const after = await cold(content);
      // The file is one the edit does not change: the rebuild renders it, finds the bytes its
      // manifest lists, and must not trust the tree to hold them.
      expect(after.get(KEPT)).toEqual(listed);
      expect(readTreeBytes(out)).toEqual(after);
    });
  },
);
