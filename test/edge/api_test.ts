// Deno tests of Netlify's edge function as the build generates it, run by Deno as Netlify runs it.
// Started by test/heavy/netlify-deno.test.ts, which builds a site, generates the function for it
// into a project directory, records the local server's answers to thousands of random requests
// into $EDGE_FIXTURE/cases.json, and runs:
//
//   deno test --no-config --allow-read --allow-env=EDGE_FIXTURE test/edge/
//
// $EDGE_FIXTURE holds public/ (the built site), project/ (generator/ and the generated
// .netlify/v1/edge-functions/pepys-api.ts) and cases.json. The function's context.next() is played
// by a fake that serves public/, as Netlify's static layer would.

import { SITE_INDEX_FILE } from '../../generator/core/files.ts';
import { recordPackFile } from '../../generator/core/packs.ts';
import { parseSiteIndex } from '../../generator/core/site-index.ts';
import { CDN_CACHE_CONTROL, NETLIFY_VARY } from '../../generator/deploy/netlify/cache.ts';
import { createEdgeFunction, type EdgeFunction, type NetlifyContext } from '../../generator/deploy/netlify/edge.ts';

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
  requestHeaders: Record<string, string>;
  status: number;
  headers: Record<string, string | null>;
  body: string;
}

const fixture = Deno.env.get('EDGE_FIXTURE');
if (fixture === undefined)
  throw new Error('EDGE_FIXTURE is not set: run these tests through test/heavy/netlify-deno.test.ts');
const { origin, cases, entry } = JSON.parse(await Deno.readTextFile(`${fixture}/cases.json`)) as {
  origin: string;
  cases: Case[];
  entry: string;
};
// The generated module, as Netlify's bundler finds it.
const generated = (await import(new URL(`file://${entry}`).href)) as {
  default: EdgeFunction;
  config: Record<string, unknown>;
};
const api = generated.default;

/**
 * A function of its own, made from the same bundled index, whose isolate has read nothing yet: an
 * isolate keeps the files it has read for its life (core/bounded-cache.ts fileKeeper), so a test
 * of what is read, or of a file that goes missing, starts from none.
 */
async function freshApi(): Promise<EdgeFunction> {
  const index: unknown = JSON.parse(await Deno.readTextFile(entry.replace(/[^/]+$/, 'pepys-api-site-index.json')));
  return createEdgeFunction(index);
}

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
function assertEquals<T>(actual: T, expected: T, message: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    throw new Error(`${message}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** Netlify's context, with `next()` serving the published files; it records what it serves. */
function fakeContext(options: { missing?: string } = {}): NetlifyContext & { served: string[] } {
  const served: string[] = [];
  return {
    served,
    async next(request: Request) {
      const { pathname } = new URL(request.url);
      served.push(pathname);
      if (pathname === options.missing) return new Response('Not Found', { status: 404 });
      try {
        return new Response(await Deno.readFile(`${fixture}/public${decodeURIComponent(pathname)}`));
      } catch {
        return new Response('Not Found', { status: 404 });
      }
    },
  };
}

async function assertUnavailable(res: Response, detail: RegExp, label: string): Promise<void> {
  assertEquals(res.status, 503, `${label}: status`);
  assertEquals(res.headers.get('cache-control'), 'no-store', `${label}: cache-control`);
  assertEquals(res.headers.get('netlify-cdn-cache-control'), null, `${label}: CDN cache rule`);
  assertEquals(res.headers.get('netlify-vary'), NETLIFY_VARY, `${label}: Netlify-Vary`);
  const body = (await res.json()) as { status_code: number; detail: string };
  assertEquals(body.status_code, 503, `${label}: body`);
  assert(detail.test(body.detail), `${label}: detail ${JSON.stringify(body.detail)}`);
}

// JSON and the two feeds (Atom, JSON Feed): never the HTML view.
const KEPT_TYPES = new Set(['application/json', 'application/atom+xml', 'application/feed+json']);

Deno.test('the generated module declares its routes inline: /api and /api/*, every method, cache "manual"', () => {
  assertEquals(generated.config.path, ['/api', '/api/*'], 'path');
  assertEquals(generated.config.cache, 'manual', 'cache');
  assert(!('method' in generated.config), 'no method: HEAD cannot be declared, and none means all');
  assert(!('onError' in generated.config), "onError stays Netlify's default");
});

Deno.test(`answers ${cases.length} random requests byte for byte as the local server, with Netlify's headers`, async () => {
  const ctx = fakeContext();
  const encoder = new TextEncoder();
  let kept = 0;
  for (const c of cases) {
    const label = `${c.method} ${c.path} ${JSON.stringify(c.requestHeaders)}`;
    const res = await api(new Request(origin + c.path, { method: c.method, headers: c.requestHeaders }), ctx);
    assertEquals(res.status, c.status, `${label}: status`);
    for (const [name, value] of Object.entries(c.headers))
      assertEquals(res.headers.get(name), value, `${label}: ${name}`);
    const actual = new Uint8Array(await res.arrayBuffer());
    const expected = encoder.encode(c.body);
    assert(actual.length === expected.length && actual.every((b, i) => b === expected[i]), `${label}: body differs`);
    assertEquals(res.headers.get('netlify-vary'), NETLIFY_VARY, `${label}: Netlify-Vary`);
    const cdn = res.headers.get('netlify-cdn-cache-control');
    if (cdn !== null) {
      kept++;
      assertEquals(cdn, CDN_CACHE_CONTROL, `${label}: CDN cache rule`);
      assert(
        c.method === 'GET' && c.status < 500 && KEPT_TYPES.has(res.headers.get('content-type') ?? ''),
        `${label}: kept by the CDN`,
      );
    }
  }
  assert(kept > cases.length / 3, `the CDN may keep most answers (${kept} of ${cases.length})`);
  // The index came with the function: only pre-rendered answers, the records' packs (and the search
  // index, the feed and the kinds of topics, for what needs them) were read.
  const other = ctx.served.filter(
    (p) =>
      !/^\/(api\/v1\/.+\.json|api\/v1\/feeds\/entries\.atom|_data\/records\/.+\.pack|_data\/search\/.+|_data\/topic-kinds\.json)$/.test(
        p,
      ),
  );
  assertEquals(other, [], 'files read besides pre-rendered answers');
});

