// npm run bench:watch: what an edit costs the clients of `npm start -- --watch` on the whole diary.
// The server builds a copy of the bench's 1x content and watches it; a client asks for one entry
// every 10 ms, one at a time, and one second in, an entry's text is edited (as bench/incremental.ts
// edits it). Printed per run: the answers, their median, 99th percentile and longest, and the
// longest few with when they came (the edit's rebuild, the rescan after it, the downloads made
// again a second later); and how soon the server served, over no output and, stopped, started
// again over the output it left. Never a test: figures only. See docs/performance.md,
// "Incremental rebuilds" and "The watch mode's start".
//
//   npm run bench:watch -- [--runs 3] [--seconds 6] [--edit entry|topic] [--corpus DIR] [--json FILE]

import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail } from '../generator/cli/exit.ts';
import { parseCommand, STANDARD_HELP, STANDARD_OPTIONS, wholeNumber } from '../generator/cli/options.ts';
import { copyTree } from './cold.ts';
import { editsFor } from './incremental.ts';
import { machineFacts, sampleLoad } from './machine.ts';
import { cleanedUp, median, sleep, waitForSettledDisk } from './measure.ts';
import { startServer } from './server.ts';
import { BENCH_HELP, benchOptions, benchPlace, prepareWorkload } from './workload.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: npm run bench:watch -- [--runs 3] [--seconds 6] [--edit entry|topic] [--corpus DIR] [--json FILE]

Serves the whole diary with npm start -- --watch, asks for an entry every 10 ms and edits another
one second in: prints how long the answers took around the edit, and how soon the server served
(over no output, then started again over its own).

  --runs <n>           runs, each with a server of its own (default: 3)
  --seconds <n>        how long each run asks (default: 6)
  --edit <kind>        what is edited: an entry's text (entry, the default) or a topic's title (topic)
