// Random sequences of what users and their tools do to a content directory while the watch mode
// runs: edits in place, creations, deletions, renames of files and folders, directories deleted
// and made again, whole trees replaced, editors' atomic saves, sed -i, mass deletes, and invalid
// edits of every kind (bad YAML, bad dates and titles, bytes that are not UTF-8, links to
// nothing, directories and FIFOs named like content files, a broken site.yaml or categories.yaml).
// Everything is decided by a seeded prng, so a failing sequence can be replayed from its seed.

import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import type { ConfigOverrides } from '../../generator/content/config.ts';
import { loadContent } from '../../generator/content/load.ts';
import { ContentError } from '../../generator/content/problems.ts';
import { prng } from '../../generator/core/random.ts';
import { startWatching, type WatchOptions } from '../../generator/watch/watch.ts';
import { CATEGORIES_YAML, entryFile, writeContent } from './content.ts';
import { readTree } from './files.ts';
import { tempDir } from './temp.ts';
import { answer, coldBuild, differing, problemLines, samplePaths, serve } from './watch-check.ts';

export type Rand = (n: number) => number;

export const SITE_YAML = 'apiOrigin: https://api.test\nsiteOrigin: https://site.test\npageSize: 3\n';

/** The starting site: a dozen entries in two years, six topics, three categories. */
export function randomSite(): Record<string, string> {
  const files: Record<string, string> = { 'site.yaml': SITE_YAML, 'categories.yaml': CATEGORIES_YAML };
  for (let id = 1; id <= 6; id++)
    files[`topics/${id}.yaml`] = topicText(id, `Topic ${id}`, ['people', 'household', 'servants'][id % 3] as string);
  for (let d = 1; d <= 6; d++) {
    files[`entries/1660/1660-01-0${d}.html`] = entryFile(`1660-01-0${d}`, `topics: [${1 + (d % 2)}]\n`);
    files[`entries/1661/1661-03-1${d}.html`] = entryFile(`1661-03-1${d}`, d % 2 === 0 ? 'topics: [2]\n' : '');
  }
  return files;
}

function topicText(id: number, title: string, category: string): string {
  return `id: ${id}\ntitle: ${title}\ncategories: [${category}]\n`;
}

/**
 * The name of the file a storm creates and deletes every few milliseconds from another process
 * (test/heavy/watch-storm.test.ts): random operations leave it alone, it is not theirs to edit.
 */
export const FLICKER_FILE = 'topics/flicker.yaml';

/** Every entry and topic file now under `dir` (names as the generator lists them, roughly). */
function contentFiles(dir: string, sub: string, suffix: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    let names: import('node:fs').Dirent[];
    try {
      names = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) {
      const path = `${rel}/${d.name}`;
      if (d.isDirectory()) walk(path);
      else if (d.isFile() && d.name.endsWith(suffix) && path !== FLICKER_FILE) out.push(path);
    }
  };
  walk(sub);
  return out.sort();
}

function subdirs(dir: string, sub: string): string[] {
  try {
    return readdirSync(join(dir, sub), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `${sub}/${d.name}`)
      .sort();
  } catch {
    return [];
  }
}

const pick = <T>(rand: Rand, list: readonly T[]): T | undefined =>
  list.length === 0 ? undefined : list[rand(list.length)];

function write(dir: string, rel: string, text: string | Buffer): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

function randomDate(rand: Rand): string {
  const year = 1660 + rand(3);
  return `${year}-0${1 + rand(3)}-${String(1 + rand(28)).padStart(2, '0')}`;
}

function randomEntry(rand: Rand, date: string): string {
  const ids = [...new Set([1 + rand(6), 1 + rand(6)])].sort((a, b) => a - b);
  const topics = rand(3) === 0 ? '' : `topics: [${ids.join(', ')}]\n`;
  return entryFile(
    date,
    topics,
    `<p>Text ${rand(1000)} of ${date}.</p>${rand(2) === 0 ? '\n<!-- footnotes -->\n<p>A note.</p>' : ''}`,
  );
}

/** The text of an existing file with its body or title changed, still valid. */
function edited(rand: Rand, text: string): string {
  if (text.startsWith('---')) return text.replace(/<p>[^<]*<\/p>/, `<p>Edited ${rand(100000)}.</p>`);
  return text.replace(/^title: .*$/m, `title: Edited ${rand(100000)}`);
}

