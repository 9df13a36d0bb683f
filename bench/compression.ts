// What compression on the local server saves and costs (docs/browsing.md): the server of
// `npm start -- --no-build` over a built site, loaded with autocannon on loopback, each kind of
// answer with no Accept-Encoding, with gzip and with brotli, side by side in one run. Figures
// only, never a test.
//
//   npx tsx bench/compression.ts --out <built site> [--seconds 3] [--connections 10] [--rounds 3]

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { SITE_INDEX_FILE } from '../generator/core/files.ts';
import { type ApiRequest, handle, splitTarget } from '../generator/core/handler.ts';
import { parseSiteIndex } from '../generator/core/site-index.ts';
import { compression } from '../generator/server/compress.ts';
import { siteLoader } from '../generator/server/site.ts';
import { startServer } from './server.ts';

// What bench/autocannon.d.ts leaves out and this benchmark needs: request headers, bytes read.
interface Request {
  method: string;
  path?: string;
  setupRequest?: (request: { path: string }) => { path: string };
}
type Options = Omit<Parameters<typeof autocannon>[0], 'requests'> & {
  headers: Record<string, string>;
  requests: Request[];
};
type Result = Awaited<ReturnType<typeof autocannon>> & { throughput: { total: number } };

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
  },
});
if (values.out === undefined) {
  process.stderr.write(
    'usage: npx tsx bench/compression.ts --out <built site> [--seconds 3] [--connections 10] [--rounds 3]\n',
  );
  process.exit(2);
}
const outDir = resolve(values.out);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const rounds = Number(values.rounds);

const parsedIndex = parseSiteIndex(readFileSync(join(outDir, SITE_INDEX_FILE), 'utf8'));
if (!parsedIndex.ok) throw new Error(`${outDir}: ${parsedIndex.error}`);
const index = parsedIndex.value;
const dates = index.entryDates;
const every = <T>(xs: readonly T[], n: number) =>
  xs.filter((_, i) => i % Math.max(1, Math.floor(xs.length / n)) === 0).slice(0, n);
const pages = Math.max(1, Math.ceil(dates.length / index.pageSize));
let seed = 1660;
const rand = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
// Distinct enough that a run never asks for the same range twice: each answer is rendered, and
// compressed, anew (the worst case; the server remembers compressed bodies by ETag).
const ranges = Array.from({ length: 50_000 }, () => {
  const a = dates[rand(dates.length)] as string;
  const b = dates[rand(dates.length)] as string;
  return a < b ? `/api/v1/entries?start=${a}&end=${b}` : `/api/v1/entries?start=${b}&end=${a}`;
});
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const scenarios: Array<{ name: string; paths: string[]; accept?: string; distinct?: boolean }> = [
  { name: 'entry detail (file)', paths: every(dates, 400).map((d) => `/api/v1/entries/${d}`) },
  { name: 'entry list page (file)', paths: Array.from({ length: pages }, (_, i) => `/api/v1/entries?page=${i + 1}`) },
  { name: 'computed range, each new', paths: ranges, distinct: true },
  { name: 'HTML page of an entry', paths: every(dates, 400).map((d) => `/api/v1/entries/${d}`), accept: BROWSER },
  { name: 'OpenAPI document (file)', paths: ['/api/v1/schema'] },
];
const codings: Array<[string, string | null]> = [
  ['none', null],
  ['gzip', 'gzip'],
  ['br', 'gzip, deflate, br, zstd'],
];

