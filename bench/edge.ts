// The edge function's costs, measured in Deno (the runtime Netlify runs it in), over a built site:
//
//   tools/netlify/node_modules/deno/deno run --no-config --allow-read bench/edge.ts <public dir>
//
// - cold start: the first request of a fresh isolate, which loads the site index (parse it and
//   render each entry's list item once) before answering; the index file itself reaches the
//   function through context.next() inside Netlify, which this cannot measure, so it is read
//   from memory here;
// - warm: the compute time of one request once the index is in memory, for the answers the
//   function computes (arbitrary ranges, errors) and for pre-rendered ones (read from memory here:
//   on Netlify they come from the static layer).
// Run it in a fresh process: the cold numbers are only cold once.

import type { NetlifyContext } from '../generator/deploy/netlify/edge-functions/api.ts';

declare const Deno: {
  args: string[];
  readFile(path: string): Promise<Uint8Array<ArrayBuffer>>;
  readDir(path: string): AsyncIterable<{ name: string; isDirectory: boolean }>;
  version: { deno: string; v8: string };
};

const dir = Deno.args[0];
if (dir === undefined) throw new Error('usage: deno run --no-config --allow-read bench/edge.ts <public dir>');

// The published files, in memory: the function's context.next() without the static layer.
const files = new Map<string, Uint8Array<ArrayBuffer>>();
async function readTree(path: string): Promise<void> {
  for await (const e of Deno.readDir(`${dir}${path}`)) {
    const p = `${path}/${e.name}`;
    if (e.isDirectory) await readTree(p);
    else files.set(p, await Deno.readFile(`${dir}${p}`));
  }
}
await readTree('');
const serve = (pathname: string) => {
  const bytes = files.get(pathname);
  return bytes === undefined ? new Response('Not Found', { status: 404 }) : new Response(bytes);
};
const SITE_INDEX_PATH = '/_data/site-index.json';
const context: NetlifyContext = { next: async (request) => serve(decodeURIComponent(new URL(request.url).pathname)) };
const indexBytes = files.get(SITE_INDEX_PATH);
if (indexBytes === undefined) throw new Error(`${dir}${SITE_INDEX_PATH} is missing: build the site first`);
const origin = 'https://pepys.example.org';

const ms = (t: number) => `${t.toFixed(2)} ms`;
const us = (t: number) => `${(t * 1000).toFixed(1)} µs`;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] as number;

// Cold: loading the function's module graph, then the first request of this isolate, through
// the function's own entry point.
const tImport = performance.now();
const { default: api } = await import('../generator/deploy/netlify/edge-functions/api.ts');
const moduleLoad = performance.now() - tImport;
// Already loaded with the function: no cost here.
const { parseSiteIndex } = await import('../generator/core/site-index.ts');
const { handle } = await import('../generator/core/handler.ts');
const { fromRequest, toResponse } = await import('../generator/deploy/web.ts');
const loadSiteIndex = (text: string) => {
  const loaded = parseSiteIndex(text);
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.value;
};
const { randomRequests } = await import('../test/edge/requests.ts');
const t0 = performance.now();
const first = await api(new Request(`${origin}/api/v1/entries?start=1663-04-01&end=1666-09-30&page=3`), context);
await first?.arrayBuffer();
const coldRequest = performance.now() - t0;

// The index load alone, again (JIT-warm now; the first figure above is the cold one).
const text = new TextDecoder().decode(indexBytes);
const loads: number[] = [];
let site = loadSiteIndex(text);
for (let i = 0; i < 20; i++) {
  const t = performance.now();
  site = loadSiteIndex(text);
  loads.push(performance.now() - t);
}

// Warm: random requests, split by who produces the bytes.
const readFile = async (file: string) => {
  const res = await serve(`/${file}`);
  return res.ok ? new Uint8Array(await res.arrayBuffer()) : null;
};
const requests = randomRequests(20_000, { dates: site.entryDates, slugs: [...site.categorySlugs], ids: [...site.topicIds] }, 1666);
const computed: number[] = [];
const prerendered: number[] = [];
for (let round = 0; round < 2; round++) {
  for (const { method, path } of requests) {
    const request = new Request(origin + path, { method });
    const t = performance.now();
    const res = toResponse(await handle(fromRequest(request), site, readFile));
    const body = await res.arrayBuffer();
    const elapsed = performance.now() - t;
    if (round === 0) continue; // warm-up
    const isFile = res.status === 200 && method === 'GET' && !new URL(request.url).search.includes('start');
    (isFile ? prerendered : computed).push(elapsed);
    void body;
  }
}
const rangePages: number[] = [];
for (let i = 0; i < 5000; i++) {
  const y = 1660 + (i % 10);
  const request = new Request(`${origin}/api/v1/entries?start=${y}-0${1 + (i % 9)}-0${1 + (i % 7)}&end=1669-05-31&page=${1 + (i % 5)}`);
  const t = performance.now();
  await toResponse(await handle(fromRequest(request), site, readFile)).arrayBuffer();
  rangePages.push(performance.now() - t);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`Deno ${Deno.version.deno} (V8 ${Deno.version.v8}); site: ${site.entryDates.length} entries, ${site.topicIds.size} topics, ${site.categorySlugs.size} categories; index ${(indexBytes.length / 1024).toFixed(0)} KiB`);
console.log(`cold: loading the function's modules: ${ms(moduleLoad)}; first request of the isolate (index load + answer): ${ms(coldRequest)}`);
console.log(`index load (parse + item fragments), warm JIT: median ${ms(percentile(loads, 50))}, min ${ms(Math.min(...loads))}`);
console.log(`warm, computed answers (${computed.length} random: ranges, errors, methods): mean ${us(mean(computed))}, p50 ${us(percentile(computed, 50))}, p99 ${us(percentile(computed, 99))}`);
console.log(`warm, computed range pages (${rangePages.length}, 50 items each): mean ${us(mean(rangePages))}, p50 ${us(percentile(rangePages, 50))}, p99 ${us(percentile(rangePages, 99))}`);
console.log(`warm, pre-rendered answers read from memory (${prerendered.length}): mean ${us(mean(prerendered))}, p50 ${us(percentile(prerendered, 50))}`);
