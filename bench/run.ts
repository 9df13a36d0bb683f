// npm run bench: prepares the full-scale workload, measures every figure of the performance issue
// side by side in one run (medians over interleaved rounds), prints one table with each figure
// beside the figure it is measured against (the copy floor for times of work) and its target, met
// or not and why, with the machine's load during the run, and writes the same as JSON. Never a
// test: figures only. See docs/performance.md for what each figure means.
//
//   npm run bench -- [--runs N] [--quick] [--json FILE] [--corpus DIR] [--no-wait]

import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommand, STANDARD_HELP, STANDARD_OPTIONS, wholeNumber } from '../generator/cli/options.ts';
import { type BuildRun, coldBuild, copyTree } from './cold.ts';
import type { EditRun } from './incremental.ts';
import { machineFacts, sampleLoad } from './machine.ts';
import { cleanedUp, median, mustRun, waitForSettledDisk } from './measure.ts';
import { loadSite, rangeAnswerMicros } from './range.ts';
import { type ServerLoad, startReadiness } from './server.ts';
import { type Figure, formatTable, judge } from './table.ts';
import { benchOptions, benchPlace, CORPUS_HELP, prepareWorkload, sizeOf } from './workload.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: npm run bench -- [--runs N] [--quick] [--json FILE] [--corpus DIR] [--no-wait]

Measures every figure of docs/performance.md side by side, on the whole diary (1x) and four
times it (4x), and prints one table; the JSON goes to bench/results/ (or --json).

  --runs <n>           rounds of each measurement (default: 5)
  --quick              2 rounds, fewer repetitions: a smoke run, not figures to quote
  --json <file>        where to write the JSON (default: bench/results/<time>.json)
${CORPUS_HELP}
  --no-wait            do not wait for the file system to settle after the last run's clean-up
