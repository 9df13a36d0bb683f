// Deno tests of the Netlify edge function itself (generator/deploy/netlify/edge-functions/api.ts), run by Deno
// as Netlify runs it. Started by test/netlify-deno.test.ts, which builds a site, records the local
// server's answers to thousands of random requests into $EDGE_FIXTURE/cases.json, and runs:
//
//   deno test --allow-read --allow-env=EDGE_FIXTURE test/edge/
//
// The function's `context.next()` is played by a fake that serves the built public/ directory,
// as Netlify's static layer would.

import api, { type NetlifyContext } from '../../generator/deploy/netlify/edge-functions/api.ts';
import { CDN_CACHE_CONTROL } from '../../generator/deploy/netlify/cache.ts';

const SITE_INDEX_PATH = '/_data/site-index.json';

// Deno's global, described for the Node type-checker (tsc) that also reads this file.
declare const Deno: {
  env: { get(name: string): string | undefined };
  readFile(path: string): Promise<Uint8Array<ArrayBuffer>>;
  readTextFile(path: string): Promise<string>;
  test(name: string, fn: () => Promise<void> | void): void;
};

interface Case {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | null>;
  body: string;
}

const fixture = Deno.env.get('EDGE_FIXTURE');
if (fixture === undefined) throw new Error('EDGE_FIXTURE is not set: run these tests through test/netlify-deno.test.ts');
const { origin, cases } = JSON.parse(await Deno.readTextFile(`${fixture}/cases.json`)) as { origin: string; cases: Case[] };

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
function assertEquals<T>(actual: T, expected: T, message: string): void {
  if (actual !== expected) throw new Error(`${message}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** Netlify's context, with `next()` serving the published files; it counts what it serves. */
function fakeContext(options: { indexStatus?: number } = {}): NetlifyContext & { served: string[] } {
  const served: string[] = [];
  return {
    served,
    async next(request: Request) {
      const { pathname } = new URL(request.url);
      served.push(pathname);
      if (pathname === SITE_INDEX_PATH && options.indexStatus !== undefined) return new Response('unavailable', { status: options.indexStatus });
      try {
        return new Response(await Deno.readFile(`${fixture}/public${decodeURIComponent(pathname)}`));
      } catch {
        return new Response('Not Found', { status: 404 });
      }
    },
  };
}

// First, before any index is loaded in this isolate.
Deno.test('without its index, the function answers 503 that no cache keeps', async () => {
  const ctx = fakeContext({ indexStatus: 503 });
  const res = await api(new Request(`${origin}/api/v1/entries?start=1661-01-01`), ctx);
  assertEquals(res.status, 503, 'status');
  assertEquals(res.headers.get('cache-control'), 'no-store', 'cache-control');
  assertEquals(res.headers.get('netlify-cdn-cache-control'), null, 'CDN cache rule');
  assertEquals(((await res.json()) as { status_code: number }).status_code, 503, 'body');
  assertEquals(ctx.served.join(), SITE_INDEX_PATH, 'files read');
});

Deno.test(`answers ${cases.length} random requests byte for byte as the local server`, async () => {
  const ctx = fakeContext();
  const encoder = new TextEncoder();
  for (const c of cases) {
    const label = `${c.method} ${c.path}`;
    const res = await api(new Request(origin + c.path, { method: c.method }), ctx);
    assertEquals(res.status, c.status, `${label}: status`);
    for (const [name, value] of Object.entries(c.headers)) {
      assertEquals(res.headers.get(name), value, `${label}: ${name}`);
    }
    const actual = new Uint8Array(await res.arrayBuffer());
    const expected = encoder.encode(c.body);
    assert(actual.length === expected.length && actual.every((b, i) => b === expected[i]), `${label}: body differs`);
    const cdn = (c.method === 'GET' || c.method === 'HEAD') && c.status < 500 ? CDN_CACHE_CONTROL : null;
    assertEquals(res.headers.get('netlify-cdn-cache-control'), cdn, `${label}: CDN cache rule`);
  }
  // The index was read once, by the first request of the isolate, not again.
  assertEquals(ctx.served.filter((p) => p === SITE_INDEX_PATH).length, 1, 'index loads');
});

Deno.test('answers a repeated request with 304 when its ETag matches', async () => {
  for (const path of ['/api/v1/entries?start=1661-03-04&end=1667-01-01', '/api/v1/entries/1660-01-01', '/api/v1']) {
    const first = await api(new Request(origin + path), fakeContext());
    const etag = first.headers.get('etag') ?? '';
    assert(etag !== '', `${path}: etag`);
    const again = await api(new Request(origin + path, { headers: { 'If-None-Match': etag } }), fakeContext());
    assertEquals(again.status, 304, `${path}: status`);
    assertEquals(await again.text(), '', `${path}: body`);
    assertEquals(again.headers.get('vary'), 'Cookie, Accept', `${path}: vary`);
  }
});

Deno.test('reads pre-rendered answers from their files, computes the rest without reading any', async () => {
  const ctx = fakeContext();
  await (await api(new Request(`${origin}/api/v1/entries?start=1660-01-01&end=1660-12-31&page=1`), ctx)).arrayBuffer();
  await (await api(new Request(`${origin}/api/v1/entries.json?page=last`), ctx)).arrayBuffer();
  await (await api(new Request(`${origin}/api/v1/entries?start=1660-01-02&end=1660-12-31`), ctx)).arrayBuffer();
  await (await api(new Request(`${origin}/api/v1/entries?start=nonsense`), ctx)).arrayBuffer();
  assertEquals(ctx.served[0], '/api/v1/entries/years/1660/pages/1.json', 'year range');
  assert(/^\/api\/v1\/entries\/pages\/\d+\.json$/.test(ctx.served[1] ?? ''), 'last page of the unfiltered list');
  assertEquals(ctx.served.length, 2, 'files read');
});
