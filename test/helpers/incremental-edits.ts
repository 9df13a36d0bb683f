// The watch mode's rebuild after one edit of each kind (test/incremental.test.ts four of them,
// every day; test/heavy/incremental-edits.test.ts all of them): each equals a full build of the
// same content and rewrites exactly the files that differ; both generations then hold the same.

import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { build } from '../../generator/build.ts';
import { slotDir } from '../../generator/output/generations.ts';
import type { BuildSession } from '../../generator/watch/session.ts';
import { entryFile } from './content.ts';
import { contentDigest } from './edit-sequences.ts';
import { isDetailName, readTree } from './files.ts';
import { tempDir } from './temp.ts';

/**
 * What a fresh full build of a content directory writes: made once per content (by its digest)
 * for the caller that made this function (one per test file).
 */
export function fullBuilds(): (contentDir: string) => Promise<Map<string, string>> {
  const fullBuilds = new Map<string, Promise<Map<string, string>>>();
  return (contentDir: string): Promise<Map<string, string>> => {
    const digest = contentDigest(contentDir);
    let tree = fullBuilds.get(digest);
    if (tree === undefined) {
      const out = join(tempDir('pepys-full-'), 'public');
      tree = build({ contentDir, outDir: out, quiet: true, env: {} }).then(() => readTree(out));
      fullBuilds.set(digest, tree);
    }
    return tree;
  };
}

function differing(a: Map<string, string>, b: Map<string, string>): string[] {
  // Files on disk: not the details readTree reads out of the packs.
  const paths = new Set([...a.keys(), ...b.keys()].filter((p) => !isDetailName(p)));
  return [...paths].filter((p) => a.get(p) !== b.get(p)).sort();
}

const EDITS: Array<[string, (contentDir: string) => string[]]> = [
  [
    "an entry's text",
    (contentDir) => {
      writeFileSync(
        join(contentDir, 'entries/1660/1660-02-04.html'),
        entryFile('1660-02-04', 'topics: [4]\n', '<p>Edited.</p>'),
      );
      return ['entries/1660/1660-02-04.html'];
    },
  ],
  [
    "an entry's topics and title",
    (contentDir) => {
      writeFileSync(
        join(contentDir, 'entries/1660/1660-02-07.html'),
        entryFile('1660-02-07', 'topics: [1, 2, 9]\ntitle: Tuesday 7 February 1660\n'),
      );
      return ['entries/1660/1660-02-07.html'];
    },
  ],
  [
    "a topic's title and categories",
    (contentDir) => {
      writeFileSync(
        join(contentDir, 'topics/10.yaml'),
        'id: 10\ntitle: Renamed\nkind: place\ncategories: [people, servants]\n',
      );
      return ['topics/10.yaml'];
    },
  ],
  [
    "a category's title (which reorders its parent's children)",
    (contentDir) => {
      const file = join(contentDir, 'categories.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('title: Servants', 'title: Aaa servants'));
      return ['categories.yaml'];
    },
  ],
  [
    'a new entry',
    (contentDir) => {
      writeFileSync(join(contentDir, 'entries/1660/1660-02-02.html'), entryFile('1660-02-02', 'topics: [2]\n'));
      return ['entries/1660/1660-02-02.html'];
    },
  ],
  [
    'a removed entry',
    (contentDir) => {
      rmSync(join(contentDir, 'entries/1660/1660-02-01.html'));
      return ['entries/1660/1660-02-01.html'];
    },
  ],
  [
    'a file saved by rename (as editors do)',
    (contentDir) => {
      const target = join(contentDir, 'topics/11.yaml');
      writeFileSync(`${target}.tmp`, 'id: 11\ntitle: Saved by rename\n');
      renameSync(`${target}.tmp`, target);
      return ['topics/11.yaml.tmp', 'topics/11.yaml'];
    },
  ],
  [
    'a renamed folder',
    (contentDir) => {
      renameSync(join(contentDir, 'entries/1661'), join(contentDir, 'entries/year-1661'));
      return ['entries/1661', 'entries/year-1661'];
    },
  ],
  [
    'the site configuration',
    (contentDir) => {
      writeFileSync(
        join(contentDir, 'site.yaml'),
        'apiOrigin: https://other.test\nsiteOrigin: https://site.test\npageSize: 20\n',
      );
      return ['site.yaml'];
    },
  ],
];
/** The edits run every day (test/incremental.test.ts): one of each record's kind, and one gone. */
export const EVERYDAY_EDITS: readonly string[] = [
  "an entry's text",
  "a topic's title and categories",
  "a category's title (which reorders its parent's children)",
  'a removed entry',
];

/**
 * Makes the edits (those named by `only`, else all) one after the other in a session's content
 * (mediumSite(120, 60)), each followed by its rebuild, checked as the head of this file says.
 */
export async function checkEdits(
  session: BuildSession,
  contentDir: string,
  outDir: string,
  fullBuild: (contentDir: string) => Promise<Map<string, string>>,
  only?: readonly string[],
): Promise<void> {
  for (const [what, edit] of EDITS.filter(([what]) => only === undefined || only.includes(what))) {
    const before = readTree(outDir);
    const report = await session.rebuild(edit(contentDir));
    expect(report.ok, what).toBe(true);
    const after = readTree(outDir);
    expect(after, what).toEqual(await fullBuild(contentDir));
    expect([...report.changed].sort(), what).toEqual(differing(before, after));
    session.settle();
    expect(readTree(slotDir(outDir, 'a')), what).toEqual(readTree(slotDir(outDir, 'b')));
  }
}
