// The one-shot rebuild's worked example (test/rebuild.test.ts on a small site, every day, four of
// its steps; test/heavy/rebuild-steps.test.ts every step; test/heavy/rebuild-sample.test.ts on the
// sample): one edit of each kind, each followed by
// `build()` over the last output, which says how it made the entries' search index (the last
// build's changed, or made again when an entry came or went) and whether it rendered only what
// the edit changes (patched: entries and topics edited in place); writes exactly what differs
// from the generation it writes into and records what differs from the tree before it; and is
// byte for byte the cold build of the same content.

import { readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type BuildReport, build } from '../../generator/build.ts';
import { checkTree, readManifest } from '../../generator/output/manifest.ts';
import { CATEGORIES_YAML, entryFile } from './content.ts';
import { type ColdBuilds, differ, differing, generations, type Tree } from './edit-sequences.ts';
import { readTreeBytes } from './files.ts';

export const rebuildOf = (contentDir: string, outDir: string): Promise<BuildReport> =>
  build({ contentDir, outDir, quiet: true, env: {} });

/** Puts `text` at the start of the first paragraph of `file`. */
export const editText = (dir: string, file: string, text: string): void => {
  const path = join(dir, file);
  writeFileSync(path, readFileSync(path, 'utf8').replace('<p>', `<p>${text} `));
};

/**
 * A small site with the files the steps edit, as the sample names them (topics/1.yaml's
 * tooltip, the category 'Servants and companions', entries of 1–5 January 1660 with topics).
 */
export function rebuildSite(): Record<string, string> {
  const files: Record<string, string> = {
    'site.yaml': 'apiOrigin: https://api.test\nsiteOrigin: https://site.test\npageSize: 3\n',
    'categories.yaml': CATEGORIES_YAML.replace('title: Servants', 'title: Servants and companions'),
    'topics/1.yaml':
      'id: 1\ntitle: Samuel Pepys\nkind: person\ncategories: [servants]\ntooltipText: The diarist himself\n',
    'topics/2.yaml': 'id: 2\ntitle: Axe Yard\nkind: place\ncategories: [household]\n',
    'topics/3.yaml': 'id: 3\ntitle: Jane\nkind: person\ncategories: [servants]\n',
  };
  for (let d = 1; d <= 5; d++)
    files[`entries/1660/1660-01-0${d}.html`] = entryFile(
      `1660-01-0${d}`,
      `topics: [${1 + (d % 3)}]\n`,
      `<p>Day ${d}, a walk.</p>`,
    );
  files['entries/1661/1661-01-20.html'] = entryFile('1661-01-20');
  return files;
}

type Step = [string, (content: string) => void, 'changed' | 'made', boolean];

const STEPS: Step[] = [
  ["one entry's text", (c) => editText(c, 'entries/1660/1660-01-01.html', 'Edited.'), 'changed', true],
  // The site index stays as it was: the tree going live gets a new one, the same bytes.
  ["another entry's text", (c) => editText(c, 'entries/1660/1660-01-04.html', 'Edited too.'), 'changed', true],
  [
    "one entry's title",
    (c) => {
      const path = join(c, 'entries/1660/1660-01-02.html');
      writeFileSync(path, readFileSync(path, 'utf8').replace('---\n', '---\ntitle: Monday 2 January 1660\n'));
    },
    'changed',
    true,
  ],
  [
    'one topic',
    (c) => {
      const path = join(c, 'topics/1.yaml');
      writeFileSync(path, readFileSync(path, 'utf8').replace('The diarist himself', 'The diarist, himself'));
    },
    'changed',
    true,
  ],
  [
    'one category',
    (c) => {
      const path = join(c, 'categories.yaml');
      writeFileSync(path, readFileSync(path, 'utf8').replace('title: Servants and companions', 'title: Servants'));
    },
    'changed',
    false,
  ],
  [
    "an entry's topics",
    (c) => {
      const path = join(c, 'entries/1660/1660-01-05.html');
      writeFileSync(path, readFileSync(path, 'utf8').replace(/^topics: \[/m, 'topics: [1, '));
    },
    'changed',
    true,
  ],
  ['an entry removed', (c) => rmSync(join(c, 'entries/1660/1660-01-03.html')), 'made', false],
  [
    'an entry added',
    (c) => writeFileSync(join(c, 'entries/1660/1660-01-03.html'), entryFile('1660-01-03', '', '<p>Written again.</p>')),
    'made',
    false,
  ],
  ['the entry edited once more', (c) => editText(c, 'entries/1660/1660-01-01.html', 'Again.'), 'changed', true],
];

/**
 * The steps the everyday suite takes (test/rebuild.test.ts): one of each kind of rebuild (an
 * entry's and a topic's edit patched, a category's rendered whole, an entry gone: its index made
 * again). Every step: test/heavy/rebuild-steps.test.ts and, on the sample, rebuild-sample.test.ts.
 */
export const EVERYDAY_STEPS: readonly string[] = ["one entry's text", 'one topic', 'one category', 'an entry removed'];

/** Runs the steps (those named by `only`, else all) over `content`, its first build into `out` already made. */
export async function checkRebuildSteps(
  content: string,
  out: string,
  colds: ColdBuilds,
  only?: readonly string[],
): Promise<void> {
  const history: Tree[] = [readTreeBytes(out)];
  for (const [what, edit, entriesIndex, patched] of STEPS.filter(
    ([what]) => only === undefined || only.includes(what),
  )) {
    edit(content);
    const before = history.at(-1) as Tree;
    // Written into: the tree the generation held, two builds back; but for the first rebuild,
    // whose generation was linked from the live tree (the first build's plain directory then
    // becomes the other generation: output/rebuild.ts).
    const held = (history.length >= 2 ? history.at(-2) : before) as Tree;
    const report = await rebuildOf(content, out);
    const now = readTreeBytes(out);
    const cold = await colds.of(content);
    expect(report.mode, what).toBe('rebuild');
    expect(report.entriesIndex, what).toBe(entriesIndex);
    expect(report.patched, what).toBe(patched);
    expect(cold.ok && differing(now, cold.tree), what).toEqual([]);
    // The output is the symlink to the generation that was written; the other is the old live one.
    const gens = generations(out);
    expect(gens.live, what).not.toBeNull();
    expect(realpathSync(out)).toBe(realpathSync(gens.live as string));
    const expected = differ(held, now);
    expect(report.written, what).toBe(expected.written.length);
    expect(report.deleted, what).toBe(expected.removed.length);
    // Both generations are as their records say (the other one is used as it is next time):
    // nothing this rebuild did moved a file the live tree shares with it.
    for (const dir of [gens.live, gens.other]) {
      const m = readManifest(dir as string);
      expect(m !== null && checkTree(dir as string, m), `${what}: ${dir}`).toBe(true);
    }
    // Its record says what changed since the tree before it: what a mirror fetches.
    const changes = readManifest(realpathSync(out))?.changes;
    const since = differ(before, now);
    expect(changes && [...changes.added, ...changes.changed].sort(), what).toEqual(since.written);
    expect(changes?.removed, what).toEqual(since.removed);
    history.push(now);
  }
}
