// What one search may cost (issue 36, item 4): figures only, never a test.
//
//   npm run bench:search-cost -- [--rounds N] [--seconds S] [--built DIR] [--corpus DIR]
//
// - the CPU of each search warm (its files read and kept, as the local server and an isolate keep
//   them), through `handle()`, the function every runtime calls: typical searches (bench/search.ts's
//   mixed set) and hostile ones (32 common words with `or` or without, by relevance; long phrases;
//   many phrases of two common words; exclusions). A hostile search is asked in a new variant each
//   round (its words in another order, other phrases), so that no phrase found before is reused.
//   It prints each search's median, the median of the typical ones' and the worst;
// - with --seconds, the local server (`npm start -- --no-build`) under 20 clients sending the
//   hostile `or` search (a new one each time: none is answered from the kept answers), and how
//   long a plain detail request waits meanwhile.
//
// On the whole diary (prepared and built as bench/search.ts does), or on --built, a built site.

import { Agent, request } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommand, STANDARD_HELP, STANDARD_OPTIONS, wholeNumber } from '../generator/cli/options.ts';
import { handle } from '../generator/core/handler.ts';
import { readBuiltSite } from './built-site.ts';
import { coldBuild } from './cold.ts';
import { median } from './measure.ts';
import { ENTRY_QUERIES, TOPIC_QUERIES } from './search-queries.ts';
import { startServer } from './server.ts';
import { benchPlace, CORPUS_HELP, corpusOption, prepareWorkload } from './workload.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: npm run bench:search-cost -- [--rounds N] [--seconds S] [--built DIR] [--corpus DIR]

The CPU of typical and hostile searches, warm, on the whole diary: each one's median, the median
of the typical ones' and the worst (docs/search.md, "What a search may cost").

  --rounds <n>         rounds of each search (default: 15)
  --seconds <s>        also load the local server with 20 clients of hostile searches for that
                       long and time a detail request meanwhile (default: 0, not)
  --built <dir>        a built site to search (default: build the whole diary)
