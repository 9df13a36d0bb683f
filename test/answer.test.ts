// The request → answer mapping, for the cases docs/api-decisions.md settles.

import { describe, expect, it } from 'vitest';
import { answer } from '../generator/core/answer.ts';
import type { Answer } from '../generator/core/answer-types.ts';
import { listQuery } from '../generator/core/lists.ts';
import { loadSiteIndex, type SiteIndex } from '../generator/core/site-index.ts';

const loaded = loadSiteIndex({
  version: 4,
  buildId: 'b1',
  apiOrigin: 'https://api.test',
  siteOrigin: 'https://site.test',
  pageSize: 50,
  period: { start: '1660-01-01', end: '1669-05-31' },
  categories: ['people'],
  topics: [7, 12],
  entries: Array.from({ length: 120 }, (_, i) => {
    const date = new Date(Date.UTC(1660, 0, 1 + i)).toISOString().slice(0, 10);
    return [date, `Title ${i}`, '2026-01-01T00:00:00Z'] as [string, string, string];
  }),
});
if (!loaded.ok) throw new Error(loaded.error);
const site: SiteIndex = loaded.value;
const get = (path: string, method = 'GET'): Answer => {
  const [pathname, search = ''] = path.split('?');
  return answer(method, pathname as string, listQuery(new URLSearchParams(search)), site);
};
const status = (a: Answer) => (a.kind === 'file' ? 200 : a.kind === 'body' ? a.status : Number.NaN);

describe('answer', () => {
  it('maps pre-rendered requests onto their files, however the query is written', () => {
    expect(get('/api/v1')).toEqual({ kind: 'file', file: 'api/v1/index.json' });
    expect(get('/api/v1.json')).toEqual({ kind: 'file', file: 'api/v1/index.json' });
    expect(get('/api/v1/entries?page=02&foo=1')).toEqual({ kind: 'file', file: 'api/v1/entries/pages/2.json' });
    expect(get('/api/v1/entries.json?page=last')).toEqual({ kind: 'file', file: 'api/v1/entries/pages/3.json' });
    expect(get('/api/v1/entries?end=1660-12-31&start=1660-01-01&page=2')).toEqual({
      kind: 'file',
      file: 'api/v1/entries/years/1660/pages/2.json',
    });
    expect(get('/api/v1/entries?start=1660-02-01&end=1660-02-29')).toEqual({
      kind: 'file',
      file: 'api/v1/entries/months/1660-02/pages/1.json',
    });
    expect(get('/api/v1/entries?start=&end=')).toEqual({ kind: 'file', file: 'api/v1/entries/pages/1.json' });
    expect(get('/api/v1/topics/007')).toEqual({ kind: 'file', file: 'api/v1/topics/7.json' });
    expect(get('/api/v1/categories/people.json')).toEqual({ kind: 'file', file: 'api/v1/categories/people.json' });
  });

  it('renders other ranges', () => {
    const a = get('/api/v1/entries?start=1660-01-05&page=2');
    const b = get('/api/v1/entries?page=2&start=1660-01-05&x=y');
    expect(a.kind).toBe('body');
    if (a.kind !== 'body' || b.kind !== 'body') return;
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toMatchObject({ totalResults: 116, totalPages: 3 });
    expect(a.body).toBe(b.body);
  });

  it('answers the schema, and refuses dot segments as the unknown paths they are', () => {
    expect(get('/api/v1/schema')).toEqual({ kind: 'file', file: 'api/v1/schema.json' });
    expect(get('/api/v1/schema.json')).toEqual({ kind: 'file', file: 'api/v1/schema.json' });
    for (const path of [
      '/api/v1/categories/..',
      '/api/v1/categories/%2e%2e',
      '/api/v1/./entries',
      '/api/v1/entries/../topics',
      '/api/v1/topics/.',
    ]) {
      expect(status(get(path)), path).toBe(404);
    }
  });

  it('takes the last of repeated parameters', () => {
    expect(get('/api/v1/entries?page=1&page=3')).toEqual({ kind: 'file', file: 'api/v1/entries/pages/3.json' });
    expect(status(get('/api/v1/entries?start=1660-13-01&start=1660-01-01'))).toBe(200);
  });

  it('resolves the path before the method, and checks dates before pages', () => {
    expect(status(get('/api/v1/nowhere', 'POST'))).toBe(404);
    expect(status(get('/api/v1/entries', 'POST'))).toBe(405);
    expect(status(get('/api/v1/entries/', 'GET'))).toBe(404);
    expect(status(get('/api/v1/entries?start=bad&end=worse&page=0'))).toBe(400);
    const both = get('/api/v1/entries?start=bad&end=worse');
    expect(both.kind === 'body' && JSON.parse(both.body).detail).toMatch(/"start"/);
    const options = get('/api/v1/topics/3', 'OPTIONS');
    expect(options.kind === 'body' && options.status).toBe(200);
    expect(options.kind === 'body' && JSON.parse(options.body)).toEqual({
      name: 'Topic Instance',
      description: 'One topic.',
      renders: ['application/json', 'text/html'],
      parses: [],
      parameters: ['format'],
    });
  });

  it('tells unknown records from malformed keys', () => {
    const detail = (path: string) => {
      const a = get(path);
      return a.kind === 'body' ? (JSON.parse(a.body) as { detail: string }).detail : a.kind === 'file' ? a.file : '';
    };
    expect(detail('/api/v1/entries/1661-01-01')).toBe('No Entry matches the given query.');
    expect(detail('/api/v1/entries/1661-02-29')).toBe('Not found.');
    expect(detail('/api/v1/categories/nobody')).toBe('No Category matches the given query.');
    expect(detail('/api/v1/categories/no.body')).toBe('Not found.');
    expect(detail('/api/v1/topics/8')).toBe('No Topic matches the given query.');
    expect(detail('/api/v1/topics/-8')).toBe('Not found.');
  });
});

describe('the site index', () => {
  const file = { version: 4, buildId: 'x', apiOrigin: 'https://a.test', siteOrigin: 'https://s.test', pageSize: 5 };
  const lists = { categories: [], topics: [], entries: [['1914-08-02', 'T', '2026-01-01T00:00:00Z']] };

  it("takes an index without a period (a build from before it was written) as the Pepys diary's", () => {
    const old = loadSiteIndex({ ...file, ...lists });
    expect(old.ok && old.value.period).toEqual({ start: '1660-01-01', end: '1669-05-31' });
    const own = loadSiteIndex({ ...file, ...lists, period: { start: '1914-08-01', end: '1918-11-11' } });
    expect(own.ok && own.value.period).toEqual({ start: '1914-08-01', end: '1918-11-11' });
  });

  it('refuses a period that is not two dates', () => {
    for (const period of [null, 'x', { start: '1914-08-01' }, { start: '1914-13-01', end: '1918-11-11' }]) {
      const r = loadSiteIndex({ ...file, ...lists, period });
      expect(r.ok ? 'loaded' : r.error, JSON.stringify(period)).toBe('"period" is not { start, end } of two dates');
    }
  });
});
