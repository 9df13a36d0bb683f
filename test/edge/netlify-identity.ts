// Netlify's edge function against the local server, byte for byte, on random requests over one
// build of the sample at a page size: the everyday suite at the sample's own (test/netlify-edge.test.ts,
// 1,200 requests over the run's shared build), the heavy suite at 7 a page (many pages;
// test/heavy/netlify-edge-pages.test.ts, 600 more over a build of its own). The same function
// runs in Deno in test/heavy/netlify-deno.test.ts.

import { readFileSync, symlinkSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../../generator/core/random.ts';
import { CDN_CACHE_CONTROL, NETLIFY_VARY } from '../../generator/deploy/netlify/cache.ts';
import type { EdgeFunction, NetlifyContext } from '../../generator/deploy/netlify/edge.ts';
import { writeNetlifyFunction } from '../../generator/deploy/netlify/generate.ts';
import { BROWSER_ACCEPT } from '../contract/suite.ts';
import { knownRecords } from '../helpers/files.ts';
import { type LocalSite, sampleSite, startLocalSite } from '../helpers/local-server.ts';
import { tempDir } from '../helpers/temp.ts';
import { CONTRACT_HEADER_NAMES, type Known, randomRequests } from './requests.ts';

const REPO = join(import.meta.dirname, '..', '..');
const CONTENT = join(REPO, 'content');

/** Netlify's context.next(), played by the built files; it records what it serves. */
export function filesOf(publicDir: string): NetlifyContext & { served: string[] } {
  const served: string[] = [];
  return {
    served,
    next: async (request: Request) => {
      const { pathname } = new URL(request.url);
      served.push(pathname);
      try {
        return new Response(readFileSync(join(publicDir, normalize(decodeURIComponent(pathname)))));
      } catch {
        return new Response('Not Found', { status: 404 });
      }
    },
  };
}

/** A project whose generator/ is this repository's, with the function generated for `publicDir`. */
async function generatedFunction(publicDir: string): Promise<EdgeFunction> {
  const project = tempDir('pepys-netlify-project-');
  symlinkSync(join(REPO, 'generator'), join(project, 'generator'));
  const written = writeNetlifyFunction(publicDir, project);
  if (!written.ok) throw new Error(written.error);
  return ((await import(pathToFileURL(written.value.entry).href)) as { default: EdgeFunction }).default;
}

/**
 * The edge function answers `count` random requests (and repeated ones with their ETag) exactly
 * as the local server does, over the sample built at `pageSize` (50: the run's shared build).
 */
export function edgeEqualsLocalServer(pageSize: number, count: number): void {
  describe(`Netlify edge function = local server, byte for byte (page size ${pageSize})`, () => {
    let site: LocalSite;
    let api: EdgeFunction;
    let known: Known;
    beforeAll(async () => {
      site = pageSize === 50 ? sampleSite() : await startLocalSite(CONTENT, { pageSize });
      api = await generatedFunction(site.publicDir);
      known = knownRecords(site.publicDir);
    });
    afterAll(async () => {
      if (pageSize !== 50) await site?.stop();
    });

    it(`answers ${count.toLocaleString('en')} random requests exactly as the local server does, with Netlify-Vary on each`, async () => {
      const context = filesOf(site.publicDir);
      const rand = prng(1665 + pageSize);
      const statuses = new Map<number, number>();
      let kept = 0;
      const cases = randomRequests(count, known, 1660 + pageSize).map(({ method, path }) => {
        // Some requests carry what changes an answer: a browser's Accept, a CORS preflight. None
        // accepts a compressed answer: the local server's compression is its own layer, not the core's.
        const headers: Record<string, string> = { 'Accept-Encoding': 'identity' };
        const r = rand(12);
        if (r === 0) headers.Accept = BROWSER_ACCEPT;
        if (r === 1 && method === 'OPTIONS')
          Object.assign(headers, { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' });
        return { method, path, headers };
      });
      const check = async ({ method, path, headers }: (typeof cases)[number]) => {
        const label = `${method} ${path} ${JSON.stringify(headers)}`;
        const url = site.origin + path;
        const [expected, actual] = await Promise.all([
          fetch(url, { method, headers }),
          api(new Request(url, { method, headers }), context),
        ]);
        expect(actual.status, label).toBe(expected.status);
        statuses.set(actual.status, (statuses.get(actual.status) ?? 0) + 1);
        for (const h of CONTRACT_HEADER_NAMES)
          expect(actual.headers.get(h), `${label}: ${h}`).toBe(expected.headers.get(h));
        const [a, e] = [Buffer.from(await actual.arrayBuffer()), Buffer.from(await expected.arrayBuffer())];
        expect(a.equals(e), `${label}: body`).toBe(true);
        expect(actual.headers.get('netlify-vary'), label).toBe(NETLIFY_VARY);
        const cdn = actual.headers.get('netlify-cdn-cache-control');
        if (cdn !== null) {
          kept++;
          expect(cdn, label).toBe(CDN_CACHE_CONTROL);
          expect(
            method === 'GET' &&
              actual.status < 500 &&
              ['application/json', 'application/atom+xml', 'application/feed+json'].includes(
                actual.headers.get('content-type') ?? '',
              ),
            label,
          ).toBe(true);
        }
      };
      for (let i = 0; i < cases.length; i += 8) await Promise.all(cases.slice(i, i + 8).map(check));
      // The random mix reaches every kind of answer, and the CDN may keep most.
      for (const status of [200, 400, 404, 405])
        expect(statuses.get(status) ?? 0, `answers with status ${status}`).toBeGreaterThan(20);
      expect(kept).toBeGreaterThan(count / 3);
      // The index came with the function: only pre-rendered answers, and the data files of the
      // computed ones (the search index, the topic kinds), were read.
      expect(context.served.filter((p) => !/^\/(api\/v1\/.+\.(json|atom)|_data\/.+)$/.test(p))).toEqual([]);
    });

    it('answers a repeated request with 304 when its ETag matches, and the CDN keeps no 304', async () => {
      const context = filesOf(site.publicDir);
      for (const path of [
        '/api/v1/entries?start=1661-03-04&end=1667-01-01&page=2',
        '/api/v1/entries/1660-01-01',
        '/api/v1/topics',
      ]) {
        const first = await api(new Request(site.origin + path), context);
        const etag = first.headers.get('etag') as string;
        expect(etag, path).toMatch(/^"[0-9a-f]{16}"$/);
        expect(first.headers.get('netlify-cdn-cache-control'), path).toBe(CDN_CACHE_CONTROL);
        const again = await api(
          new Request(site.origin + path, { headers: { 'If-None-Match': `W/${etag}` } }),
          context,
        );
        expect(again.status, path).toBe(304);
        expect(await again.text()).toBe('');
        for (const h of CONTRACT_HEADER_NAMES) expect(again.headers.get(h)).toBe(first.headers.get(h));
        expect(again.headers.get('netlify-vary')).toBe(NETLIFY_VARY);
        expect(again.headers.get('netlify-cdn-cache-control')).toBeNull();
      }
    });
  });
}
