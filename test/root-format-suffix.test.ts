// `/api/v1/.json`: the root's `/api/v1/` spelling with the format suffix, which every other path
// takes (`/api/v1/entries/` is no path, but `/api/v1/entries.json` is). Answered as the root on the
// local server and by the Cloudflare Worker, whose route (like the Netlify function's) is all of
// `/api/*`; GET, HEAD and OPTIONS alike.

import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Env } from '../generator/deploy/cloudflare/worker.ts';
import { FUNCTION_CONFIG } from '../generator/deploy/netlify/generate.ts';
import { type LocalSite, sampleSite } from './helpers/local-server.ts';

const METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function seen(res: Response): Promise<Seen> {
  const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== 'date' && name !== 'keep-alive'));
  return { status: res.status, headers, body: await res.text() };
}

describe('/api/v1/.json', () => {
  let site: LocalSite;
  beforeAll(async () => {
    site = sampleSite();
  });
  afterAll(() => site.stop());

  it('is the root, and no other dot spelling is', async () => {
    expect((await fetch(`${site.origin}/api/v1/.json`)).status).toBe(200);
    for (const path of ['/api/v1/..json', '/api/v1//.json', '/api/v1/.json/', '/api/v1/entries/.json'])
      expect((await fetch(`${site.origin}${path}`)).status, path).toBe(404);
  });

  it('answers as /api/v1.json on the local server: GET, HEAD and OPTIONS', async () => {
    for (const method of METHODS) {
      const root = await seen(await fetch(`${site.origin}/api/v1.json`, { method }));
      const suffixed = await seen(await fetch(`${site.origin}/api/v1/.json`, { method }));
      expect(root.status, method).toBe(200);
      expect(suffixed, method).toEqual(root);
    }
    // A browser asking for HTML still gets JSON: the suffix wins, as on every other path.
    const html = await fetch(`${site.origin}/api/v1/.json`, { headers: { accept: 'text/html' } });
    expect(html.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers as /api/v1.json from the Cloudflare Worker, whose route (and Netlify’s) covers it', async () => {
    const routes = (
      JSON.parse(
        readFileSync(join(import.meta.dirname, '..', 'wrangler.jsonc'), 'utf8').replace(/^\s*\/\/.*$/gm, ''),
      ) as {
        assets: { run_worker_first: string[] };
      }
    ).assets.run_worker_first;
    expect(routes).toContain('/api/*');
    expect(FUNCTION_CONFIG.path).toContain('/api/*');
    vi.resetModules();
    const worker = (await import('../generator/deploy/cloudflare/worker.ts')).default as {
      fetch(request: Request, env: Env): Promise<Response>;
    };
    const env: Env = {
      ASSETS: {
        fetch: async (input: string) => {
          try {
            return new Response(
              readFileSync(join(site.publicDir, normalize(decodeURIComponent(new URL(input).pathname)))),
            );
          } catch {
            return new Response('Not Found', { status: 404 });
          }
        },
      },
    };
    for (const method of METHODS) {
      const root = await seen(await worker.fetch(new Request(`${site.origin}/api/v1.json`, { method }), env));
      const suffixed = await seen(await worker.fetch(new Request(`${site.origin}/api/v1/.json`, { method }), env));
      expect(root.status, method).toBe(200);
      expect(suffixed, method).toEqual(root);
    }
  });
});