${CORPUS_HELP}
${STANDARD_HELP}
`;
const { values } = parseCommand('npm run bench:search-cost', USAGE, {
  options: {
    ...STANDARD_OPTIONS,
    rounds: { type: 'string', default: '15' },
    seconds: { type: 'string', default: '0' },
    built: { type: 'string' },
    corpus: corpusOption(repo),
  },
});
const rounds = wholeNumber('rounds', values.rounds as string);
const seconds = wholeNumber('seconds', values.seconds as string, 0);
const { work, trash, log } = benchPlace(repo, values.corpus as string);

let out = values.built as string | undefined;
if (out === undefined) {
  const workload = await prepareWorkload(repo, values.corpus as string, work, 1, trash);
  out = join(work, 'search-cost-out');
  log('a cold build of the whole diary …');
  await coldBuild(repo, workload.contentDir, out, trash, 'node');
}
const built = out;

/** The diary's commonest words (of its entries' index), commonest first. */
const COMMON = (
  'and the to of i my in a that with he so it at be by but me for is which there all not was his him home did ' +
  'have this as sir lord do on we her'
).split(' ');
/** The commonest words turned by `v` (a variant of a hostile search: the same words, other neighbours). */
const turned = (v: number, n = 32): string[] => Array.from({ length: n }, (_, i) => COMMON[(i + v) % n] as string);
/** `n` phrases of two common words, other pairs in each variant. */
const pairs = (v: number, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `"${COMMON[i % 16]} ${COMMON[(i + 1 + (v % 15)) % 16]}"`);
const q = (search: string, extra = '') => `search=${encodeURIComponent(search)}${extra}`;

interface Search {
  name: string;
  path: string;
  query: (variant: number) => string;
  hostile: boolean;
}
const typical: Search[] = [
  ...ENTRY_QUERIES.map((query) => ({ name: query, path: '/api/v1/entries', query: () => query, hostile: false })),
  ...TOPIC_QUERIES.map((query) => ({
    name: `topics ${query}`,
    path: '/api/v1/topics',
    query: () => query,
    hostile: false,
  })),
];
const REL = '&ordering=relevance';
const hostileSearches: Array<Pick<Search, 'name' | 'query'>> = [
  { name: '32 common words with or, relevance', query: (v) => q(turned(v).join(' or '), REL) },
  { name: '32 common words with or', query: (v) => q(turned(v).join(' or ')) },
  { name: '32 common words, relevance', query: (v) => q(turned(v).join(' '), REL) },
  { name: 'a phrase of 32 common words', query: (v) => q(`"${turned(v).join(' ')}"`) },
  { name: '4 phrases of two common words with or, relevance', query: (v) => q(pairs(v, 4).join(' or '), REL) },
  { name: '8 phrases of two common words with or, relevance', query: (v) => q(pairs(v, 8).join(' or '), REL) },
  { name: '16 phrases of two common words with or, relevance', query: (v) => q(pairs(v, 16).join(' or '), REL) },
  { name: '16 phrases of two common words', query: (v) => q(pairs(v, 16).join(' ')) },
  {
    name: 'a common word and 31 exclusions',
    query: (v) =>
      q(
        turned(v)
          .map((w, i) => (i > 0 ? `-${w}` : w))
          .join(' '),
      ),
  },
  {
    name: '32 exclusions',
    query: (v) =>
      q(
        turned(v)
          .map((w) => `-${w}`)
          .join(' '),
      ),
  },
  { name: '`the` 32 times with or, relevance', query: () => q(Array(32).fill('the').join(' or '), REL) },
];
const hostile: Search[] = hostileSearches.map((s) => ({ ...s, path: '/api/v1/entries', hostile: true }));

const { site, readFile } = readBuiltSite(built);
/** GET a path of the server, its body read whole: its status. */
function get(origin: string, path: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const ask = (path: string, query: string) => handle({ method: 'GET', path, query, header: () => null }, site, readFile);

log('searches, warm …');
const rows: Array<{ search: Search; status: number; total: string; cpuMs: number; maxMs: number }> = [];
for (const search of [...typical, ...hostile]) {
  // Once untimed: its files read and kept, its words' postings decoded.
  const first = await ask(search.path, search.query(0));
  const total = /"totalResults": (\d+)/.exec(new TextDecoder().decode(first.body))?.[1] ?? '-';
  const cpu: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const query = search.query(round);
    const before = process.cpuUsage();
    await ask(search.path, query);
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
  }
  rows.push({ search, status: first.status, total, cpuMs: median(cpu), maxMs: Math.max(...cpu) });
}

const typicalMedian = median(rows.filter((r) => !r.search.hostile).map((r) => r.cpuMs));
const worst = rows.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a));
const lines = [
  `search (warm CPU of handle(), median of ${rounds} rounds, and the most)        status  results   median     max`,
  ...rows.map(
    (r) =>
      `${(r.search.hostile ? '! ' : '  ') + r.search.name.slice(0, 72).padEnd(72)}  ${String(r.status).padStart(6)}  ${r.total.padStart(7)}  ${r.cpuMs.toFixed(2).padStart(6)} ms  ${r.maxMs.toFixed(2).padStart(6)} ms`,
  ),
  '',
  `median of the typical searches' medians   ${typicalMedian.toFixed(2)} ms`,
  `the worst search's median                  ${worst.cpuMs.toFixed(2)} ms (${(worst.cpuMs / typicalMedian).toFixed(0)}x): ${worst.search.name}`,
];
process.stdout.write(`${lines.join('\n')}\n`);

if (seconds > 0) {
  log(`the local server, 20 clients of hostile searches for ${seconds} s …`);
  const { child, origin } = await startServer(repo, built);
  try {
    const detail = `/api/v1/entries/${site.entryDates[0]}`;
    // Each kind of client on its connections: the searches on 20, the detail requests on one.
    const searchAgent = new Agent({ keepAlive: true, maxSockets: 20 });
    const detailAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    await get(origin, detail, detailAgent);
    let asked = 0;
    let answered = 0;
    const statuses = new Map<number, number>();
    const end = Date.now() + seconds * 1000;
    const client = async () => {
      while (Date.now() < end) {
        // A new target every time (an unknown parameter is ignored): never a kept answer.
        const n = asked++;
        const status = await get(origin, `/api/v1/entries?${q(turned(n).join(' or '), REL)}&n=${n}`, searchAgent);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        answered++;
      }
    };
    const waits: number[] = [];
    const details = async () => {
      await new Promise((r) => setTimeout(r, 500));
      while (Date.now() < end) {
        const t = performance.now();
        await get(origin, detail, detailAgent);
        waits.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await Promise.all([...Array.from({ length: 20 }, client), details()]);
    searchAgent.destroy();
    detailAgent.destroy();
    waits.sort((a, b) => a - b);
    const p = (x: number) => (waits[Math.min(waits.length - 1, Math.floor(waits.length * x))] as number).toFixed(1);
    process.stdout.write(
      `\nthe local server, 20 clients of '32 common words with or, relevance' for ${seconds} s:\n` +
        `  searches answered ${answered} (${(answered / seconds).toFixed(0)}/s; statuses ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(', ')})\n` +
        `  a detail request meanwhile (${waits.length} asked, one at a time): median ${p(0.5)} ms, p90 ${p(0.9)} ms, max ${p(1)} ms\n`,
    );
  } finally {
    child.kill('SIGTERM');
  }
}
