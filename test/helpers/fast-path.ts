// The watch mode's fast path (render/patch.ts, BuildSession.fastEdits) against its general path
// (validate everything, render everything through the memo) and against a cold build: two
// sessions over two copies of the same content get the same random edits, most of them of the
// kinds the fast path takes (an entry's text, title, topics, times; a topic's title, text, its
// kind written as it was), some of the kinds it must leave to the general path (a date, a new or
// deleted file, a topic's categories or kind, invalid content and its repair). After every
// rebuild both live trees are equal and both reports name the same changed files; at the end of
// each sequence, both equal a cold build.
// test/watch-fast.test.ts runs one sequence every day, test/heavy/watch-fast.test.ts nine.
// The seed is printed on failure; FAST_SEED=<n> replays it.

import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { build } from '../../generator/build.ts';
import { prng } from '../../generator/core/random.ts';
import { BuildSession, type RebuildReport } from '../../generator/watch/session.ts';
import { CATEGORIES_YAML, entryFile, writeContent } from './content.ts';
import { readTree } from './files.ts';
import { tempDir } from './temp.ts';

const baseSeed = Number(process.env.FAST_SEED ?? Date.now() % 1_000_000_000);
type Rand = (n: number) => number;

const TOPICS = 12;
const CATEGORIES = ['people', 'household', 'servants'];

/** A small site with pages of 3, so that an edit moves pages, the site index and the OpenAPI document. */
function site(): Record<string, string> {
  const files: Record<string, string> = {
    'site.yaml': 'apiOrigin: https://api.test\nsiteOrigin: https://site.test\npageSize: 3\n',
    'categories.yaml': CATEGORIES_YAML,
  };
  for (let id = 1; id <= TOPICS; id++)
    files[`topics/${id}.yaml`] = `id: ${id}\ntitle: Topic ${id}\ncategories: [${CATEGORIES[id % 3]}]\n`;
  for (let d = 1; d <= 20; d++) {
    const date = `166${d % 3}-0${1 + (d % 9)}-1${d % 10}`;
    files[`entries/${date.slice(0, 4)}/${date}.html`] = entryFile(date, `topics: [${1 + (d % TOPICS)}]\n`);
  }
  return files;
}

/** The files under `sub` of `dir`, as paths relative to `dir`. */
function files(dir: string, sub: string): string[] {
  return readdirSync(join(dir, sub), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => `${join(d.parentPath, d.name).slice(dir.length + 1)}`)
    .sort();
}

const ids = (rand: Rand) => [...new Set(Array.from({ length: rand(4) }, () => 1 + rand(TOPICS)))].sort((a, b) => a - b);
const time = (rand: Rand) => `202${rand(6)}-0${1 + rand(9)}-1${rand(10)}T0${rand(10)}:00:00Z`;

/** Replaces (or adds) the front-matter key `key` of an entry file, or a topic file's key. */
function setKey(text: string, key: string, value: string | null): string {
  const line = new RegExp(`^${key}: .*\\n`, 'm');
  const without = text.replace(line, '');
  if (value === null) return without;
  return text.startsWith('---\n')
    ? without.replace(/^---\n/, `---\n${key}: ${value}\n`)
    : `${without}${key}: ${value}\n`;
}

interface Edit {
  /** The fast path may take it (when the content was valid before); null: it may or may not. */
  fast: boolean | null;
  /** Applies it to a content directory; returns the paths it touched. */
  apply(dir: string): string[];
}

