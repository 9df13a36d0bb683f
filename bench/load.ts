// The local server under a long, mixed load (issue 8's load run): `npm start -- --no-build` over a
// built site, autocannon from this process with 100 and then 500 connections for 30 s each,
// cycling through every kind of request a client makes: details, list pages, computed ranges,
// `.json` spellings, bad dates and pages, unknown records and paths, refused methods, OPTIONS and
// preflights, revalidations with If-None-Match, and requests asking for compression. Not HEAD:
// autocannon's parser then waits for a body that HEAD never has (its requests time out, and the
// figures measure the client); test/server.test.ts covers HEAD. It prints, per
// run, the requests, the answers by status class, the 5xx and socket errors, the latency
// percentiles and the server's resident memory before and after.
//
//   node generator/cli/node-ts.mjs bench/load.ts <built output dir> [--seconds 30] [--connections 100,500]

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { pick, prng } from '../generator/core/random.ts';
import { loadSite, queryString, rangeQueries } from './range.ts';
import { startServer } from './server.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { seconds: { type: 'string', default: '30' }, connections: { type: 'string', default: '100,500' } },
});
const outDir = positionals[0];
if (outDir === undefined) {
  process.stderr.write(
    'usage: node generator/cli/node-ts.mjs bench/load.ts <built output dir> [--seconds 30] [--connections 100,500]\n',
  );
  process.exit(2);
}
const seconds = Number(values.seconds);
const connectionCounts = (values.connections as string).split(',').map(Number);
const repo = fileURLToPath(new URL('..', import.meta.url));

/** Resident memory of a process, in MB. */
function rssMB(pid: number): number {
  const kb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return kb / 1024;
}

interface Request {
  method: string;
  path: string;
  headers?: Record<string, string>;
}

/** A deterministic mix of every kind of request, weighted roughly as clients send them. */
async function mixedRequests(origin: string, count: number): Promise<Request[]> {
  const site = loadSite(outDir as string);
  const rand = prng(1666);
  const date = () => pick(rand, site.entryDates);
  const ranges = rangeQueries(site.entryDates, site.pageSize, 200).map((q) => `/api/v1/entries${queryString(q)}`);
  const slugs = [...site.categorySlugs];
  const ids = [...site.topicIds];
  // Validators for revalidations, as a client that read these before has them.
  const etags = new Map<string, string>();
  for (const path of ['/api/v1', '/api/v1/entries', `/api/v1/entries/${site.entryDates[0]}`, ranges[0] as string]) {
    etags.set(path, (await fetch(origin + path)).headers.get('etag') ?? '');
  }
  const kinds: Array<[number, () => Request]> = [
    [20, () => ({ method: 'GET', path: `/api/v1/entries/${date()}` })],
    [8, () => ({ method: 'GET', path: `/api/v1/topics/${pick(rand, ids)}` })],
    [4, () => ({ method: 'GET', path: `/api/v1/categories/${pick(rand, slugs)}.json` })],
    [8, () => ({ method: 'GET', path: `/api/v1/entries?page=${1 + rand(60)}` })],
    [4, () => ({ method: 'GET', path: `/api/v1/entries?start=${1660 + rand(10)}-01-01&end=${1660 + rand(10)}-12-31` })],
    [16, () => ({ method: 'GET', path: pick(rand, ranges) })],
    [4, () => ({ method: 'GET', path: `/api/v1/entries?start=1661-13-01` })],
    [3, () => ({ method: 'GET', path: `/api/v1/entries?page=${['0', 'abc', '99999'][rand(3)]}` })],
    [4, () => ({ method: 'GET', path: `/api/v1/entries/1669-0${6 + rand(3)}-01` })],
    [
      3,
      () => ({
        method: 'GET',
        path: ['/api/v1/nothing', '/api/v1/topics/abc', '/api/v1/categories/..', '/favicon.ico'][rand(4)] as string,
      }),
    ],
    [3, () => ({ method: ['POST', 'PUT', 'DELETE'][rand(3)] as string, path: '/api/v1/entries' })],
    [
      3,
      () => ({
        method: 'OPTIONS',
        path: '/api/v1/entries',
        headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
      }),
    ],
    [
      8,
      () => {
        const [path, etag] = pick(rand, [...etags]);
        return { method: 'GET', path, headers: { 'if-none-match': etag } };
      },
    ],
    [
      6,
      () => ({
        method: 'GET',
        path: pick(rand, [`/api/v1/entries/${date()}`, pick(rand, ranges)]),
        headers: { 'accept-encoding': 'br, gzip' },
      }),
    ],
  ];
  const total = kinds.reduce((n, [w]) => n + w, 0);
  return Array.from({ length: count }, () => {
    let r = rand(total);
    for (const [w, make] of kinds) {
      if (r < w) return make();
      r -= w;
    }
    throw new Error('unreachable');
  });
}

const { child, origin } = await startServer(repo, outDir as string);
try {
  const requests = await mixedRequests(origin, 5000);
  process.stdout.write(
    `server ${origin} over ${outDir}; ${requests.length} mixed requests in rotation; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}\n`,
  );
  for (const connections of connectionCounts) {
    const before = rssMB(child.pid as number);
    // One request per connection, each taken in turn from the shared mix: given as a list,
    // autocannon keeps its own copy of every request for every connection (at 500 connections,
    // 2.5 million, over a gigabyte), and its own garbage collection then shows as seconds of
    // latency and as timeouts that the server never caused.
    let next = 0;
    const rotation = [
      {
        setupRequest: (req: Record<string, unknown>) => {
          const r = requests[next++ % requests.length] as Request;
          return { ...req, method: r.method, path: r.path, headers: { ...(req.headers as object), ...r.headers } };
        },
      },
    ];
    const r = await autocannon({ url: origin, connections, duration: seconds, requests: rotation });
    const after = rssMB(child.pid as number);
    const fivexx = r['5xx'];
    process.stdout.write(
      `${connections} connections, ${seconds} s: ${r.requests.total.toLocaleString('en')} requests (${Math.round(r.requests.average).toLocaleString('en')}/s); ` +
        `2xx ${r['2xx']}, 3xx ${r['3xx']}, 4xx ${r['4xx']}, 5xx ${fivexx}; socket errors ${r.errors}, timeouts ${r.timeouts}; ` +
        `latency p50 ${r.latency.p50} ms, p90 ${r.latency.p90} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms; ` +
        `server RSS ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after\n`,
    );
  }
  process.stdout.write(
    `load average at the end ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}\n`,
  );
} finally {
  child.kill('SIGTERM');
}