Deno.test('keeps the files it read: a second identical request reads none', async () => {
  const api = await freshApi();
  const first = fakeContext();
  const path = `${origin}/api/v1/entries?search=plague`;
  const a = await (await api(new Request(path), first)).text();
  assert(first.served.length > 0, 'the first search reads the index and the records');
  const again = fakeContext();
  const b = await (await api(new Request(path), again)).text();
  assertEquals(again.served, [], 'files read by the second');
  assertEquals(b, a, 'the same answer');
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
    assertEquals(again.headers.get('netlify-cdn-cache-control'), null, `${path}: the CDN keeps no 304`);
  }
});

Deno.test('reads pre-rendered answers from their files, computes the rest without reading any', async () => {
  const api = await freshApi();
  const ctx = fakeContext();
  await (await api(new Request(`${origin}/api/v1/entries?start=1660-01-01&end=1660-12-31&page=1`), ctx)).arrayBuffer();
  await (await api(new Request(`${origin}/api/v1/entries.json?page=last`), ctx)).arrayBuffer();
  await (await api(new Request(`${origin}/api/v1/entries?start=1660-01-02&end=1660-12-31`), ctx)).arrayBuffer();
  await (await api(new Request(`${origin}/api/v1/entries?start=nonsense`), ctx)).arrayBuffer();
  assertEquals(ctx.served[0], '/api/v1/entries/years/1660/pages/1.json', 'year range');
  assert(/^\/api\/v1\/entries\/pages\/\d+\.json$/.test(ctx.served[1] ?? ''), 'last page of the unfiltered list');
  assertEquals(ctx.served.length, 2, 'files read');
});

Deno.test('a missing pre-rendered file, or a failing read, answers 503 that no cache keeps', async () => {
  const api = await freshApi();
  // The entry's detail is read out of its pack (core/packs.ts): the pack goes missing.
  const index = parseSiteIndex(await Deno.readTextFile(`${fixture}/public/${SITE_INDEX_FILE}`));
  if (!index.ok) throw new Error(index.error);
  const pack = recordPackFile('entries', '1660-01-01', index.value.entryDates.length);
  const missing = fakeContext({ missing: `/${pack}` });
  await assertUnavailable(
    await api(new Request(`${origin}/api/v1/entries/1660-01-01`), missing),
    /lacks api\/v1\/entries\/1660-01-01\.json/,
    'missing file',
  );
  const original = console.error;
  const logged: unknown[] = [];
  console.error = (line: unknown) => logged.push(line);
  try {
    const throwing: NetlifyContext = {
      next: () => Promise.reject(new Error('static layer unavailable')),
    };
    await assertUnavailable(
      await api(new Request(`${origin}/api/v1/topics`), throwing),
      /unexpected error/,
      'throwing read',
    );
  } finally {
    console.error = original;
  }
  assertEquals(logged, [`pepys-api: GET ${origin}/api/v1/topics: static layer unavailable`], 'function log');
});

Deno.test('an invalid bundled index answers 503 that no cache keeps, to every request, reading nothing', async () => {
  const broken = createEdgeFunction({ version: 4, buildId: 'x' });
  const ctx = fakeContext();
  for (const path of ['/api/v1', '/api/v1/entries?start=1661-01-01', '/api/v1/topics/1']) {
    await assertUnavailable(await broken(new Request(origin + path), ctx), /bundled site index is invalid/, path);
  }
  assertEquals(ctx.served, [], 'files read');
});
