// npm run bench: prepares the full-scale workload, measures every figure of the performance issue
// side by side in one run (medians over several runs), prints one table with each figure's ratio
// to the floor (copying the finished output tree), and writes the same as JSON. Never a test:
// figures only. See docs/performance.md for what each figure means.
//
//   npm run bench -- [--runs N] [--quick] [--json FILE] [--corpus DIR] [--no-wait]

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { type BuildRun, coldBuild, copyTree, npmBuild } from './cold.ts';
import type { EditRun } from './incremental.ts';
import { machineFacts } from './machine.ts';
import { median, mustRun, sleep, Trash } from './measure.ts';
import { loadSite, queryString, rangeAnswerMicros, rangeQueries } from './range.ts';
import { serverLoad } from './server.ts';
import { type Figure, formatTable } from './table.ts';
import { prepareWorkload } from './workload.ts';

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    quick: { type: 'boolean', default: false },
    json: { type: 'string' },
    corpus: { type: 'string', default: join(repo, '..', 'shared', 'corpus', 'standard-ebooks-pepys-diary') },
    'no-wait': { type: 'boolean', default: false },
  },
});
const quick = values.quick === true;
const runs = quick ? 2 : Math.max(1, Number(values.runs));
const growthRuns = quick ? 1 : Math.max(1, Math.ceil(runs / 2) + 1);
const work = join(repo, '.cache', 'bench');
const trash = new Trash(join(work, 'trash'));
const log = (m: string) => process.stderr.write(`${m}\n`);
/** How long after a clean-up the next run waits before measuring. */
const SETTLE_MS = 180_000;

// The last run's clean-up deleted tens of thousands of files; creating files soon after that is
// slow on some file systems (this machine's, for minutes): give it time, unless told not to.
const cleanedAt = join(work, 'cleaned-at');
if (values['no-wait'] !== true && existsSync(cleanedAt)) {
  const waitMs = SETTLE_MS - (Date.now() - Number(readFileSync(cleanedAt, 'utf8')));
  if (waitMs > 0) {
    log(`waiting ${Math.ceil(waitMs / 1000)} s for the file system to settle after the last run's clean-up (--no-wait to skip) …`);
    await sleep(waitMs);
  }
}

const started = new Date();
const machine = machineFacts(repo);
const w1 = await prepareWorkload(repo, values.corpus as string, work, 1, trash);
const w4 = await prepareWorkload(repo, values.corpus as string, work, 4, trash);
const out1 = join(work, 'out-1x', 'public');
const out4 = join(work, 'out-4x', 'public');
const copy = join(work, 'copy');
mkdirSync(dirname(out1), { recursive: true });
mkdirSync(dirname(out4), { recursive: true });

// One build and copy of each size first, not measured: they bring the content files into the
// page cache (as on a machine where they were just edited) and let the file system settle.
log('warming up: one build and one copy of each size, not measured …');
await coldBuild(repo, w1.contentDir, out1, trash);
await copyTree(out1, copy, trash);
await coldBuild(repo, w4.contentDir, out4, trash);

// Cold builds and copies alternate, so that both see the machine in the same state.
log(`cold full builds (1x) and copies of the output, ${runs} runs each …`);
const cold: BuildRun[] = [];
const copies: number[] = [];
for (let i = 0; i < runs; i++) {
  cold.push(await coldBuild(repo, w1.contentDir, out1, trash));
  copies.push(await copyTree(out1, copy, trash));
}
log('the same through npm run build …');
const viaNpm: number[] = [];
for (let i = 0; i < Math.max(1, Math.ceil(runs / 2)); i++) viaNpm.push(await npmBuild(repo, w1.contentDir, out1, trash));
// The last measured output stays for the range and server figures.
const lastCold = await coldBuild(repo, w1.contentDir, out1, trash);
cold.push(lastCold);

log(`cold full builds (4x), ${growthRuns} runs …`);
const cold4: BuildRun[] = [];
for (let i = 0; i < growthRuns; i++) cold4.push(await coldBuild(repo, w4.contentDir, out4, trash));

log('computed range answers …');
const range = rangeAnswerMicros(out1);

log('the local server under load …');
const site = loadSite(out1);
const detailDate = site.entryDates[Math.floor(site.entryDates.length / 2)] as string;
const server = await serverLoad(
  repo, out1, `/api/v1/entries/${detailDate}`,
  rangeQueries(site.entryDates, site.pageSize, 200).map((q) => `/api/v1/entries${queryString(q)}`),
  { connections: 10, durationSeconds: quick ? 2 : 4 },
);

log('incremental rebuilds (watch mode) …');
const watchOut = join(work, 'out-watch', 'public');
trash.put(dirname(watchOut));
mkdirSync(dirname(watchOut), { recursive: true });
const editRounds = String(quick ? 3 : Math.max(runs, 5));
const edits = JSON.parse(
  (await mustRun(process.execPath, ['--import', 'tsx', 'bench/incremental-run.ts', w1.contentDir, watchOut, editRounds], { cwd: repo })).stdout,
) as EditRun[];