/** A random edit, decided now, applied the same way to any copy of the content. */
function randomEdit(rand: Rand, dir: string): Edit {
  const entries = files(dir, 'entries');
  const topics = files(dir, 'topics');
  const entry = entries[rand(entries.length)] as string;
  const topic = topics[rand(topics.length)] as string;
  const onEntry = (fast: boolean | null, change: (text: string) => string): Edit => ({
    fast,
    apply: (d) => {
      writeFileSync(join(d, entry), change(readFileSync(join(d, entry), 'utf8')));
      return [entry];
    },
  });
  const onTopic = (fast: boolean | null, change: (text: string) => string): Edit => ({
    fast,
    apply: (d) => {
      writeFileSync(join(d, topic), change(readFileSync(join(d, topic), 'utf8')));
      return [topic];
    },
  });
  const n = rand(1000);
  switch (rand(16)) {
    case 0:
      return onEntry(true, (t) => t.replace(/<p>[^<]*<\/p>/, `<p>Edited ${n}.</p>`));
    case 1: {
      // A link to a topic's page (issue 17: the entry then mentions it), on the site or on a link
      // origin; now and then to a topic that does not exist (invalid: the general path).
      const id = rand(8) === 0 ? 99 : 1 + rand(TOPICS);
      const origin = ['https://site.test', 'https://www.pepysdiary.com', ''][rand(3)];
      const link = `<a href="${origin}/encyclopedia/${id}/">a topic</a>`;
      return onEntry(id !== 99, (t) => t.replace(/<p>[^<]*/, `<p>Edited ${n}, ${link}`));
    }
    case 2:
      return onEntry(true, (t) => setKey(t, 'topics', `[${ids(rand).join(', ')}]`));
    case 3:
      return onEntry(true, (t) => setKey(t, 'lastModifiedTime', rand(3) === 0 ? null : time(rand)));
    case 4:
      return onEntry(true, (t) => setKey(t, 'annotationCount', String(n)));
    case 5: {
      // A given title of the right shape, or none (the computed one).
      const title = rand(2) === 0 ? null : `Sunday ${1 + rand(28)} March 166${rand(9)}`;
      return onEntry(true, (t) => setKey(t, 'title', title));
    }
    case 6:
    case 7:
      return onTopic(true, (t) => setKey(t, 'title', `Title ${n}`));
    case 8:
      // A kind of its own, or none (then its categories give it one: site.yaml `kinds`). The same
      // kind may take the fast path; another moves the topic between the kinds' lists, which the
      // general path renders (core/topic-lists.ts).
      return onTopic(null, (t) => setKey(t, 'kind', ['person', 'place', 'default', null][rand(4)] ?? null));
    case 9:
      return onTopic(true, (t) => setKey(t, 'wheatleyHTML', `"<p>${n}</p>"`));
    case 10: {
      // Another category than the one it has.
      const shift = 1 + rand(2);
      return onTopic(false, (t) => {
        const now = CATEGORIES.findIndex((c) => t.includes(`[${c}]`));
        return setKey(t, 'categories', `[${CATEGORIES[(Math.max(0, now) + shift) % 3]}]`);
      });
    }
    case 11: {
      // Two edits at once: an entry's topics and a topic's title.
      const a = onEntry(true, (t) => setKey(t, 'topics', `[${ids(rand).join(', ')}]`));
      const b = onTopic(true, (t) => setKey(t, 'title', `Both ${n}`));
      return { fast: true, apply: (d) => [...a.apply(d), ...b.apply(d)] };
    }
    case 12: {
      // A new date (the file stays): the general path. Unless an earlier step gave the entry this
      // very date: then the file is written again as it was, which the fast path may take.
      const date = `1665-1${rand(3)}-2${rand(10)}`;
      const same = readFileSync(join(dir, entry), 'utf8').includes(`\ndate: ${date}\n`);
      return onEntry(same ? null : false, (t) => t.replace(/^date: .*$/m, `date: ${date}`));
    }
    case 13: {
      // A new entry file, or one deleted. A "new" file whose path an earlier step already made
      // is an edit of that entry that keeps its date: the fast path may take it.
      const date = `1667-0${1 + rand(9)}-0${1 + rand(9)}`;
      const path = `entries/1667/${date}.html`;
      const remove = rand(2) === 0 && entries.length > 3;
      return {
        fast: remove || !existsSync(join(dir, path)) ? false : null,
        apply: (d) => {
          if (remove) rmSync(join(d, entry), { force: true });
          else {
            mkdirSync(join(d, 'entries/1667'), { recursive: true });
            writeFileSync(join(d, path), entryFile(date, `topics: [${1 + rand(TOPICS)}]\n`));
          }
          return [remove ? entry : path];
        },
      };
    }
    case 14:
      return onEntry(false, (t) => setKey(t, 'topics', `[${TOPICS + 1 + rand(3)}]`)); // unknown topic: invalid
    default: {
      // Invalid YAML, then (as the next edit may) anything.
      return onTopic(false, (t) => `${t}broken: [\n`);
    }
  }
}

const sessions: BuildSession[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
});

async function cold(contentDir: string): Promise<Map<string, string>> {
  const out = join(tempDir('pepys-cold-'), 'public');
  await build({ contentDir, outDir: out, quiet: true, env: {} });
  return readTree(out);
}

