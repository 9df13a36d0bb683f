// Full-text search on the whole diary with the full-scale encyclopedia (issues 16 and 34): figures
// only, side by side in one run, never a test.
//
//   npm run bench:search -- [--runs N] [--corpus DIR]
//
// - warm `handle()` (the function every runtime calls) over a mixed set of searches, through a
//   ReadFile that keeps each file's bytes as the local server does: median and p99 per answer;
//   then, the code still warm, a word each never asked before (median and p99);
// - the index's bytes on disk against the searchable text's bytes (what is indexed);
// - cold builds (`node generator/cli/node-ts.mjs generator/cli/build.ts`), wall time and peak RSS,
//   and the time the index takes to make in-process on the same model (the build without the
//   index is about the build less that time);
// - what an isolate's first answer reads (files and bytes), for the searches and filtered pages
//   issue 34 names;
// - the counts of a few real queries.

import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommand, STANDARD_HELP, STANDARD_OPTIONS, wholeNumber } from '../generator/cli/options.ts';
import { readContent, validate } from '../generator/content/load.ts';
import { SITE_INDEX_FILE } from '../generator/core/files.ts';
import { handle } from '../generator/core/handler.ts';
import { fnv1a } from '../generator/core/hash.ts';
import { entryFields, topicFields } from '../generator/core/search/documents.ts';
import { searchIndexFiles } from '../generator/render/search-index.ts';
import { readBuiltSite } from './built-site.ts';
import { coldBuild } from './cold.ts';
import { median } from './measure.ts';
import { ENTRY_QUERIES, TOPIC_QUERIES } from './search-queries.ts';
import { benchPlace, CORPUS_HELP, corpusOption, prepareWorkload, sizeOf } from './workload.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: npm run bench:search -- [--runs N] [--corpus DIR]

Measures search on the whole diary: warm and cold answers, the index's size, the build's cost,
peak memory, and the counts of real queries (docs/search.md).

  --runs <n>           rounds of each measurement (default: 3)