interface Op {
  name: string;
  /** True when the operation may leave the content invalid. */
  breaks: boolean;
  apply(dir: string, rand: Rand): void;
}

/** A name for an entry or topic file that is there now. */
function anyFile(dir: string, rand: Rand): string | undefined {
  return pick(rand, [...contentFiles(dir, 'entries', '.html'), ...contentFiles(dir, 'topics', '.yaml')]);
}

const OPS: readonly Op[] = [
  {
    name: 'edit in place',
    breaks: false,
    apply: (dir, rand) => {
      const f = anyFile(dir, rand);
      if (f !== undefined) writeFileSync(join(dir, f), edited(rand, readFileSync(join(dir, f), 'utf8')));
    },
  },
  {
    name: 'atomic save (temporary file renamed over)',
    breaks: false,
    apply: (dir, rand) => {
      const f = anyFile(dir, rand);
      if (f === undefined) return;
      const temp = join(dir, dirname(f), rand(2) === 0 ? `.${f.split('/').pop()}.swp` : `${f.split('/').pop()}.tmp~`);
      writeFileSync(temp, edited(rand, readFileSync(join(dir, f), 'utf8')));
      renameSync(temp, join(dir, f));
    },
  },
  {
    name: 'vim save (rename to backup, write, delete backup)',
    breaks: false,
    apply: (dir, rand) => {
      const f = anyFile(dir, rand);
      if (f === undefined) return;
      const text = readFileSync(join(dir, f), 'utf8');
      renameSync(join(dir, f), join(dir, `${f}~`));
      writeFileSync(join(dir, f), edited(rand, text));
      rmSync(join(dir, `${f}~`));
    },
  },
  {
    name: 'sed -i',
    breaks: false,
    apply: (dir, rand) => {
      const f = anyFile(dir, rand);
      if (f !== undefined)
        spawnSync('sed', [
          '-i',
          `s/<p>[^<]*<\\/p>/<p>sed ${rand(1000)}<\\/p>/; s/^title: .*$/title: Sed ${rand(1000)}/`,
          join(dir, f),
        ]);
    },
  },
  {
    // The fast path's reach beyond the edited file: the topics it stops or starts mentioning.
    name: "an entry's topics",
    breaks: true,
    apply: (dir, rand) => {
      const f = pick(rand, contentFiles(dir, 'entries', '.html'));
      if (f === undefined) return;
      const ids = [...new Set([1 + rand(6), 1 + rand(6)])].sort((a, b) => a - b);
      const line = rand(4) === 0 ? '' : `topics: [${ids.join(', ')}]\n`;
      const text = readFileSync(join(dir, f), 'utf8').replace(/^topics: .*\n/m, '');
      writeFileSync(join(dir, f), text.replace(/^(date: .*\n)/m, `$1${line}`));
    },
  },
  {
    name: 'create an entry',
    breaks: true,
    apply: (dir, rand) => {
      const date = randomDate(rand);
      write(dir, `entries/${date.slice(0, 4)}/${date}.html`, randomEntry(rand, date));
    },
  },
  {
    name: 'create a topic',
    breaks: true,
    apply: (dir, rand) => {
      const id = 7 + rand(6);
      write(
        dir,
        `topics/${id}.yaml`,
        topicText(id, `New ${id}`, pick(rand, ['people', 'household', 'servants']) as string),
      );
    },
  },
  {
    name: 'delete a file',
    breaks: true,
    apply: (dir, rand) => {
      const f = anyFile(dir, rand);
      if (f !== undefined) rmSync(join(dir, f));
    },
  },
  {
    name: 'rename a file',
    breaks: false,
    apply: (dir, rand) => {
      const f = contentFiles(dir, 'entries', '.html');
      const from = pick(rand, f);
      const to = pick(rand, [...subdirs(dir, 'entries'), 'entries']);
      if (from !== undefined && to !== undefined) renameSync(join(dir, from), join(dir, to, `r${rand(1000)}.html`));
    },
  },
  {
    name: 'rename a directory',
    breaks: false,
    apply: (dir, rand) => {
      const d = pick(rand, subdirs(dir, 'entries'));
      const to = join(dir, `entries/y${rand(10)}`);
      if (d !== undefined && !existsSync(to)) renameSync(join(dir, d), to);
    },
  },
  {
    name: 'delete a directory and make it again',
    breaks: true,
    apply: (dir, rand) => {
      const d = pick(rand, subdirs(dir, 'entries'));
      if (d === undefined) return;
      rmSync(join(dir, d), { recursive: true, maxRetries: 5 });
      if (rand(3) === 0) return;
      mkdirSync(join(dir, d));
      for (let i = rand(3); i >= 0; i--) {
        const date = randomDate(rand);
        writeFileSync(join(dir, d, `${date}.html`), randomEntry(rand, date));
      }
    },
  },
  {
    name: 'replace the whole entries tree',
    breaks: true,
    apply: (dir, rand) => {
      const staged = join(dir, 'entries.new');
      rmSync(staged, { recursive: true, force: true, maxRetries: 5 });
      for (const f of contentFiles(dir, 'entries', '.html'))
        if (rand(3) !== 0) write(dir, `entries.new/${f.slice('entries/'.length)}`, readFileSync(join(dir, f)));
      const date = randomDate(rand);
      write(dir, `entries.new/${date.slice(0, 4)}/${date}.html`, randomEntry(rand, date));
      rmSync(join(dir, 'entries'), { recursive: true, force: true, maxRetries: 5 });
      renameSync(staged, join(dir, 'entries'));
    },
  },
  {
    name: 'mass delete',
    breaks: true,
    apply: (dir, rand) => {
      for (const f of contentFiles(dir, 'entries', '.html')) if (rand(2) === 0) rmSync(join(dir, f));
    },
  },
  {
    name: 'edit site.yaml',
    breaks: false,
    apply: (dir, rand) => {
      writeFileSync(
        join(dir, 'site.yaml'),
        SITE_YAML.replace(
          'pageSize: 3',
          `pageSize: ${2 + rand(4)}${rand(2) === 0 ? '\ntitleConvention: every-year' : ''}`,
        ),
      );
    },
  },
  {
    name: 'edit categories.yaml',
    breaks: false,
    apply: (dir, rand) => {
      writeFileSync(
        join(dir, 'categories.yaml'),
        CATEGORIES_YAML.replace('title: Servants', `title: Servants ${rand(100)}`),
      );
    },
  },
  {
    name: 'break site.yaml',
    breaks: true,
    apply: (dir) => writeFileSync(join(dir, 'site.yaml'), 'apiOrigin: [unclosed\n'),
  },
  {
    name: 'break categories.yaml',
    breaks: true,
    apply: (dir) => writeFileSync(join(dir, 'categories.yaml'), '- slug: people\n  title: [People\n'),
  },
  {
    name: 'invalid edit of a file',
    breaks: true,
    apply: (dir, rand) => {
      const f = anyFile(dir, rand);
      if (f === undefined) return;
      const bad = [
        () => (f.endsWith('.html') ? '---\ndate: 1660-02-30\n---\n<p>x</p>\n' : 'id: twelve\ntitle: T\n'),
        () =>
          f.endsWith('.html')
            ? '---\ndate: 1660-02-03\ntitle: The King comes aboard\n---\n'
            : 'id: 5\ntitle: [unclosed\n',
        () =>
          Buffer.from(
            f.endsWith('.html') ? '---\ndate: 1660-02-04\n---\n<p>caf\xe9</p>\n' : 'id: 5\ntitle: caf\xe9\n',
            'latin1',
          ),
      ];
      writeFileSync(join(dir, f), (pick(rand, bad) as () => string | Buffer)());
    },
  },
  {
    name: 'odd things named like content',
    breaks: true,
    apply: (dir, rand) => {
      const d = pick(rand, [...subdirs(dir, 'entries'), 'entries', 'topics']);
      if (d === undefined || !existsSync(join(dir, d))) return;
      const name = join(dir, d, `odd${rand(5)}${d.startsWith('topics') ? '.yaml' : '.html'}`);
      if (existsSync(name) || isLink(name)) return;
      const kind = rand(3);
      if (kind === 0) symlinkSync('nowhere', name);
      else if (kind === 1) mkdirSync(name);
      else spawnSync('mkfifo', [name]);
    },
  },
];

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The operations' names, by index (applyOp). */
export const OP_NAMES: readonly string[] = OPS.map((op) => op.name);

