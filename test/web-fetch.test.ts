// deploy/web.ts createFetch: the one fetch handler the edge adapters are thin wrappers over
// (issue 33, deliverable 4). The adapters' own suites (netlify-edge, cloudflare-worker and the
// heavy ones) check its answers; this checks the 503s it gives when it cannot answer.

import { describe, expect, it } from 'vitest';
import { NO_STORE } from '../generator/core/headers.ts';
import { createFetch } from '../generator/deploy/web.ts';

const request = () => new Request('https://example.org/api/v1/entries');

describe('createFetch', () => {
  it('answers the 503 naming why there is no index, and tries to load it again the next time', async () => {
    let loads = 0;
    const fetch = createFetch<null>({
      loadIndex: () => {
        loads++;
        return { ok: false, error: 'its site index is broken' };
      },
      readFile: async () => null,
      headers: () => ({ 'X-Runtime': 'test' }),
    });
    for (let i = 1; i <= 2; i++) {
      const res = await fetch(request(), null);
      expect(res.status).toBe(503);
      expect(res.headers.get('cache-control')).toBe(NO_STORE);
      expect(res.headers.get('x-runtime')).toBe('test');
      expect(await res.json()).toEqual({
        detail: 'The API is unavailable: its site index is broken.',
        status_code: 503,
      });
      expect(loads).toBe(i);
    }
  });

  it('answers an unexpected error with the 503 its adapter words, never a throw', async () => {
    const thrower = (): never => {
      throw new Error('the binding failed');
    };
    const plain = await createFetch<null>({ loadIndex: thrower, readFile: async () => null })(request(), null);
    expect(((await plain.json()) as { detail: string }).detail).toBe('The API is unavailable: the binding failed.');
    const worded = await createFetch<null>({
      loadIndex: thrower,
      readFile: async () => null,
      failure: () => 'an unexpected error occurred',
    })(request(), null);
    expect(worded.status).toBe(503);
    expect(((await worded.json()) as { detail: string }).detail).toBe(
      'The API is unavailable: an unexpected error occurred.',
    );
  });
});
