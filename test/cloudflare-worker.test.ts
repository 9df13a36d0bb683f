// The Cloudflare Worker run in-process (it is runtime-free), with its static-assets binding played
// by the built files: how it loads the site index (once, never a failure kept), what it answers
// when it cannot, and its answers byte for byte against the local server. The same Worker runs in
// workerd itself in test/heavy/cloudflare-*.test.ts when the Cloudflare tools are installed.

import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DOWNLOAD_PATHS, SITE_INDEX_FILE } from '../generator/core/files.ts';
import { NO_STORE } from '../generator/core/headers.ts';
import type { AssetsBinding, Env } from '../generator/deploy/cloudflare/worker.ts';
import { CONTRACT_HEADER_NAMES, randomRequests } from './edge/requests.ts';
import { knownRecords, packPath, readServed } from './helpers/files.ts';
import { type LocalSite, startLocalSite } from './helpers/local-server.ts';

const CONTENT = join(import.meta.dirname, '..', 'content');

type Worker = { fetch(request: Request, env: Env): Promise<Response> };

/** A fresh isolate: the Worker keeps the index it loads in its module. */
async function freshWorker(): Promise<Worker> {
  vi.resetModules();
  return (await import('../generator/deploy/cloudflare/worker.ts')).default;
}

/** env.ASSETS played by a build's files, with every path asked for recorded. */
function assetsOf(
  publicDir: string,
  override: (path: string) => Response | null = () => null,
): AssetsBinding & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    fetch: async (input: string) => {
      // The Worker must send a plain URL, never the client's request and its headers.
      expect(typeof input).toBe('string');
      const path = decodeURIComponent(new URL(input).pathname);
      asked.push(path);
      const special = override(path);
      if (special !== null) return special;
      try {
        return new Response(readFileSync(join(publicDir, normalize(path))));
      } catch {
        return new Response('Not Found', { status: 404 });
      }
    },
  };
}

