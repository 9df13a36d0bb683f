// core/dispatch.ts: the one dispatch the edge's createFetch (test/web-fetch.test.ts) and the local
// server run (issue 33, deliverable 4): the site an adapter gives, or the 503 of why there is none
// (its own error, or the API unavailable), and an unexpected error answered as the adapter says.
// Then the local server over it: a read that fails unexpectedly is its logged 500, never kept.

import { copyFileSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatch } from '../generator/core/dispatch.ts';
import { SITE_INDEX_FILE } from '../generator/core/files.ts';
import type { ApiRequest } from '../generator/core/handler.ts';
import { NO_STORE } from '../generator/core/headers.ts';
import { fail } from '../generator/core/result.ts';
import { createApiServer } from '../generator/server/server.ts';
import { sampleSite } from './helpers/local-server.ts';
import { tempDir } from './helpers/temp.ts';

const request: ApiRequest = { method: 'GET', path: '/api/v1/entries/', query: '', header: () => null };
const json = (body: Uint8Array) => JSON.parse(new TextDecoder().decode(body)) as unknown;

describe('createDispatch', () => {
  it("answers an adapter's own error as it is, a reason as the API unavailable, both 503s kept nowhere", async () => {
    const own = await createDispatch<null>({ site: () => fail({ status: 503, detail: 'No built site.' }) })(
      request,
      null,
    );
    expect([own.status, own.headers['Cache-Control'], json(own.body)]).toEqual([
      503,
      NO_STORE,
      { detail: 'No built site.', status_code: 503 },
    ]);
    const reason = await createDispatch<null>({ site: async () => fail('its index is gone') })(request, null);
    expect(json(reason.body)).toEqual({ detail: 'The API is unavailable: its index is gone.', status_code: 503 });
  });

  it('answers an unexpected error as its failure says, given the request and the context', async () => {
    const seen: unknown[] = [];
    const dispatch = createDispatch<string>({
      site: () => {
        throw new Error('the disk failed');
      },
      failure: (err, r, context) => {
        seen.push((err as Error).message, r.path, context);
        return { status: 500, detail: 'Server error.' };
      },
    });
    const r = await dispatch(request, 'the context');
    expect([r.status, json(r.body)]).toEqual([500, { detail: 'Server error.', status_code: 500 }]);
    expect(seen).toEqual(['the disk failed', '/api/v1/entries/', 'the context']);
  });
});

describe('the local server over the dispatch', () => {
  it('answers a read that fails unexpectedly with its 500, logs it, and keeps nothing', async () => {
    const dir = tempDir('pepys-dispatch-');
    mkdirSync(join(dir, '_data'));
    copyFileSync(join(sampleSite().publicDir, SITE_INDEX_FILE), join(dir, SITE_INDEX_FILE));
    // The root's file a link to itself: opening it fails with ELOOP, not as a file that is missing.
    mkdirSync(join(dir, 'api', 'v1'), { recursive: true });
    const file = join(dir, 'api', 'v1', 'index.json');
    symlinkSync('index.json', file);
    const logged: string[] = [];
    const server: Server = createApiServer({ publicDir: dir, log: (line) => logged.push(line) });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const res = await fetch(`${origin}/api/v1/?page=1`);
      expect([res.status, res.headers.get('cache-control'), await res.json()]).toEqual([
        500,
        NO_STORE,
        { detail: 'Server error.', status_code: 500 },
      ]);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(/^error answering GET \/api\/v1\/\?page=1: ELOOP/);
      // Not kept: the same request once the file is there is answered from it.
      rmSync(file);
      copyFileSync(join(sampleSite().publicDir, 'api', 'v1', 'index.json'), file);
      expect((await fetch(`${origin}/api/v1/?page=1`)).status).toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
