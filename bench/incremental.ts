// Rebuilds after one edit, as the watch mode does them: an entry's text, an entry's title (its
// list item changes: its pages and the site index too), a topic's title, a category's title, each
// edited anew in every round so that every rebuild has bytes to change. The first two and the
// third take the fast path (render/patch.ts), the category the general one.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATEGORIES_FILE } from '../generator/content/load.ts';
import { BuildSession } from '../generator/watch/session.ts';

export interface EditRun {
  kind: 'entry' | 'entryTitle' | 'topic' | 'category';
  file: string;
  ms: number[];
  changed: number[];
  /** Rebuilds made by the fast path. */
  fast: number;
  split: { load: number; validate: number; render: number; write: number }[];
}

export interface Edit {
  kind: EditRun['kind'];
  file: string;
  apply(text: string, round: number): string;
}

function firstFile(dir: string, ext: string): string {
  const walk = (d: string): string | null => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory()) {
        const found = walk(join(d, e.name));
        if (found !== null) return found;
      } else if (e.name.endsWith(ext)) return join(d, e.name);
    }
    return null;
  };
  const found = walk(dir);
  if (found === null) throw new Error(`no ${ext} file under ${dir}`);
  return found;
}

export function editsFor(contentDir: string): Edit[] {
  const rel = (p: string) => p.slice(contentDir.length + 1);
  return [
    {
      kind: 'entry',
      file: rel(firstFile(join(contentDir, 'entries', '1664'), '.html')),
      apply: (text, round) => text.replace('</p>', ` (benchmark edit ${round})</p>`),
    },
    {
      kind: 'entryTitle',
      file: rel(firstFile(join(contentDir, 'entries', '1665'), '.html')),
      // A title of the right shape, another in every round (docs/content-format.md).
      apply: (text, round) => text.replace(/^---\n(?:title: .*\n)?/, `---\ntitle: Sunday ${round} March 1665\n`),
    },
    {
      kind: 'topic',
      file: rel(firstFile(join(contentDir, 'topics'), '.yaml')),
      apply: (text, round) => text.replace(/^title: (.*)$/m, `title: $1 (benchmark edit ${round})`),
    },
    {
      kind: 'category',
      file: CATEGORIES_FILE,
      // The tenth category's title.
      apply: (text, round) => {
        let seen = 0;
        return text.replace(/^ {2}title: (.*)$/gm, (line, title: string) =>
          ++seen === 10 ? `  title: ${title} (benchmark edit ${round})` : line,
        );
      },
    },
  ];
}

export async function incrementalRebuilds(contentDir: string, outDir: string, rounds: number): Promise<EditRun[]> {
  const session = await BuildSession.open({ contentDir, outDir });
  const runs: EditRun[] = [];
  try {
    for (const edit of editsFor(contentDir)) {
      const path = join(contentDir, edit.file);
      const original = readFileSync(path, 'utf8');
      const run: EditRun = { kind: edit.kind, file: edit.file, ms: [], changed: [], fast: 0, split: [] };
      try {
        for (let round = 1; round <= rounds; round++) {
          const edited = edit.apply(original, round);
          if (edited === original) throw new Error(`the ${edit.kind} edit changed nothing in ${edit.file}`);
          writeFileSync(path, edited);
          const report = await session.rebuild([edit.file]);
          if (!report.ok)
            throw new Error(`the ${edit.kind} edit made the content invalid: ${report.problems[0]?.message}`);
          run.ms.push(report.timings.total);
          run.changed.push(report.changed.length);
          if (report.fast === true) run.fast++;
          const { load, validate, render, write } = report.timings;
          run.split.push({ load, validate, render, write });
          // The other tree's catch-up happens after a grace period in real use: not timed here.
          session.settle();
        }
      } finally {
        writeFileSync(path, original);
        await session.rebuild([edit.file]);
        session.settle();
      }
      runs.push(run);
    }
  } finally {
    session.close();
  }
  return runs;
}
