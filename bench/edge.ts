// Netlify's edge function's costs, measured in Deno (the runtime Netlify runs it in), as
// `npm run build -- --out <public dir> --target netlify` generated it (docs/netlify.md):
//
//   tools/netlify/node_modules/deno/deno run --no-config --allow-read bench/edge.ts <public dir>
//
// - cold start: loading the generated module, whose graph includes the site index (Deno parses the
//   JSON as it loads it), then the first request of the isolate, which loads the index (checks it,
//   lists the dates) before answering;
// - warm: the compute time of one request once the index is in memory, for the answers the
//   function computes (arbitrary ranges, errors) and for pre-rendered ones (read from memory here:
//   on Netlify they come from the static layer, through context.next()).
// Run it in a fresh process: the cold figures are only cold once.

import type { EdgeFunction, NetlifyContext } from '../generator/deploy/netlify/edge.ts';

declare const Deno: {
  args: string[];
  readFile(path: string): Promise<Uint8Array<ArrayBuffer>>;
  readDir(path: string): AsyncIterable<{ name: string; isDirectory: boolean }>;
  version: { deno: string; v8: string };
  exit(code: number): never;
};

const dir = Deno.args[0];
if (dir === undefined) {
  console.error(
    'usage: deno run --no-config --allow-read bench/edge.ts <public dir>   (after npm run build -- --out <public dir> --target netlify)',
  );
  Deno.exit(2);
}
const GENERATED = '../.netlify/v1/edge-functions/pepys-api.ts';
const GENERATED_INDEX = new URL('../.netlify/v1/edge-functions/pepys-api-site-index.json', import.meta.url);

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
const context: NetlifyContext = { next: async (request) => serve(decodeURIComponent(new URL(request.url).pathname)) };
const publishedIndex = files.get('/_data/site-index.json');
let bundledIndex: Uint8Array;
try {
  bundledIndex = await Deno.readFile(GENERATED_INDEX.pathname);
} catch {
  console.error(
    'error: no generated function in .netlify/v1/edge-functions: run npm run build -- --out <public dir> --target netlify first',
  );
  Deno.exit(2);
}
if (
  publishedIndex === undefined ||
  publishedIndex.length !== bundledIndex.length ||
  publishedIndex.some((b, i) => b !== bundledIndex[i])
) {
  console.error(
    `error: the function in .netlify/v1/edge-functions was generated for another build than ${dir}: run npm run build -- --out ${dir} --target netlify`,
  );
  Deno.exit(2);
}
const origin = 'https://pepys.example.org';

const ms = (t: number) => `${t.toFixed(2)} ms`;
const us = (t: number) => `${(t * 1000).toFixed(1)} µs`;
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] as number;

// Cold: the generated module (code and bundled index), then the isolate's first request.
const tImport = performance.now();
const { default: api } = (await import(GENERATED)) as { default: EdgeFunction };
const moduleLoad = performance.now() - tImport;
const t0 = performance.now();
const first = await api(new Request(`${origin}/api/v1/entries?start=1663-04-01&end=1666-09-30`), context);
await first.arrayBuffer();
const coldRequest = performance.now() - t0;
if (first.status !== 200) throw new Error(`the first request answered ${first.status}`);

// Already loaded with the function: no cost here.
const { parseSiteIndex } = await import('../generator/core/site-index.ts');
const { handle } = await import('../generator/core/handler.ts');
const { fromRequest, toResponse } = await import('../generator/deploy/web.ts');
const { randomRequests } = await import('../test/edge/requests.ts');

// The index load alone, again (JIT-warm now): JSON.parse as Deno's JSON import does, then the load.
const text = new TextDecoder().decode(bundledIndex);
const loads: number[] = [];
let site = null as ReturnType<typeof parseSiteIndex> | null;
for (let i = 0; i < 20; i++) {
  const t = performance.now();
  site = parseSiteIndex(text);
  loads.push(performance.now() - t);
}
if (site === null || !site.ok) throw new Error('the bundled index does not load');
const index = site.value;

// Warm: random requests, split by who produces the bytes.
const readFile = async (file: string) => {
  const res = serve(`/${file}`);
  return res.ok ? new Uint8Array(await res.arrayBuffer()) : null;
};
const requests = randomRequests(
  20_000,
  { dates: index.entryDates, slugs: [...index.categorySlugs], ids: [...index.topicIds] },
  1666,
);
const computed: number[] = [];
const prerendered: number[] = [];
for (let round = 0; round < 2; round++) {
  for (const { method, path } of requests) {
    const request = new Request(origin + path, { method });
    const t = performance.now();
    const res = toResponse(await handle(fromRequest(request), index, readFile));
    await res.arrayBuffer();
    const elapsed = performance.now() - t;
    if (round === 0) continue; // warm-up
    const isFile = res.status === 200 && method === 'GET' && !new URL(request.url).search.includes('start');
    (isFile ? prerendered : computed).push(elapsed);
  }
}
const rangePages: number[] = [];
for (let i = 0; i < 5000; i++) {
  const y = 1660 + (i % 10);
  const request = new Request(
    `${origin}/api/v1/entries?start=${y}-0${1 + (i % 9)}-0${1 + (i % 7)}&end=1669-05-31&page=${1 + (i % 5)}`,
  );
  const t = performance.now();
  await toResponse(await handle(fromRequest(request), index, readFile)).arrayBuffer();
  rangePages.push(performance.now() - t);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  `Deno ${Deno.version.deno} (V8 ${Deno.version.v8}); site: ${index.entryDates.length} entries, ${index.topicIds.size} topics, ` +
    `${index.categorySlugs.size} categories; bundled index ${(bundledIndex.length / 1024).toFixed(0)} KiB`,
);
console.log(
  `cold: loading the generated module with its bundled index: ${ms(moduleLoad)}; first request of the isolate (index load + answer): ${ms(coldRequest)}`,
);
console.log(`index parse + load, warm JIT: median ${ms(percentile(loads, 50))}, min ${ms(Math.min(...loads))}`);
console.log(
  `warm, computed answers (${computed.length} random: ranges, errors, methods): mean ${us(mean(computed))}, p50 ${us(percentile(computed, 50))}, p99 ${us(percentile(computed, 99))}`,
);
console.log(
  `warm, computed range pages (${rangePages.length}, 50 items each): mean ${us(mean(rangePages))}, p50 ${us(percentile(rangePages, 50))}, p99 ${us(percentile(rangePages, 99))}`,
);
console.log(
  `warm, pre-rendered answers read from memory (${prerendered.length}): mean ${us(mean(prerendered))}, p50 ${us(percentile(prerendered, 50))}`,
);
