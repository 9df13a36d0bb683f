// The edge function's answers are byte-identical to the generator's: its handler, run in-process
// (it is runtime-free), against the local server, on thousands of random requests, over one build
// read by both. Runs in the everyday `npm test`; the same comparison runs in Deno itself in
// test/netlify-deno.test.ts when the Netlify tools are installed.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { loadSiteIndex, type SiteIndex } from '../generator/core/site-index.ts';
import { CDN_CACHE_CONTROL, handle, indexLoader, type ReadFile } from '../generator/deploy/netlify/handler.ts';
import { createApiServer } from '../generator/server/server.ts';
import { randomRequests } from './edge/requests.ts';

const CONTENT = join(import.meta.dirname, '..', 'content');
const CONTRACT_HEADERS = ['content-type', 'allow', 'vary'];

interface Site {
  origin: string;
  publicDir: string;
  index: SiteIndex;
  readFile: ReadFile;
  stop: () => Promise<void>;
}

/** Builds the sample for a local server's origin (with `pageSize`) and serves it. */
async function startSite(pageSize: number): Promise<Site> {
  const dir = mkdtempSync(join(tmpdir(), 'pepys-edge-'));
  const publicDir = join(dir, 'public');
  const server: Server = createApiServer({ publicDir });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await build({ contentDir: CONTENT, outDir: publicDir, quiet: true, overrides: { apiOrigin: origin, pageSize }, env: {} });
  const readFile: ReadFile = async (path) => {
    try {
      return new Response(readFileSync(join(publicDir, normalize(path))));
    } catch {
      return new Response('Not Found', { status: 404 });
    }
  };
  const index = loadSiteIndex(JSON.parse(readFileSync(join(publicDir, '_data', 'site-index.json'), 'utf8')));
  return {
    origin,
    publicDir,
    index,
    readFile,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

for (const pageSize of [50, 7]) {
  describe(`edge handler = local server, byte for byte (page size ${pageSize})`, () => {
    let site: Site;
    beforeAll(async () => {
      site = await startSite(pageSize);
    });
    afterAll(async () => {
      await site.stop();
    });

    it('answers 3,000 random requests exactly as the local server does', async () => {
      const { index } = site;
      const known = { dates: index.entryDates, slugs: [...index.categorySlugs], ids: [...index.topicIds] };
      const requests = randomRequests(3000, known, 1660 + pageSize);
      const statuses = new Map<number, number>();
      let computed = 0;
      let files = 0;
      for (const { method, path } of requests) {
        const label = `${method} ${path}`;
        const url = site.origin + path;
        const expected = await fetch(url, { method });
        const actual = await handle(new Request(url, { method }), index, site.readFile);
        expect(actual.status, label).toBe(expected.status);
        statuses.set(actual.status, (statuses.get(actual.status) ?? 0) + 1);
        for (const h of CONTRACT_HEADERS) expect(actual.headers.get(h), `${label} ${h}`).toBe(expected.headers.get(h));
        const [a, e] = [Buffer.from(await actual.arrayBuffer()), Buffer.from(await expected.arrayBuffer())];
        expect(a.equals(e), `${label}: body`).toBe(true);
        if (expected.status === 200 && method === 'GET') expect(actual.headers.get('etag'), label).toMatch(/^"[0-9a-f-]+"$/);
        // A computed answer has the local server's validator; a file's is a hash of its bytes.
        if (expected.headers.get('etag')?.includes('-')) {
          computed++;
          expect(actual.headers.get('etag'), label).toBe(expected.headers.get('etag'));
        } else if (expected.status === 200 && method === 'GET') files++;
        expect(actual.headers.get('netlify-cdn-cache-control'), label).toBe(method === 'GET' || method === 'HEAD' ? CDN_CACHE_CONTROL : null);
      }
      // The random mix reaches every kind of answer.
      for (const status of [200, 400, 404, 405]) expect(statuses.get(status) ?? 0, `answers with status ${status}`).toBeGreaterThan(20);
      expect(computed, 'computed ranges').toBeGreaterThan(300);
      expect(files, 'pre-rendered answers').toBeGreaterThan(300);
    });

    it('answers a repeated request with 304 when its ETag matches', async () => {
      for (const path of ['/api/v1/entries?start=1661-03-04&end=1667-01-01&page=2', '/api/v1/entries/1660-01-01', '/api/v1/topics']) {
        const first = await handle(new Request(site.origin + path), site.index, site.readFile);
        const etag = first.headers.get('etag') as string;
        expect(etag, path).toBeTruthy();
        const again = await handle(new Request(site.origin + path, { headers: { 'If-None-Match': etag } }), site.index, site.readFile);
        expect(again.status, path).toBe(304);
        expect(await again.text()).toBe('');
        for (const h of CONTRACT_HEADERS) expect(again.headers.get(h)).toBe(first.headers.get(h));
      }
    });
  });
}

describe('edge handler: the site index', () => {
  it('is loaded once, and loaded again after a failure', async () => {
    const site = await startSite(50);
    try {
      const text = readFileSync(join(site.publicDir, '_data', 'site-index.json'), 'utf8');
      const load = indexLoader();
      let calls = 0;
      const failing = async () => {
        calls++;
        return new Response('no', { status: 503 });
      };
      await expect(load(failing)).rejects.toThrow(/HTTP 503/);
      const working = async () => {
        calls++;
        return new Response(text);
      };
      const [a, b] = await Promise.all([load(working), load(working)]);
      expect(a).toBe(b);
      expect(await load(working)).toBe(a);
      expect(calls).toBe(2);
      expect(a.entryDates).toEqual(site.index.entryDates);
    } finally {
      await site.stop();
    }
  });

  it('answers 404 Not found when the index names a file the site lacks', async () => {
    const site = await startSite(50);
    try {
      const res = await handle(new Request(`${site.origin}/api/v1/entries/1660-01-01`), site.index, async () => new Response('', { status: 404 }));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not found.', status_code: 404 });
    } finally {
      await site.stop();
    }
  });
});