describe('Cloudflare Worker (in-process)', () => {
  let site: LocalSite;
  beforeAll(async () => {
    site = await startLocalSite(CONTENT, { pageSize: 7 });
  });
  afterAll(async () => {
    await site.stop();
  });

  it('reads the site index once per isolate, and each answer file by its exact path', async () => {
    const worker = await freshWorker();
    const assets = assetsOf(site.publicDir);
    for (const path of [
      '/api/v1',
      '/api/v1/entries/1660-01-01',
      '/api/v1/entries?start=1661-01-01',
      '/api/v1/topics',
    ]) {
      const res = await worker.fetch(
        new Request(site.origin + path, { headers: { 'If-None-Match': '"x"', Range: 'bytes=0-1' } }),
        { ASSETS: assets },
      );
      expect(res.status, path).toBe(200);
    }
    expect(assets.asked).toEqual([
      `/${SITE_INDEX_FILE}`,
      '/api/v1/index.json',
      // The entry's detail, out of its pack (core/packs.ts).
      `/${packPath(site.publicDir, 'entries', '1660-01-01')}`,
      '/api/v1/topics/pages/1.json',
    ]);
  });

  it('answers 503 (no-store) while the index cannot be loaded, and loads it on the next request once it can', async () => {
    const worker = await freshWorker();
    let state: 'missing' | 'failing' | 'truncated' | 'fine' = 'missing';
    const assets = assetsOf(site.publicDir, (path) => {
      if (path !== `/${SITE_INDEX_FILE}`) return null;
      if (state === 'missing') return new Response('Not Found', { status: 404 });
      if (state === 'failing') return new Response('', { status: 500 });
      if (state === 'truncated') return new Response('{"version":1,"entr');
      return null;
    });
    const details: Record<string, RegExp> = {
      missing: /^The API is unavailable: the site index _data\/site-index\.json is not among the deployed assets\.$/,
      failing: /^The API is unavailable: the static assets answered 500 for _data\/site-index\.json\.$/,
      truncated: /^The API is unavailable: the site index _data\/site-index\.json is broken: not valid JSON/,
    };
    for (const s of ['missing', 'failing', 'truncated'] as const) {
      state = s;
      const res = await worker.fetch(new Request(`${site.origin}/api/v1/entries/1660-01-01`), { ASSETS: assets });
      expect(res.status, s).toBe(503);
      expect(res.headers.get('cache-control'), s).toBe(NO_STORE);
      expect(res.headers.get('allow'), s).toBe('GET, HEAD, OPTIONS');
      const body = (await res.json()) as { detail: string; status_code: number };
      expect(body.status_code).toBe(503);
      expect(body.detail, s).toMatch(details[s] as RegExp);
    }
    state = 'fine';
    const res = await worker.fetch(new Request(`${site.origin}/api/v1/entries/1660-01-01`), { ASSETS: assets });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(readServed(site.publicDir, 'api/v1/entries/1660-01-01.json') as string);
  });

  it('answers 503 (no-store) when the static assets fail on an answer file, and the 503 of an incomplete build when one is missing', async () => {
    const worker = await freshWorker();
    // The packs of two entries (core/packs.ts): one fails, the other is missing.
    const failed = packPath(site.publicDir, 'entries', '1660-01-01');
    const { dates } = knownRecords(site.publicDir);
    const other = dates.find((date) => packPath(site.publicDir, 'entries', date) !== failed) as string;
    const fine = dates.find(
      (date) =>
        ![failed, packPath(site.publicDir, 'entries', other)].includes(packPath(site.publicDir, 'entries', date)),
    ) as string;
    const assets = assetsOf(site.publicDir, (path) => {
      if (path === `/${failed}`) return new Response('', { status: 502 });
      if (path === `/${packPath(site.publicDir, 'entries', other)}`) return new Response('Not Found', { status: 404 });
      return null;
    });
    const failing = await worker.fetch(new Request(`${site.origin}/api/v1/entries/1660-01-01`), { ASSETS: assets });
    expect(failing.status).toBe(503);
    expect(failing.headers.get('cache-control')).toBe(NO_STORE);
    expect(((await failing.json()) as { detail: string }).detail).toBe(
      `The API is unavailable: the static assets answered 502 for ${failed}.`,
    );
    const missing = await worker.fetch(new Request(`${site.origin}/api/v1/entries/${other}`), { ASSETS: assets });
    expect(missing.status).toBe(503);
    expect(((await missing.json()) as { detail: string }).detail).toContain(`lacks api/v1/entries/${other}.json`);
    // The index stays loaded: other answers go on.
    expect((await worker.fetch(new Request(`${site.origin}/api/v1/entries/${fine}`), { ASSETS: assets })).status).toBe(
      200,
    );
  });

  it('answers 500 random requests exactly as the local server does', async () => {
    const worker = await freshWorker();
    const assets = assetsOf(site.publicDir);
    const known = knownRecords(site.publicDir);
    for (const { method, path } of randomRequests(500, known, 1667)) {
      const label = `${method} ${path}`;
      const url = site.origin + path;
      // The identity representation: the local server compresses by itself when the client accepts it.
      const expected = await fetch(url, { method, headers: { 'Accept-Encoding': 'identity' } });
      const actual = await worker.fetch(new Request(url, { method }), { ASSETS: assets });
      expect(actual.status, label).toBe(expected.status);
      for (const h of CONTRACT_HEADER_NAMES)
        expect(actual.headers.get(h), `${label} ${h}`).toBe(expected.headers.get(h));
      const [a, e] = [Buffer.from(await actual.arrayBuffer()), Buffer.from(await expected.arrayBuffer())];
      expect(a.equals(e), `${label}: body`).toBe(true);
    }
  });
});

describe('wrangler.jsonc', () => {
  it('sends every request under /api to the Worker but the downloads, which the asset layer serves', () => {
    const text = readFileSync(join(import.meta.dirname, '..', 'wrangler.jsonc'), 'utf8');
    const config = JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as { assets: { run_worker_first: string[] } };
    expect(config.assets.run_worker_first).toEqual(['/api', '/api/*', ...DOWNLOAD_PATHS.map((p) => `!${p}`)]);
  });
});