/** Applies operation `index` (of OP_NAMES), its choices made by `rand`; returns its name. */
export function applyOp(dir: string, index: number, rand: Rand): string {
  const op = OPS[index] as Op;
  op.apply(dir, rand);
  return op.name;
}

/** Applies one random operation; returns its name. */
export function randomOp(dir: string, rand: Rand): string {
  return applyOp(dir, rand(OPS.length), rand);
}

/**
 * Makes the content valid again the blunt way: site.yaml and categories.yaml are put back, and
 * every other file a problem names is removed, until a load finds none.
 */
export async function repair(dir: string): Promise<number> {
  let removed = 0;
  for (let round = 0; round < 20; round++) {
    try {
      mkdirSync(join(dir, 'entries'), { recursive: true });
      await loadContent(dir);
      return removed;
    } catch (err) {
      if (!(err instanceof ContentError)) throw err;
      for (const p of err.problems) {
        if (p.file === 'site.yaml') writeFileSync(join(dir, 'site.yaml'), SITE_YAML);
        else if (p.file === 'categories.yaml') writeFileSync(join(dir, 'categories.yaml'), CATEGORIES_YAML);
        else if (p.file !== '') {
          rmSync(join(dir, p.file), { recursive: true, force: true, maxRetries: 5 });
          removed++;
        }
      }
    }
  }
  throw new Error(`${dir}: could not be made valid`);
}

