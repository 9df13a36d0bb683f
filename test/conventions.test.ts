// What a user of Django REST Framework tries first: `?format=json` and `?format=api`, and `/`
// leading to the API's root. Through the local server on loopback.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_ACCEPT } from './contract/suite.ts';
import { type LocalSite, sampleSite } from './helpers/local-server.ts';

let site: LocalSite;
beforeAll(async () => {
  site = sampleSite();
});
afterAll(() => site.stop());

const get = (path: string, accept?: string, method = 'GET') =>
  fetch(`${site.origin}${path}`, {
    method,
    redirect: 'manual',
    headers: accept === undefined ? {} : { accept },
  });

describe('DRF conventions', () => {
  it('?format=json answers a browser with the JSON, byte for byte', async () => {
    for (const path of ['/api/v1', '/api/v1/entries', '/api/v1/entries/1660-01-01', '/api/v1/topics?page=2']) {
      const plain = await get(path);
      const json = await get(`${path}${path.includes('?') ? '&' : '?'}format=json`, BROWSER_ACCEPT);
      expect(json.headers.get('content-type'), path).toBe('application/json');
      expect(await json.text(), path).toBe(await plain.text());
    }
  });

  it('?format=api answers any client with the HTML view; a .json path stays JSON', async () => {
    const html = await get('/api/v1/entries?format=api', 'application/json');
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await html.text()).toMatch(/^<!doctype html>/);
    const suffixed = await get('/api/v1/entries.json?format=api', BROWSER_ACCEPT);
    expect(suffixed.headers.get('content-type')).toBe('application/json');
  });

  it('an empty format is absent; any other format is a 404, as DRF answers it', async () => {
    expect(await (await get('/api/v1/entries?format=')).text()).toBe(await (await get('/api/v1/entries')).text());
    for (const format of ['xml', 'JSON', 'csv']) {
      const res = await get(`/api/v1/entries?format=${format}`);
      expect(res.status, format).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not found.', status_code: 404 });
    }
  });

  it('/ redirects to /api/v1 on the same origin; other methods get a 405', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await get('/', undefined, method);
      expect(res.status, method).toBe(302);
      expect(res.headers.get('location'), method).toBe('/api/v1');
      expect(await res.text()).toBe('');
    }
    const followed = await fetch(`${site.origin}/`);
    expect(followed.url).toBe(`${site.origin}/api/v1`);
    expect(Object.keys((await followed.json()) as object)).toEqual(['categories', 'entries', 'topics']);
    const post = await get('/', undefined, 'POST');
    expect(post.status).toBe(405);
    expect(((await post.json()) as { detail: string }).detail).toBe('Method "POST" not allowed.');
  });
});
