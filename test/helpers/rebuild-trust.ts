// What a one-shot rebuild trusts (the manifest, output/manifest.ts; the sources file; both
// generations), and every way a test can think of to damage it: the build must then still be
// right, the same bytes as a cold build of the same content, before an edit and after one. Four
// cases run every day (test/rebuild-trust.test.ts), all of them in the heavy suite
// (test/heavy/rebuild-trust.test.ts): each case is five builds. Every case has the same content,
// so their cold references are made once per file (ColdBuilds).

import { appendFileSync, lstatSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { activeSlot, slotDir } from '../../generator/output/generations.ts';
import { MANIFEST_FILE, SOURCES_FILE } from '../../generator/output/manifest.ts';
import { smallSite, writeContent } from './content.ts';
import type { ColdBuilds, ColdReference } from './edit-sequences.ts';
import { differing } from './edit-sequences.ts';
import { packPath, readTreeBytes } from './files.ts';
import { editText, rebuildOf as run } from './rebuild-steps.ts';
import { tempDir } from './temp.ts';

/** The files of `out` that differ from the cold build of `content` (made once per content). */
async function notCold(colds: ColdBuilds, content: string, out: string): Promise<string[]> {
  const reference: ColdReference = await colds.of(content);
  if (!reference.ok) throw new Error(reference.problems.join('\n'));
  return differing(readTreeBytes(out), reference.tree);
}

/** An output in the generation layout (two builds), and its content. */
export async function layout(): Promise<{ content: string; out: string; liveDir: string; otherDir: string }> {
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

export type Damage = (t: { liveDir: string; otherDir: string }) => void;

export const DAMAGES: Array<[string, Damage]> = [
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
  // The record of what the live tree was made of, file by file (render/basis.ts): without
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

/** The damages run every day (test/rebuild-trust.test.ts): one of each record a rebuild trusts. */
export const EVERYDAY: readonly string[] = [
  'the live manifest is missing',
  'a live file was replaced by one of the same size and time',
  'the sources file was changed',
  'a file of the other generation was changed by hand',
];

/** Damages the record of a rebuild as `what` says, then checks the build and an edit after it. */
export async function checkDamage(colds: ColdBuilds, what: string, damage: Damage): Promise<void> {
  const t = await layout();
  damage(t);
  // The same content: nothing to do, unless the live tree's record cannot be trusted (the
  // other generation is not served: damage there shows at the next rebuild).
  const same = await run(t.content, t.out);
  // Every case has the same content: one cold build for all of them (and one after the edit).
  expect(await notCold(colds, t.content, t.out)).toEqual([]);
  if (what.includes('live') || what.startsWith('both')) expect(same.mode).not.toBe('unchanged');
  // And an edit after it.
  editText(t.content, 'entries/1661/1661-01-20.html', 'Three.');
  const edited = await run(t.content, t.out);
  expect(await notCold(colds, t.content, t.out)).toEqual([]);
  if (what.includes('sources')) expect(edited.patched).toBe(false);
}