const overrides: ConfigOverrides = { apiOrigin: 'http://mirror.test' };

export interface RandomRun {
  sequences: number;
  opsPerSequence: number;
  /** Wait this many ms (at random, up to) between operations: rebuilds then run mid-sequence. */
  maxPauseMs: number;
  options: Partial<WatchOptions>;
  /** How a checkpoint waits for the session: settled() (events), or rescan() (polling). */
  mode: 'events' | 'rescan';
}

export interface RunCount {
  operations: number;
  checkpoints: number;
  invalidCheckpoints: number;
}

/**
 * Runs random sequences on one watch session, each followed by a checkpoint, a repair and another
 * checkpoint; fails, naming the seed and the last operations, on any mismatch.
 */
export async function runRandomSequences(seed: number, run: RandomRun): Promise<RunCount> {
  const rand = prng(seed);
  const contentDir = writeContent(randomSite());
  const outDir = join(tempDir('pepys-watch-'), 'public');
  const coldOut = join(tempDir('pepys-cold-'), 'public');
  const watcher = await startWatching({
    contentDir,
    outDir,
    overrides,
    env: {},
    onWarning: () => {},
    downloadsDelayMs: -1,
    ...run.options,
  });
  const live = await serve(outDir);
  const cold = await serve(coldOut);
  const count: RunCount = { operations: 0, checkpoints: 0, invalidCheckpoints: 0 };
  const done: string[] = [];
  const where = () => `seed ${seed} (WATCH_SEED=${seed}), after: ${done.slice(-12).join('; ')}`;

  const checkpoint = async (label: string) => {
    if (run.mode === 'rescan') await watcher.rescan();
    await watcher.settled();
    count.checkpoints++;
    const expected = await coldBuild(contentDir, overrides, coldOut);
    if (!expected.ok) {
      count.invalidCheckpoints++;
      const report = watcher.lastReport;
      expect(report?.ok, `${label}: the session should report the content invalid; ${where()}`).toBe(false);
      expect(problemLines(report?.problems ?? []), `${label}: problems; ${where()}`).toEqual(expected.problems);
      return;
    }
    expect(
      differing(readTree(outDir), expected.tree),
      `${label}: output differs from a cold build; ${where()}`,
    ).toEqual([]);
    for (const path of samplePaths(expected.tree, rand)) {
      expect(await answer(live.origin, path), `${label}: ${path}; ${where()}`).toBe(await answer(cold.origin, path));
    }
  };

  try {
    for (let s = 0; s < run.sequences; s++) {
      for (let i = 0; i < run.opsPerSequence; i++) {
        done.push(randomOp(contentDir, rand));
        count.operations++;
        if (run.maxPauseMs > 0 && rand(2) === 0) await new Promise((r) => setTimeout(r, rand(run.maxPauseMs)));
      }
      await checkpoint(`sequence ${s}`);
      done.push(`repair (${await repair(contentDir)} files removed)`);
      await checkpoint(`sequence ${s}, repaired`);
    }
  } finally {
    await watcher.close();
    await live.stop();
    await cold.stop();
  }
  return count;
}
