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
// With `--mix searches` (issue 16's load target), every request is a distinct search instead: one
// to three words of the diary's own text, some quoted as phrases, some excluded or joined by `or`,
// over entries or topics, in either order, on their first pages; none is asked twice, so no
// answer comes from a cache of answers.
//
//   node generator/cli/node-ts.mjs bench/load.ts <built output dir> [--seconds 30] [--connections 100,500] [--mix all|searches]

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { detailFile } from '../generator/core/files.ts';
import { unpacking } from '../generator/core/packs.ts';
import { pick, prng } from '../generator/core/random.ts';
import { htmlText } from '../generator/core/search/text.ts';
import { loadSite, queryString, rangeQueries } from './range.ts';
import { startServer } from './server.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string', default: '30' },
    connections: { type: 'string', default: '100,500' },
    mix: { type: 'string', default: 'all' },
  },
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

/** Distinct searches made of words of the diary's entries (their detail files), `count` of them. */
function distinctSearches(count: number): Request[] {
  const site = loadSite(outDir as string);
  const rand = prng(1665);
  // The details, out of their packs (core/packs.ts).
  const read = unpacking((file) => readFileSync(`${outDir}/${file}`), site);
  const words = new Set<string>();
  for (let i = 0; words.size < 3000 && i < 400; i++) {
    const bytes = read(detailFile('entries', pick(rand, site.entryDates))) as Uint8Array;
    const html = (JSON.parse(new TextDecoder().decode(bytes)) as { entryHTML: string }).entryHTML;
    for (const w of htmlText(html).match(/[A-Za-z]{2,}/g) ?? []) words.add(w.toLowerCase());
  }
  const vocabulary = [...words];
  const seen = new Set<string>();
  const out: Request[] = [];
  while (out.length < count) {
    const n = 1 + rand(3);
    const parts = Array.from({ length: n }, () => pick(rand, vocabulary));
    const style = rand(6);
    const text =
      style === 0 && n > 1
        ? `"${parts.join(' ')}"`
        : style === 1 && n > 1
          ? parts.join(' or ')
          : style === 2 && n > 1
            ? `${parts.slice(0, -1).join(' ')} -${parts.at(-1)}`
            : parts.join(' ');
    const list = rand(4) === 0 ? 'topics' : 'entries';
    const ordering = rand(3) === 0 ? '&ordering=relevance' : '';
    const path = `/api/v1/${list}?search=${encodeURIComponent(text)}${ordering}`;
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({ method: 'GET', path });
  }
  return out;
}

const { child, origin } = await startServer(repo, outDir as string);
try {
  const searches = values.mix === 'searches';
  const requests = searches ? distinctSearches(400_000) : await mixedRequests(origin, 5000);
  process.stdout.write(
    `server ${origin} over ${outDir}; ${requests.length} ${searches ? 'distinct searches, none asked twice' : 'mixed requests in rotation'}; load average ${loadavg()
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
    if (next > requests.length)
      process.stdout.write(`(the rotation wrapped: ${next - requests.length} requests repeated earlier ones)\n`);
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