${CORPUS_HELP}
${STANDARD_HELP}
`;
const { values } = parseCommand('npm run bench:search', USAGE, {
  options: {
    ...STANDARD_OPTIONS,
    runs: { type: 'string', default: '3' },
    corpus: corpusOption(repo),
  },
});
const runs = wholeNumber('runs', values.runs as string);
const { work, trash, log } = benchPlace(repo, values.corpus as string);

const QUERIES = ENTRY_QUERIES;

const workload = await prepareWorkload(repo, values.corpus as string, work, 1, trash);
const out = join(work, 'search-out');

log('cold builds …');
const builds = [];
for (let i = 0; i < runs; i++) builds.push(await coldBuild(repo, workload.contentDir, out, trash, 'node'));

log('the index in-process …');
const state = await readContent(workload.contentDir, {});
const validated = validate(state);
if (!validated.ok) throw new Error('the workload does not validate');
const model = validated.model;
const indexMs: number[] = [];
for (let i = 0; i < runs; i++) {
  const t = performance.now();
  searchIndexFiles(model);
  indexMs.push(performance.now() - t);
}

const encoder = new TextEncoder();
let textBytes = 0;
for (const e of model.entries) for (const f of entryFields(e)) textBytes += encoder.encode(f).length;
for (const t of model.topics) for (const f of topicFields(t)) textBytes += encoder.encode(f).length;
const { bytes: indexBytes, files: indexFiles } = sizeOf(join(out, '_data', 'search'));

log('warm answers …');
const { site, readFile } = readBuiltSite(out);
const requests = [
  ...QUERIES.map((query) => ({ path: '/api/v1/entries', query })),
  ...TOPIC_QUERIES.map((query) => ({ path: '/api/v1/topics', query })),
];
const ask = (r: { path: string; query: string }) =>
  handle({ method: 'GET', path: r.path, query: r.query, header: () => null }, site, readFile);
const counts: string[] = [];
for (const r of requests) {
  const a = await ask(r);
  if (a.status !== 200) throw new Error(`${r.path}?${r.query}: ${a.status}`);
  const total = /"totalResults": (\d+)/.exec(new TextDecoder().decode(a.body))?.[1];
  counts.push(`${r.path}?${r.query}: ${total}`);
}
// Searches never asked before, the code warm (each search above asked once): a word each, as an
// isolate serving many readers meets them; measured before the searches above are asked again, from
// whose second asking a record keeps its item with its snippet for them (core/search/answer.ts).
// Words of the entries in 50 to 2,000 of them (a full first page), in an order of their own (by
// hash), the same each run.
const NEW_WORDS = 100;
const documentsOf = new Map<string, number>();
for (const e of model.entries) {
  const words = new Set(
    e.entryHTML
      .replace(/<[^>]*>|&[#0-9a-z]+;/gi, ' ')
      .toLowerCase()
      .match(/[a-z]{4,}/g) ?? [],
  );
  for (const w of words) documentsOf.set(w, (documentsOf.get(w) ?? 0) + 1);
}
const asked = new Set(requests.flatMap((r) => r.query.toLowerCase().match(/[a-z]{4,}/g) ?? []));
const newWords = [...documentsOf]
  .filter(([w, n]) => n >= 50 && n <= 2000 && !asked.has(w))
  .map(([w]) => w)
  .sort((a, b) => fnv1a(a) - fnv1a(b) || (a < b ? -1 : 1))
  .slice(0, NEW_WORDS);
const freshMicros: number[] = [];
for (const w of newWords) {
  const t = performance.now();
  const a = await ask({ path: '/api/v1/entries', query: `search=${w}` });
  freshMicros.push((performance.now() - t) * 1000);
  if (a.status !== 200) throw new Error(`search=${w}: ${a.status}`);
}
freshMicros.sort((a, b) => a - b);
const freshP99 = freshMicros[Math.floor(freshMicros.length * 0.99)] as number;

const micros: number[] = [];
for (let round = 0; round < 200; round++) {
  for (const r of requests) {
    const t = performance.now();
    await ask(r);
    micros.push((performance.now() - t) * 1000);
  }
}
micros.sort((a, b) => a - b);
const p99 = micros[Math.floor(micros.length * 0.99)] as number;

log('cold searches, each in a fresh process …');
// What an edge isolate's first request pays (bench/search-cold.ts): V8 compiling the code on its
// first call, the index load, the shards and detail files read and parsed. The runtimes' own
// overhead (workerd's proxy and static layer) is not in it: tools/cloudflare/bench.ts measures that.
const COLD = ['search=plague', 'search=%22and+so+to+bed%22', 'search=the', 'search=fire&ordering=relevance'];
const cold = COLD.map((query) => {
  const runsOf = Array.from({ length: Math.max(3, runs) }, () => {
    const line = execFileSync(
      process.execPath,
      [
        '--expose-gc',
        join(repo, 'generator/cli/node-ts.mjs'),
        join(repo, 'bench/search-cold.ts'),
        out,
        '/api/v1/entries',
        query,
      ],
      { encoding: 'utf8' },
    );
    return JSON.parse(line) as { status: number; indexMs: number; searchMs: number };
  });
  return {
    query,
    indexMs: median(runsOf.map((r) => r.indexMs)),
    searchMs: median(runsOf.map((r) => r.searchMs)),
  };
});

log("what an isolate's first answer reads, each in a fresh process …");
// Issue 34: every answer, cold, reads at most 20 files and 512 KB, the site index included (an
// isolate reads it before its first answer). Each read comes 1 ms after it is asked for; the
// counts do not depend on it. The category is the one with the most topics.
const indexBytesOf = (dir: string) => statSync(join(dir, SITE_INDEX_FILE)).size;
const biggest = (() => {
  const f = JSON.parse(readFileSync(join(out, SITE_INDEX_FILE), 'utf8')) as {
    categories: string[];
    categoryTopics?: number[];
  };
  const counts = f.categoryTopics ?? f.categories.map(() => 0);
  return f.categories[counts.indexOf(Math.max(...counts))] as string;
})();
const READS = [
  ['/api/v1/entries', 'search=plague'],
  ['/api/v1/entries', 'search=wife'],
  ['/api/v1/entries', 'search=%22and+so+to+bed%22'],
  ['/api/v1/entries', 'search=plague&ordering=relevance&page=2'],
  ['/api/v1/topics', 'kind=person&page=2'],
  ['/api/v1/topics', `category=${biggest}`],
  ['/api/v1/topics', `category=${biggest}&kind=person&page=last`],
] as const;
const reads = READS.map(([path, query]) => {
  const line = execFileSync(
    process.execPath,
    [join(repo, 'generator/cli/node-ts.mjs'), join(repo, 'bench/search-cold.ts'), out, path, query, '1'],
    { encoding: 'utf8' },
  );
  const r = JSON.parse(line) as { status: number; reads: number; bytesRead: number };
  if (r.status !== 200) throw new Error(`${path}?${query}: ${r.status}`);
  return { target: `${path}?${query}`, files: r.reads + 1, bytes: r.bytesRead + indexBytesOf(out) };
});

const wall = median(builds.map((b) => b.wallMs));
const rss = Math.max(...builds.map((b) => b.maxRssBytes));
const index = median(indexMs);
const mb = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
const lines = [
  `figure                                   measured            target (issue 34)`,
  `warm handle() search, median             ${(median(micros) / 1000).toFixed(3)} ms            ≤ 0.3 ms`,
  `warm handle() search, p99                ${(p99 / 1000).toFixed(3)} ms            ≤ 2 ms`,
  `warm handle(), a new word each, median   ${(median(freshMicros) / 1000).toFixed(3)} ms            (${newWords.length} words never asked before, asked once)`,
  `warm handle(), a new word each, p99      ${(freshP99 / 1000).toFixed(3)} ms`,
  ...cold.map(
    (c) =>
      `cold first search, CPU (median of ${Math.max(3, runs)})   ${c.searchMs.toFixed(1)} ms + index load ${c.indexMs.toFixed(1)} ms   ≤ 8 ms   ${c.query}`,
  ),
  ...reads.map(
    (r) =>
      `an isolate's first answer reads          ${r.files} files, ${(r.bytes / 1024).toFixed(0)} KiB   ≤ 20 files, ≤ 512 KiB   ${r.target}`,
  ),
  `index bytes / searchable text bytes      ${mb(indexBytes)} / ${mb(textBytes)} = ${((100 * indexBytes) / textBytes).toFixed(1)}%   ≤ 100% (with what snippets need)`,
  `index files                              ${indexFiles}`,
  `cold build wall (median of ${runs})          ${(wall / 1000).toFixed(2)} s`,
  `  of which the index (in-process)        ${(index / 1000).toFixed(2)} s = +${((100 * index) / (wall - index)).toFixed(0)}% over the build without it`,
  `cold build peak RSS (max of ${runs})         ${mb(rss)}            ≤ 250 MB`,
  `site files (cold build)                  ${builds[0]?.files}            < 20,000`,
  '',
  'counts:',
  ...counts.map((c) => `  ${c}`),
];
process.stdout.write(`${lines.join('\n')}\n`);
trash.put(out);
trash.empty();