${BENCH_HELP}
${STANDARD_HELP}
`;
const { values } = parseCommand('npm run bench:watch', USAGE, {
  options: {
    ...STANDARD_OPTIONS,
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '6' },
    edit: { type: 'string', default: 'entry' },
    ...benchOptions(repo),
  },
});
const runs = wholeNumber('runs', values.runs as string);
const seconds = Number(values.seconds);
if (!(seconds >= 2)) fail(`--seconds: ${values.seconds} is not a number of at least 2`);
const { work, trash, log } = benchPlace(repo, values.corpus as string);
if (values['no-wait'] !== true) await waitForSettledDisk(work, log);

const workload = await prepareWorkload(repo, values.corpus as string, work, 1, trash);
const content = join(work, 'watch-content');
const out = join(work, 'watch-out');
const kind = values.edit as string;
if (kind !== 'entry' && kind !== 'topic') fail(`--edit: ${kind} is not entry or topic`);
const found = editsFor(workload.contentDir).find((e) => e.kind === kind);
if (found === undefined) throw new Error(`no ${kind} to edit`);
const edit = found;
const asked = '/api/v1/entries/1660-01-02';

interface Run {
  answers: number;
  p50: number;
  p99: number;
  longest: { ms: number; at: number }[];
  /** From the edit's write to the first answer that shows it (ms), or null if none did in the run. */
  current: { detail: number | null; search: number | null; downloads: number | null };
  /** From the command's start to its server's first line (ms): over no output, then again over its own. */
  serving: { fresh: number; again: number };
}

/** Starts `npm start` with these arguments; the server, and the milliseconds until it served. */
async function timedServer(how: readonly string[]): Promise<{ child: ChildProcess; origin: string; ms: number }> {
  const t = performance.now();
  const started = await startServer(repo, out, how);
  return { ...started, ms: performance.now() - t };
}

/** Stops a server as Ctrl-C would (the watch mode then waits for its downloads and its record). */
async function stopped(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
}

// The edited record's key (its file's name: an entry's date, a topic's id), and a word only the
// edit brings (issue 34's target: an edit's answers current within 100 ms, the downloads within 2 s).
const editedKey = edit.file.replace(/^.*\//, '').replace(/\.[a-z]+$/, '');
const collection = kind === 'entry' ? 'entries' : 'topics';
const DOWNLOADS = '/api/v1/downloads';
/** How long after the edit its answers are waited for (the run's own asking may end before). */
const WATCH_MS = 20_000;

/**
 * Asks for `path` every 5 ms, one request at a time, until `shows` holds of its body or `until`
 * passes; the milliseconds from `since` to the arrival of the first answer that showed it (an
 * upper bound: a request asked before the edit went live may wait for the rebuild and show it).
 */
async function firstShowing(
  origin: string,
  path: string,
  shows: (body: string) => boolean,
  since: number,
  until: number,
): Promise<number | null> {
  while (performance.now() < until) {
    const r = await fetch(`${origin}${path}`);
    const body = await r.text();
    if (r.status === 200 && shows(body)) return performance.now() - since;
    await sleep(5);
  }
  return null;
}

async function oneRun(round: number): Promise<Run> {
  await copyTree(workload.contentDir, content, trash);
  trash.put(out);
  // One origin for every start (the port is any free one): a server started again over its own
  // output then renders the same bytes, as a mirror's does on its usual port.
  const how = ['--content', content, '--watch', '--quiet', '--api-origin', 'http://127.0.0.1:8888'];
  const { child, origin, ms: fresh } = await timedServer(how);
  let run: Omit<Run, 'serving'>;
  try {
    // The tree that was live before the first rebuild is brought up to date after a second.
    await sleep(2000);
    const times: { ms: number; at: number }[] = [];
    const t0 = performance.now();
    const downloadsBefore = await (await fetch(`${origin}${DOWNLOADS}`)).text();
    const marker = `benchmark edit ${round}`;
    let edited = false;
    let current: Promise<Run['current']> | undefined;
    while (performance.now() - t0 < seconds * 1000) {
      if (!edited && performance.now() - t0 >= 1000) {
        const file = join(content, edit.file);
        writeFileSync(file, edit.apply(readFileSync(file, 'utf8'), round));
        edited = true;
        const at = performance.now();
        const watchUntil = at + WATCH_MS;
        // Three other clients: the edited entry, a search for the edit's word, the downloads' listing.
        current = Promise.all([
          firstShowing(origin, `/api/v1/${collection}/${editedKey}`, (b) => b.includes(marker), at, watchUntil),
          firstShowing(
            origin,
            `/api/v1/${collection}?search=benchmark`,
            // An entry's date is in its item; a topic's edited title is.
            (b) => b.includes(kind === 'entry' ? `"${editedKey}"` : marker),
            at,
            watchUntil,
          ),
          firstShowing(origin, DOWNLOADS, (b) => b !== downloadsBefore, at, watchUntil),
        ]).then(([detail, search, downloads]) => ({ detail, search, downloads }));
      }
      const start = performance.now();
      const r = await fetch(`${origin}${asked}`);
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`${asked} answered ${r.status}`);
      times.push({ ms: performance.now() - start, at: (start - t0) / 1000 });
      await sleep(10);
    }
    const sorted = times.map((t) => t.ms).sort((a, b) => a - b);
    run = {
      answers: times.length,
      p50: median(sorted),
      p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] as number,
      longest: [...times].sort((a, b) => b.ms - a.ms).slice(0, 4),
      current: (await current) ?? { detail: null, search: null, downloads: null },
    };
  } finally {
    await stopped(child);
  }
  // Started again over the output it left (the same content): a mirror's restart.
  const again = await timedServer(how);
  await stopped(again.child);
  return { ...run, serving: { fresh, again: again.ms } };
}

const machine = machineFacts(repo);
const load = sampleLoad();
const results: Run[] = [];
for (let i = 0; i < runs; i++) {
  log(`run ${i + 1} of ${runs} …`);
  results.push(await oneRun(i + 1));
}
const loadSeen = load.stop();
trash.put(content);
trash.put(out);
trash.empty();
cleanedUp(work);

const shown = (n: number | null) => (n === null ? 'never' : `after ${ms(n)}`);
const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
const inSeconds = (n: number) => `${(n / 1000).toFixed(2)} s`;
process.stdout.write(
  `machine: ${machine.cpu}, ${machine.cores} cores; Node ${machine.node}; commit ${machine.commit}\n` +
    `load average (1 min): min ${loadSeen.min.toFixed(2)}, mean ${loadSeen.mean.toFixed(2)}, max ${loadSeen.max.toFixed(2)}\n` +
    `npm start -- --watch on the whole diary (${workload.files} content files); ${asked} every 10 ms, ` +
    `one ${kind === 'entry' ? "entry's text" : "topic's title"} edited at 1 s (${edit.file})\n\n`,
);
for (const [i, r] of results.entries()) {
  const longest = r.longest.map((l) => `${ms(l.ms)} at ${l.at.toFixed(2)} s`).join(', ');
  process.stdout.write(
    `run ${i + 1}: ${r.answers} answers, median ${ms(r.p50)}, p99 ${ms(r.p99)}; longest: ${longest}\n` +
      `       the edit shown by: the ${kind} ${shown(r.current.detail)}, a search ${shown(r.current.search)}, ` +
      `the downloads' listing ${shown(r.current.downloads)}\n` +
      `       serving after ${inSeconds(r.serving.fresh)} over no output, ${inSeconds(r.serving.again)} started again over its own\n`,
  );
}
const medianOf = (pick: (c: Run['current']) => number | null): number | null => {
  const seen = results.map((r) => pick(r.current));
  return seen.some((v) => v === null) ? null : median(seen as number[]);
};
const detail = medianOf((c) => c.detail);
const search = medianOf((c) => c.search);
const downloads = medianOf((c) => c.downloads);
const judged = (v: number | null, target: number) =>
  v === null ? 'NOT MET (a run never showed it)' : v <= target ? 'met' : 'NOT MET';
process.stdout.write(
  `\nthe edit's answers current (median of the runs): the ${kind} ${shown(detail)}, a search ${shown(search)}: ` +
    `≤ 100 ms ${judged(detail === null || search === null ? null : Math.max(detail, search), 100)}; ` +
    `the downloads ${shown(downloads)}: ≤ 2 s ${judged(downloads, 2000)}\n`,
);
process.stdout.write(
  `\nmedian of the runs: p99 ${ms(median(results.map((r) => r.p99)))}, longest ${ms(median(results.map((r) => r.longest[0]?.ms ?? 0)))}; ` +
    `serving after ${inSeconds(median(results.map((r) => r.serving.fresh)))} over no output, ` +
    `${inSeconds(median(results.map((r) => r.serving.again)))} started again over its own\n`,
);
if (typeof values.json === 'string')
  writeFileSync(values.json, `${JSON.stringify({ machine, load: loadSeen, runs: results }, null, 2)}\n`);