// ---- figures ----
const m = (xs: readonly number[]) => median(xs);
const floorMs = m(copies);
const coldMs = m(cold.map((r) => r.wallMs));
const cold4Ms = m(cold4.map((r) => r.wallMs));
const split = (key: keyof BuildRun['timings']) => m(cold.map((r) => r.timings[key]));
const mb = (bytes: number) => bytes / 1e6;
const figures: Figure[] = [
  { key: 'floor', label: 'floor: cp -r of the finished output (1x)', value: floorMs, unit: 'ms', time: true },
  { key: 'cold.wall', label: 'cold full build (1x): wall', value: coldMs, unit: 'ms', time: true, target: 2400, targetText: '≤ 2400 ms' },
  { key: 'cold.floorRatio', label: 'cold full build (1x): wall / floor', value: coldMs / floorMs, unit: '×', target: 4, targetText: '≤ 4×' },
  { key: 'cold.cpu', label: 'cold full build (1x): CPU (user+sys)', value: m(cold.map((r) => r.cpuMs)), unit: 'ms', time: true },
  { key: 'cold.rss', label: 'cold full build (1x): peak memory (RSS)', value: mb(m(cold.map((r) => r.maxRssBytes))), unit: 'MB', target: 300, targetText: '≤ 300 MB' },
  { key: 'cold.files', label: 'cold full build (1x): files written', value: lastCold.files, unit: 'files' },
  { key: 'cold.bytes', label: 'cold full build (1x): bytes written', value: mb(lastCold.bytes), unit: 'MB' },
  { key: 'split.load', label: '  of which: list, read and parse', value: split('load'), unit: 'ms', time: true },
  { key: 'split.validate', label: '  of which: validate (model)', value: split('validate'), unit: 'ms', time: true },
  { key: 'split.render', label: '  of which: render', value: split('render'), unit: 'ms', time: true },
  { key: 'split.write', label: '  of which: write and swap', value: split('write'), unit: 'ms', time: true },
  { key: 'split.startup', label: '  of which: process start (node, tsx, imports)', value: coldMs - split('total'), unit: 'ms', time: true },
  { key: 'npm.wall', label: 'cold full build via npm run build: wall', value: m(viaNpm), unit: 'ms', time: true },
];
for (const e of edits) {
  figures.push({
    key: `incremental.${e.kind}`, label: `rebuild after one ${e.kind} edit (watch): time`,
    value: m(e.ms), unit: 'ms', time: true, target: 100, targetText: '≤ 100 ms',
  });
  figures.push({ key: `incremental.${e.kind}.files`, label: `rebuild after one ${e.kind} edit: files rewritten`, value: m(e.changed), unit: 'files' });
}
figures.push(
  { key: 'range.micros', label: 'computed range answer, warm', value: range.micros, unit: 'µs', time: true, target: 50, targetText: '≤ 50 µs' },
  { key: 'server.detail.rps', label: 'server: static detail, requests/s', value: server.detail.requestsPerSecond, unit: 'req/s' },
  { key: 'server.detail.p50', label: 'server: static detail, latency p50', value: server.detail.latencyMs.p50, unit: 'ms' },
  { key: 'server.detail.p90', label: 'server: static detail, latency p90', value: server.detail.latencyMs.p90, unit: 'ms' },
  { key: 'server.detail.p99', label: 'server: static detail, latency p99', value: server.detail.latencyMs.p99, unit: 'ms' },
  { key: 'server.range.rps', label: 'server: computed range, requests/s', value: server.range.requestsPerSecond, unit: 'req/s' },
  { key: 'server.range.p50', label: 'server: computed range, latency p50', value: server.range.latencyMs.p50, unit: 'ms' },
  { key: 'server.range.p90', label: 'server: computed range, latency p90', value: server.range.latencyMs.p90, unit: 'ms' },
  { key: 'server.range.p99', label: 'server: computed range, latency p99', value: server.range.latencyMs.p99, unit: 'ms' },
  { key: 'growth.1x', label: `growth: cold build at 1x (${w1.files} content files, ${mb(w1.bytes).toFixed(1)} MB)`, value: coldMs, unit: 'ms', time: true },
  { key: 'growth.4x', label: `growth: cold build at 4x (${w4.files} content files, ${mb(w4.bytes).toFixed(1)} MB)`, value: cold4Ms, unit: 'ms', time: true },
  { key: 'growth.ratio', label: 'growth: 4x time / 1x time', value: cold4Ms / coldMs, unit: '×', target: 4.4, targetText: '≤ 4.4×' },
  { key: 'growth.4x.rss', label: 'growth: peak memory at 4x', value: mb(m(cold4.map((r) => r.maxRssBytes))), unit: 'MB' },
  { key: 'growth.4x.files', label: 'growth: files written at 4x', value: cold4[0]?.files ?? 0, unit: 'files' },
);
for (const f of figures) {
  if (f.time === true && f.unit === 'ms') f.ratioToFloor = f.value / floorMs;
  if (f.target !== undefined) f.met = f.value <= f.target;
}

const loadAtEnd = loadavg().map((x) => Math.round(x * 100) / 100);
process.stdout.write(`\n${formatTable(figures, machine)}\n`);
process.stdout.write(`load average at the end: ${loadAtEnd.join(' ')}\n`);
if (Math.max(machine.loadAverage[0] ?? 0, loadAtEnd[0] ?? 0) > 1) {
  process.stdout.write('note: other processes kept the machine busy during this run (load average above 1): the figures are pessimistic.\n');
}
const result = {
  version: 1,
  started: started.toISOString(),
  finished: new Date().toISOString(),
  machine,
  loadAverageAtEnd: loadAtEnd,
  options: { runs, growthRuns, quick },
  workload: [w1, w4].map(({ scale, files, bytes }) => ({ scale, files, bytes })),
  figures,
  raw: { cold, copies, viaNpm, cold4, range, server, edits },
};
const jsonFile = values.json ?? join(repo, 'bench', 'results', `${started.toISOString().replace(/[:.]/g, '-')}.json`);
mkdirSync(dirname(jsonFile), { recursive: true });
writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(`\nwritten to ${jsonFile}\n`);
log('cleaning up …');
trash.empty();
writeFileSync(cleanedAt, String(Date.now()));