${STANDARD_HELP}
`;
const { values } = parseCommand('npm run bench', USAGE, {
  options: {
    ...STANDARD_OPTIONS,
    runs: { type: 'string', default: '5' },
    quick: { type: 'boolean', default: false },
    ...benchOptions(repo),
  },
});
const quick = values.quick === true;
const runs = quick ? 2 : wholeNumber('runs', values.runs as string);
const growthRuns = quick ? 1 : Math.max(1, Math.ceil(runs / 2) + 1);
const connections = 100;
const { work, trash, log } = benchPlace(repo, values.corpus as string);
if (values['no-wait'] !== true) await waitForSettledDisk(work, log);

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const started = new Date();
const machine = machineFacts(repo);
const w1 = await prepareWorkload(repo, values.corpus as string, work, 1, trash);
const w4 = await prepareWorkload(repo, values.corpus as string, work, 4, trash);
const loadDuringRun = sampleLoad();
const out1 = join(work, 'out-1x', 'public');
const out4 = join(work, 'out-4x', 'public');
const outStart = join(work, 'out-start', 'public');
const copy = join(work, 'copy');
for (const dir of [out1, out4, outStart]) mkdirSync(dirname(dir), { recursive: true });

// One build and copy of each size first, not measured: they bring the content files into the
// page cache (as on a machine where they were just edited) and let the file system settle.
log('warming up: one build and one copy of each size, not measured …');
await coldBuild(repo, w1.contentDir, out1, trash, 'npm');
await copyTree(out1, copy, trash);
await coldBuild(repo, w4.contentDir, out4, trash, 'npm');

// Copies, builds and starts alternate, so that all see the machine in the same state.
log(`${runs} rounds of: cp -r of the output (the floor), npm run build, the build without npm, npm start …`);
const detailDate = (() => {
  const dates = loadSite(out1).entryDates;
  return dates[Math.floor(dates.length / 2)] as string;
})();
const copies: number[] = [];
const cold: BuildRun[] = [];
const direct: BuildRun[] = [];
const ready: number[] = [];
for (let i = 0; i < runs; i++) {
  copies.push(await copyTree(out1, copy, trash));
  cold.push(await coldBuild(repo, w1.contentDir, out1, trash, 'npm'));
  direct.push(await coldBuild(repo, w1.contentDir, out1, trash, 'node'));
  ready.push(await startReadiness(repo, w1.contentDir, outStart, await freePort(), detailDate, trash));
}
log(`cold builds at 4x and 1x, ${growthRuns} rounds …`);
const cold4: BuildRun[] = [];
const cold1: BuildRun[] = [];
for (let i = 0; i < growthRuns; i++) {
  cold4.push(await coldBuild(repo, w4.contentDir, out4, trash, 'npm'));
  cold1.push(await coldBuild(repo, w1.contentDir, out1, trash, 'npm'));
}
// The last 1x output stays for the range and server figures.

log('computed range answers …');
const range = rangeAnswerMicros(out1);

log(`the local server under load (${connections} connections) …`);
const server = JSON.parse(
  (
    await mustRun(
      process.execPath,
      ['generator/cli/node-ts.mjs', 'bench/server-run.ts', out1, detailDate, String(connections), quick ? '2' : '4'],
      { cwd: repo },
    )
  ).stdout,
) as ServerLoad;

log('incremental rebuilds (watch mode) …');
const watchOut = join(work, 'out-watch', 'public');
trash.put(dirname(watchOut));
mkdirSync(dirname(watchOut), { recursive: true });
const editRounds = String(quick ? 3 : Math.max(runs, 5));
const edits = JSON.parse(
  (
    await mustRun(
      process.execPath,
      ['generator/cli/node-ts.mjs', 'bench/incremental-run.ts', w1.contentDir, watchOut, editRounds],
      { cwd: repo },
    )
  ).stdout,
) as EditRun[];
const load = loadDuringRun.stop();

// ---- figures ----
const m = (xs: readonly number[]) => median(xs);
const floorMs = m(copies);
const floor = { name: 'floor', value: floorMs };
const npmMs = m(cold.map((r) => r.wallMs));
const directMs = m(direct.map((r) => r.wallMs));
const growth1Ms = m(cold1.map((r) => r.wallMs));
const growth4Ms = m(cold4.map((r) => r.wallMs));
const split = (key: keyof BuildRun['timings']) => m(direct.map((r) => r.timings[key]));
const startupMs = directMs - split('total');
const npmShareMs = npmMs - directMs;
const rssMB = m(cold.map((r) => r.maxRssBytes)) / 1e6;
const lastCold = cold[cold.length - 1] as BuildRun;
const readyMs = m(ready);
const ms = (x: number) => `${Math.round(x)} ms`;
const figures: Figure[] = [
  { key: 'floor', label: 'floor: cp -r of the finished output (1x)', value: floorMs, unit: 'ms' },
  {
    key: 'cold.npm',
    label: 'cold full build (1x), npm run build: wall',
    value: npmMs,
    unit: 'ms',
    against: floor,
    target: 2 * floorMs,
    targetText: '≤ 2× floor',
    reason:
      `npm run build took ${ms(npmMs)}, ${(npmMs / floorMs).toFixed(2)}× the ${ms(floorMs)} of cp -r: npm's own start-up ` +
      `${ms(npmShareMs)}, starting Node and loading the code ${ms(startupMs)}, then the build (${ms(split('total'))}), which cannot ` +
      `be shorter than creating its ${lastCold.files.toLocaleString('en-US')} files on a second thread (about what cp -r spends creating ` +
      'the same files) after the last of them is rendered; reading and parsing 13,415 files, validating and rendering are ' +
      'overlapped with that, on the two hyperthreads of one core.',
  },
  {
    key: 'cold.node',
    label: 'the same without npm (node generator/cli/node-ts.mjs …)',
    value: directMs,
    unit: 'ms',
    against: floor,
  },
  { key: 'cold.npmShare', label: "  of which: npm's own start-up", value: npmShareMs, unit: 'ms' },
  { key: 'split.startup', label: '  of which: starting Node, loading the code', value: startupMs, unit: 'ms' },
  { key: 'split.load', label: '  of which: list, read, parse', value: split('load'), unit: 'ms' },
  { key: 'split.validate', label: '  of which: validate (model)', value: split('validate'), unit: 'ms' },
  {
    key: 'split.render',
    label: '  of which: render (packs, lists, index, search, downloads)',
    value: split('render'),
    unit: 'ms',
  },
  { key: 'split.write', label: '  of which: wait for the writes, swap', value: split('write'), unit: 'ms' },
  { key: 'cold.cpu', label: 'cold full build (1x): CPU, all threads', value: m(cold.map((r) => r.cpuMs)), unit: 'ms' },
  {
    key: 'cold.rss',
    label: 'cold full build (1x): peak memory (RSS)',
    value: rssMB,
    unit: 'MB',
    target: 250,
    targetText: '≤ 250 MB',
    reason:
      `the build process (its threads included) peaked at ${rssMB.toFixed(0)} MB: the model is held until the end, each thread ` +
      "has a V8 heap of its own, and the peak comes as the downloads' database is compacted and exported " +
      '(docs/performance.md, "Memory").',
  },
  { key: 'cold.files', label: 'cold full build (1x): files written', value: lastCold.files, unit: 'files' },
  { key: 'cold.bytes', label: 'cold full build (1x): bytes written', value: lastCold.bytes / 1e6, unit: 'MB' },
  {
    key: 'growth.1x',
    label: `growth: npm run build at 1x (${w1.files} content files, ${(w1.bytes / 1e6).toFixed(1)} MB)`,
    value: growth1Ms,
    unit: 'ms',
    against: floor,
  },
  {
    key: 'growth.4x',
    label: `growth: npm run build at 4x (${w4.files} content files, ${(w4.bytes / 1e6).toFixed(1)} MB)`,
    value: growth4Ms,
    unit: 'ms',
    against: floor,
  },
  {
    key: 'growth.ratio',
    label: 'growth: 4x time / 1x time',
    value: growth4Ms / growth1Ms,
    unit: '×',
    target: 4,
    targetText: '≤ 4×',
    reason: 'the 4x build took more than four times the 1x build.',
  },
  {
    key: 'growth.4x.rss',
    label: 'growth: peak memory at 4x',
    value: m(cold4.map((r) => r.maxRssBytes)) / 1e6,
    unit: 'MB',
  },
  { key: 'growth.4x.files', label: 'growth: files written at 4x', value: cold4[0]?.files ?? 0, unit: 'files' },
];
const EDIT_LABELS: Record<EditRun['kind'], string> = {
  entry: "one entry's text",
  entryTitle: "one entry's title",
  topic: "one topic's title",
  category: "one category's title",
};
for (const e of edits) {
  const editMs = m(e.ms);
  // The watch mode's target is end to end (an edit's answers current within 100 ms), which
  // npm run bench:watch measures; this is the session's rebuild alone.
  figures.push({
    key: `incremental.${e.kind}`,
    label: `rebuild after an edit of ${EDIT_LABELS[e.kind]} (watch)`,
    value: editMs,
    unit: 'ms',
  });
  figures.push({ key: `incremental.${e.kind}.files`, label: '  files rewritten', value: m(e.changed), unit: 'files' });
}
// The load target (5,000 answers/s, p99 ≤ 20 ms at 100 connections) was withdrawn by issue 34:
// with 100 requests always in flight on two shared cores, Little's law puts the mean latency at
// 100 ÷ the rate. What is asked is that the rate measured then (3,900–4,200 answers/s, no error)
// does not fall.
const RATE_BEFORE = 3900;
const rateReason = (what: string, r: typeof server.detail) =>
  `${what}: ${Math.round(r.requestsPerSecond).toLocaleString('en-US')} req/s, below the ${RATE_BEFORE.toLocaleString('en-US')} ` +
  `measured when the load target was withdrawn; the load generator shares the machine's ${machine.cores} cores with the ` +
  `server (load average up to ${load.max} during the run).`;