async function open(contentDir: string, fastPath: boolean): Promise<{ session: BuildSession; outDir: string }> {
  const outDir = join(tempDir('pepys-watch-'), 'public');
  const session = await BuildSession.open({ contentDir, outDir, env: {}, fastPath, downloadsDelayMs: 3_600_000 });
  sessions.push(session);
  return { session, outDir };
}

/**
 * Runs `sequences` random sequences of 30 edits each (seeds baseSeed, baseSeed + 1…); see the head.
 * The fast path must do more than a fifth of the rebuilds, and be checked against a cold build at
 * every fifth step that is valid (at least once a sequence on average).
 */
export async function checkFastPath(sequences: number): Promise<void> {
  let fastRebuilds = 0;
  let coldChecks = 0;
  for (let sequence = 0; sequence < sequences; sequence++) {
    const seed = baseSeed + sequence;
    const rand = prng(seed);
    const fastDir = writeContent(site());
    const fullDir = tempDir('pepys-content-');
    cpSync(fastDir, fullDir, { recursive: true });
    const fast = await open(fastDir, true);
    const full = await open(fullDir, false);
    /** Every content file as it was at the last valid state: after an invalid one, the next step puts them back. */
    const saved = new Map<string, string>();
    for (const p of [...files(fastDir, 'entries'), ...files(fastDir, 'topics')])
      saved.set(p, readFileSync(join(fastDir, p), 'utf8'));
    let repair = false;
    for (let step = 0; step < 30; step++) {
      const edit: Edit = repair
        ? {
            // Back to what the last valid render was made from: the fast path may well take it.
            fast: null,
            apply: (d) => {
              const touched: string[] = [];
              for (const p of [...files(d, 'entries'), ...files(d, 'topics')]) {
                if (saved.has(p)) continue;
                rmSync(join(d, p));
                touched.push(p);
              }
              for (const [p, text] of saved) {
                if (existsSync(join(d, p)) && readFileSync(join(d, p), 'utf8') === text) continue;
                writeFileSync(join(d, p), text);
                touched.push(p);
              }
              return touched;
            },
          }
        : randomEdit(rand, fastDir);
      const paths = edit.apply(fastDir);
      // The same edit on the other copy: the same bytes, or the same deletion.
      for (const p of paths) {
        if (existsSync(join(fastDir, p))) {
          mkdirSync(dirname(join(fullDir, p)), { recursive: true });
          cpSync(join(fastDir, p), join(fullDir, p));
        } else rmSync(join(fullDir, p), { force: true });
      }
      const a: RebuildReport = await fast.session.rebuild(paths);
      const b: RebuildReport = await full.session.rebuild(paths);
      const where = `seed ${seed}, step ${step}, ${paths.join(' ')}`;
      // Back to the last valid state at the next step, whatever made it invalid.
      repair = !b.ok;
      expect(a.ok, where).toBe(b.ok);
      expect(a.error, where).toBeNull();
      expect([...a.changed].sort(), where).toEqual([...b.changed].sort());
      expect(b.fast, where).toBeUndefined();
      if (edit.fast === false) expect(a.fast, where).toBeUndefined();
      if (a.fast === true) fastRebuilds++;
      const live = readTree(fast.outDir);
      expect(live, where).toEqual(readTree(full.outDir));
      if (a.ok && step % 5 === 4) {
        // The downloads, made after a burst of edits (here: only when asked), then hold the
        // same as a cold build's.
        expect(fast.session.makeDownloadsNow().sort(), where).toEqual(full.session.makeDownloadsNow().sort());
        expect(readTree(fast.outDir), where).toEqual(await cold(fastDir));
        coldChecks++;
      }
      if (b.ok) {
        saved.clear();
        for (const p of [...files(fastDir, 'entries'), ...files(fastDir, 'topics')])
          saved.set(p, readFileSync(join(fastDir, p), 'utf8'));
      }
      fast.session.settle();
      full.session.settle();
    }
  }
  // The fast path did most of the work, and was checked against cold builds (over 40 fast
  // rebuilds and 5 checks in 6 sequences, as many for each sequence in any number of them).
  expect(fastRebuilds).toBeGreaterThan((40 * sequences) / 6);
  expect(coldChecks).toBeGreaterThan((5 * sequences) / 6);
}
