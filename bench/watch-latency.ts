// npm run bench:watch: what an edit costs the clients of `npm start -- --watch` on the whole diary.
// The server builds a copy of the bench's 1x content and watches it; a client asks for one entry
// every 10 ms, one at a time, and one second in, an entry's text is edited (as bench/incremental.ts
// edits it). Printed per run: the answers, their median, 99th percentile and longest, and the
// longest few with when they came (the edit's rebuild, the rescan after it, the downloads made
// again a second later). Never a test: figures only. See docs/performance.md, "Incremental rebuilds".
//
//   npm run bench:watch -- [--runs 3] [--seconds 6] [--corpus DIR] [--json FILE]

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
const USAGE = `usage: npm run bench:watch -- [--runs 3] [--seconds 6] [--corpus DIR] [--json FILE]

Serves the whole diary with npm start -- --watch, asks for an entry every 10 ms and edits another
one second in: prints how long the answers took around the edit.

  --runs <n>           runs, each with a server of its own (default: 3)
  --seconds <n>        how long each run asks (default: 6)
${BENCH_HELP}
${STANDARD_HELP}
`;
const { values } = parseCommand('npm run bench:watch', USAGE, {
  options: {
    ...STANDARD_OPTIONS,
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '6' },
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
const found = editsFor(workload.contentDir).find((e) => e.kind === 'entry');
if (found === undefined) throw new Error('no entry to edit');
const edit = found;
const asked = '/api/v1/entries/1660-01-02';

interface Run {
  answers: number;
  p50: number;
  p99: number;
  longest: { ms: number; at: number }[];
}

async function oneRun(round: number): Promise<Run> {
  await copyTree(workload.contentDir, content, trash);
  trash.put(out);
  const { child, origin } = await startServer(repo, out, ['--content', content, '--watch', '--quiet']);
  try {
    // The tree that was live before the first rebuild is brought up to date after a second.
    await sleep(2000);
    const times: { ms: number; at: number }[] = [];
    const t0 = performance.now();
    let edited = false;
    while (performance.now() - t0 < seconds * 1000) {
      if (!edited && performance.now() - t0 >= 1000) {
        const file = join(content, edit.file);
        writeFileSync(file, edit.apply(readFileSync(file, 'utf8'), round));
        edited = true;
      }
      const start = performance.now();
      const r = await fetch(`${origin}${asked}`);
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`${asked} answered ${r.status}`);
      times.push({ ms: performance.now() - start, at: (start - t0) / 1000 });
      await sleep(10);
    }
    const sorted = times.map((t) => t.ms).sort((a, b) => a - b);
    return {
      answers: times.length,
      p50: median(sorted),
      p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] as number,
      longest: [...times].sort((a, b) => b.ms - a.ms).slice(0, 4),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  }
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

const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
process.stdout.write(
  `machine: ${machine.cpu}, ${machine.cores} cores; Node ${machine.node}; commit ${machine.commit}\n` +
    `load average (1 min): min ${loadSeen.min.toFixed(2)}, mean ${loadSeen.mean.toFixed(2)}, max ${loadSeen.max.toFixed(2)}\n` +
    `npm start -- --watch on the whole diary (${workload.files} content files); ${asked} every 10 ms, ` +
    `one entry's text edited at 1 s (${edit.file})\n\n`,
);
for (const [i, r] of results.entries()) {
  const longest = r.longest.map((l) => `${ms(l.ms)} at ${l.at.toFixed(2)} s`).join(', ');
  process.stdout.write(
    `run ${i + 1}: ${r.answers} answers, median ${ms(r.p50)}, p99 ${ms(r.p99)}; longest: ${longest}\n`,
  );
}
process.stdout.write(
  `\nmedian of the runs: p99 ${ms(median(results.map((r) => r.p99)))}, longest ${ms(median(results.map((r) => r.longest[0]?.ms ?? 0)))}\n`,
);
if (typeof values.json === 'string')
  writeFileSync(values.json, `${JSON.stringify({ machine, load: loadSeen, runs: results }, null, 2)}\n`);