figures.push(
  {
    key: 'range.micros',
    label: 'computed range answer, warm (core/answer.ts)',
    value: range.micros,
    unit: 'µs',
    target: 50,
    targetText: '≤ 50 µs',
    reason: 'rendering a computed page took more than 50 µs.',
  },
  {
    key: 'server.detail.rps',
    label: `server, ${connections} connections: static detail`,
    value: server.detail.requestsPerSecond,
    unit: 'req/s',
    against: { name: 'range', value: server.range.requestsPerSecond },
    target: server.range.requestsPerSecond,
    targetKind: 'min',
    targetText: '≥ computed range',
    reason:
      `the static detail was served at ${(server.detail.requestsPerSecond / server.range.requestsPerSecond).toFixed(3)}× ` +
      'the rate of the computed ranges. Both are sent from the answers the server keeps per generation ' +
      '(the same code from there on), so the two differ by the noise of the machine, which moves each figure ' +
      'by several per cent from run to run; a computed range never asked before is the slower case (below).',
  },
  { key: 'server.detail.p50', label: '  latency p50', value: server.detail.latencyMs.p50, unit: 'ms' },
  {
    key: 'server.detail.p99',
    label: '  latency p99',
    value: server.detail.latencyMs.p99,
    unit: 'ms',
  },
  {
    key: 'server.range.rps',
    label: `server, ${connections} connections: computed range (200 in turn)`,
    value: server.range.requestsPerSecond,
    unit: 'req/s',
    target: RATE_BEFORE,
    targetKind: 'min',
    targetText: `≥ ${RATE_BEFORE.toLocaleString('en-US')} req/s`,
    reason: rateReason('computed range', server.range),
  },
  { key: 'server.range.p50', label: '  latency p50', value: server.range.latencyMs.p50, unit: 'ms' },
  {
    key: 'server.range.p99',
    label: '  latency p99',
    value: server.range.latencyMs.p99,
    unit: 'ms',
  },
  {
    key: 'server.fresh.rps',
    label: `server, ${connections} connections: computed range never asked before`,
    value: server.freshRange.requestsPerSecond,
    unit: 'req/s',
  },
  { key: 'server.fresh.p99', label: '  latency p99', value: server.freshRange.latencyMs.p99, unit: 'ms' },
  {
    key: 'start.ready',
    label: 'npm start on the whole diary: first correct answer',
    value: readyMs,
    unit: 'ms',
    against: floor,
    target: 1500,
    targetText: '≤ 1.5 s',
    reason:
      `npm start answered after ${ms(readyMs)}: npm's own start-up (≈${ms(npmShareMs)}) and a cold build of the site for the ` +
      `origin it serves (≈${ms(directMs)} without npm) come first; it answers as soon as the build is live.`,
  },
);
// A server figure measured with nonzero errors is not a figure.
for (const [name, r] of Object.entries(server)) {
  if (r.errors > 0 || r.non2xx > 0)
    log(`warning: server scenario ${name}: ${r.errors} errors, ${r.non2xx} answers other than 2xx`);
}
judge(figures);