interface Row {
  scenario: string;
  coding: string;
  /** CPU time per answer in µs, in process (handler + compression), median of the rounds. */
  cpu: number;
  rps: number;
  p50: number;
  p99: number;
  bytes: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

let next = 0;
async function load(
  origin: string,
  paths: readonly string[],
  headers: Record<string, string>,
  duration: number,
  distinct: boolean,
) {
  // Each connection goes through `requests` from the start: to ask for a path no connection asked
  // for before, one request takes the next path of a counter shared by all.
  const requests: Request[] = distinct
    ? [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] as string }) }]
    : paths.map((path) => ({ method: 'GET', path }));
  const options: Options = { url: origin, connections, duration, headers, requests };
  const r = (await autocannon(options as unknown as Parameters<typeof autocannon>[0])) as Result;
  if (r.errors + r.timeouts > 0 || r.non2xx > 0)
    throw new Error(`errors under load: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
  return r;
}

// In process: the CPU time the server spends on one answer (handler and compression), without
// HTTP or the load generator (far steadier on a busy machine than requests per second).
const loaded = siteLoader(outDir).current();
if (!loaded.ok) throw new Error(loaded.error.detail);
const site = loaded.value;
const answer = (request: ApiRequest) => handle(request, site.index, site.read, compression);
async function cpuMicros(
  paths: readonly string[],
  headers: Record<string, string>,
  distinct: boolean,
): Promise<number> {
  const request = (path: string): ApiRequest => ({
    method: 'GET',
    ...splitTarget(path),
    header: (name) => headers[name] ?? null,
  });
  const n = 2000;
  let i = distinct ? next : 0;
  // Warm-up: every file read (and its compressed forms kept) once; new ranges stay new.
  const warm = distinct ? 100 : Math.min(paths.length, 2000);
  for (let k = 0; k < warm; k++) await answer(request(paths[i++ % paths.length] as string));
  // CPU time, not wall time: the other processes of a busy machine do not count.
  const t = process.cpuUsage();
  for (let k = 0; k < n; k++) await answer(request(paths[i++ % paths.length] as string));
  if (distinct) next = i;
  const used = process.cpuUsage(t);
  return (used.user + used.system) / n;
}

const cells = new Map<string, { cpu: number[]; rps: number[]; p50: number[]; p99: number[]; bytes: number[] }>();
const { child, origin } = await startServer(repo, outDir);
try {
  for (let round = 0; round < rounds; round++) {
    for (const s of scenarios) {
      // The codings of a scenario one after the other, round after round: a change in the
      // machine's load weighs on all three alike.
      for (const [coding, ae] of codings) {
        const headers: Record<string, string> = {};
        if (ae !== null) headers['accept-encoding'] = ae;
        if (s.accept !== undefined) headers.accept = s.accept;
        const key = `${s.name}|${coding}`;
        const cell = cells.get(key) ?? { cpu: [], rps: [], p50: [], p99: [], bytes: [] };
        cells.set(key, cell);
        cell.cpu.push(await cpuMicros(s.paths, headers, s.distinct === true));
        // Warm-up: files read and compressed once (the server keeps both).
        await load(origin, s.paths, headers, 1, s.distinct === true);
        const r = await load(origin, s.paths, headers, seconds, s.distinct === true);
        cell.rps.push(r.requests.average);
        cell.p50.push(r.latency.p50);
        cell.p99.push(r.latency.p99);
        cell.bytes.push(r.throughput.total / Math.max(1, r.requests.total));
        process.stderr.write(`round ${round + 1}: ${s.name}, ${coding}: ${Math.round(r.requests.average)} req/s\n`);
      }
    }
  }
} finally {
  child.kill('SIGTERM');
}

const rows: Row[] = [];
for (const s of scenarios) {
  for (const [coding] of codings) {
    const c = cells.get(`${s.name}|${coding}`);
    if (c === undefined) continue;
    rows.push({
      scenario: s.name,
      coding,
      cpu: median(c.cpu),
      rps: median(c.rps),
      p50: median(c.p50),
      p99: median(c.p99),
      bytes: median(c.bytes),
    });
  }
}

const pad = (s: string, n: number) => s.padEnd(n);
const lines = [
  `${pad('answer', 26)}${pad('coding', 8)}${pad('bytes/answer', 14)}${pad('saved', 8)}${pad('CPU µs', 11)}${pad('req/s', 9)}${pad('p50 ms', 8)}p99 ms`,
];
for (const r of rows) {
  const none = rows.find((x) => x.scenario === r.scenario && x.coding === 'none') as Row;
  const saved = r.coding === 'none' ? '' : `${Math.round((1 - r.bytes / none.bytes) * 100)}%`;
  lines.push(
    `${pad(r.scenario, 26)}${pad(r.coding, 8)}${pad(String(Math.round(r.bytes)), 14)}${pad(saved, 8)}${pad(String(Math.round(r.cpu)), 11)}` +
      `${pad(String(Math.round(r.rps)), 9)}${pad(String(r.p50), 8)}${r.p99}`,
  );
}
process.stdout.write(
  `${lines.join('\n')}\n(medians of ${rounds} rounds; HTTP: ${connections} connections, ${seconds} s each after a 1 s warm-up; ` +
    `CPU µs: in process, per answer (handler and compression); load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ${outDir})\n`,
);
