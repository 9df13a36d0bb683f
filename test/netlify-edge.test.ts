// The Netlify edge function's answers are byte-identical to the local server's: the function (run
// in-process: it is runtime-free) against the local server, on thousands of random requests, over
// one build read by both. The same comparison runs in Deno itself in test/netlify-deno.test.ts
// when the Netlify tools are installed.

import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseSiteIndex, type SiteIndex } from '../generator/core/site-index.ts';
import { CDN_CACHE_CONTROL } from '../generator/deploy/netlify/cache.ts';
import type { NetlifyContext } from '../generator/deploy/netlify/edge-functions/api.ts';
import { randomRequests } from './edge/requests.ts';
import { type LocalSite, startLocalSite } from './helpers/local-server.ts';

const CONTENT = join(import.meta.dirname, '..', 'content');
const CONTRACT_HEADERS = ['content-type', 'allow', 'vary', 'etag', 'cache-control', 'access-control-allow-origin'];

/** Netlify's context.next(), played by the built files. */
function filesOf(publicDir: string): NetlifyContext {
  return {
    next: async (request: Request) => {
      try {
        return new Response(readFileSync(join(publicDir, normalize(decodeURIComponent(new URL(request.url).pathname)))));
      } catch {
        return new Response('Not Found', { status: 404 });
      }
    },
  };
}

for (const pageSize of [50, 7]) {
  describe(`Netlify edge function = local server, byte for byte (page size ${pageSize})`, () => {
    let site: LocalSite;
    let index: SiteIndex;
    // A fresh isolate: the function keeps the index it loads in its module.
    let api: (request: Request, context: NetlifyContext) => Promise<Response>;
    beforeAll(async () => {
      vi.resetModules();
      api = (await import('../generator/deploy/netlify/edge-functions/api.ts')).default;
      site = await startLocalSite(CONTENT, { pageSize });
      const loaded = parseSiteIndex(readFileSync(join(site.publicDir, '_data', 'site-index.json'), 'utf8'));
      if (!loaded.ok) throw new Error(loaded.error);
      index = loaded.value;
    });
    afterAll(async () => {
      await site.stop();
    });

    it('answers 3,000 random requests exactly as the local server does', async () => {
      const context = filesOf(site.publicDir);
      const known = { dates: index.entryDates, slugs: [...index.categorySlugs], ids: [...index.topicIds] };
      const statuses = new Map<number, number>();
      for (const { method, path } of randomRequests(3000, known, 1660 + pageSize)) {
        const label = `${method} ${path}`;
        const url = site.origin + path;
        const expected = await fetch(url, { method });
        const actual = await api(new Request(url, { method }), context);
        expect(actual.status, label).toBe(expected.status);
        statuses.set(actual.status, (statuses.get(actual.status) ?? 0) + 1);
        for (const h of CONTRACT_HEADERS) expect(actual.headers.get(h), `${label} ${h}`).toBe(expected.headers.get(h));
        const [a, e] = [Buffer.from(await actual.arrayBuffer()), Buffer.from(await expected.arrayBuffer())];
        expect(a.equals(e), `${label}: body`).toBe(true);
        const cdn = (method === 'GET' || method === 'HEAD') && expected.status < 500 ? CDN_CACHE_CONTROL : null;
        expect(actual.headers.get('netlify-cdn-cache-control'), label).toBe(cdn);
      }
      // The random mix reaches every kind of answer.
      for (const status of [200, 400, 404, 405]) expect(statuses.get(status) ?? 0, `answers with status ${status}`).toBeGreaterThan(20);
    });

    it('answers a repeated request with 304 when its ETag matches', async () => {
      const context = filesOf(site.publicDir);
      for (const path of ['/api/v1/entries?start=1661-03-04&end=1667-01-01&page=2', '/api/v1/entries/1660-01-01', '/api/v1/topics']) {
        const first = await api(new Request(site.origin + path), context);
        const etag = first.headers.get('etag') as string;
        expect(etag, path).toMatch(/^"[0-9a-f]{16}"$/);
        const again = await api(new Request(site.origin + path, { headers: { 'If-None-Match': `W/${etag}` } }), context);
        expect(again.status, path).toBe(304);
        expect(await again.text()).toBe('');
        for (const h of CONTRACT_HEADERS) expect(again.headers.get(h)).toBe(first.headers.get(h));
      }
    });
  });
}