const loadText = `${machine.loadAverage[0]} at the start, ${load.min}–${load.max} during the run (mean ${load.mean})`;
process.stdout.write(`\n${formatTable(figures, machine, loadText)}\n`);
if (load.max > 1) {
  process.stdout.write(
    'note: other processes kept the machine busy during this run (load average above 1): the figures are pessimistic.\n',
  );
}
const result = {
  version: 2,
  started: started.toISOString(),
  finished: new Date().toISOString(),
  command: `npm run bench${quick ? ' -- --quick' : values.runs !== '5' ? ` -- --runs ${runs}` : ''}`,
  machine,
  load,
  options: { runs, growthRuns, quick, connections },
  workload: [w1, w4].map(({ scale, files, bytes }) => ({ scale, files, bytes })),
  figures,
  raw: { copies, cold, direct, ready, cold1, cold4, range, server, edits },
};
const resultsDir = join(repo, 'bench', 'results');
const jsonFile = values.json ?? join(resultsDir, `${started.toISOString().replace(/[:.]/g, '-')}.json`);
mkdirSync(dirname(jsonFile), { recursive: true });
writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
// Earlier results (the committed one among them) are left alone: committing the new one, and
// removing the old, is the person's choice.
process.stdout.write(`\nwritten to ${jsonFile}\n`);
log('cleaning up …');
trash.empty();
cleanedUp(work);
// What stays is the prepared workloads, reused by the next run while the corpus and the
// importer are unchanged: say where and how big.
log(
  `kept for the next run: ${work} (${(sizeOf(work).bytes / 1024 ** 3).toFixed(1)} GiB, the prepared workloads); rm -rf ${work} removes it`,
);
