// The HTTP contract of ../shared/API.md, end to end, against any server: the local server
// (test/http-local.test.ts) and Netlify's emulation (test/netlify-emulation.test.ts) run it alike.

import { afterAll, beforeAll, describe, expect, it as vitestIt } from 'vitest';
import { prng } from '../helpers/random.ts';

export interface ContractTarget {
  /** Origin the site was built for and is served from, e.g. http://127.0.0.1:8888 */
  origin: string;
}

export interface ContractOptions {
  /** Starts the server; resolves when it answers. */
  start: () => Promise<ContractTarget>;
  stop: () => Promise<void>;
  /** Number of random ranges checked against the brute-force filter. */
  randomRanges?: number;
  /** Per-test time limit in ms (a full-scale crawl needs more than the default). */
  timeout?: number;
  /** Defines more tests in the same suite, against the same running server. */
  extra?: (get: (path: string, init?: RequestInit) => Promise<Response>) => void;
  /**
   * Tokens that the serving platform adds to Vary by itself, ignored when Vary is compared: the
   * contract's tokens must all be there, in order, and nothing else. Deno's HTTP server, which
   * serves Netlify edge functions, adds Accept-Encoding to every response with a body.
   */
  varyAdded?: string[];
}

/** A Vary value without the tokens in `added`. */
function varyWithout(value: string | null, added: readonly string[]): string | null {
  if (value === null || added.length === 0) return value;
  const drop = new Set(added.map((t) => t.toLowerCase()));
  return value.split(',').map((t) => t.trim()).filter((t) => t !== '' && !drop.has(t.toLowerCase())).join(', ');
}

interface Envelope<T> {
  totalResults: number;
  totalPages: number;
  nextPageURL: string | null;
  previousPageURL: string | null;
  results: T[];
}
type Json = Record<string, unknown>;

const CONTRACT_HEADERS = {
  'content-type': 'application/json',
  allow: 'GET, HEAD, OPTIONS',
  vary: 'Cookie, Accept',
};

export function defineContractTests(name: string, options: ContractOptions): void {
  const vary = (value: string | null) => varyWithout(value, options.varyAdded ?? []);
  describe(`API contract: ${name}`, () => {
    let origin = '';
    const api = () => `${origin}/api/v1`;
    const get = (path: string, init?: RequestInit) => fetch(path.startsWith('http') ? path : origin + path, init);
    const getJson = async <T = Json>(path: string): Promise<T> => {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      return (await res.json()) as T;
    };
    async function allPages<T>(first: string): Promise<{ pages: Envelope<T>[]; results: T[] }> {
      const pages: Envelope<T>[] = [];
      for (let url: string | null = first; url !== null; ) {
        const page: Envelope<T> = await getJson<Envelope<T>>(url);
        pages.push(page);
        url = page.nextPageURL;
      }
      return { pages, results: pages.flatMap((p) => p.results) };
    }

    // Everything reachable from the root, collected once.
    let entries: Json[] = [];
    let categories: Json[] = [];
    let topics: Json[] = [];
    const details = new Map<string, Json>();

    beforeAll(async () => {
      ({ origin } = await options.start());
      entries = (await allPages<Json>(`${api()}/entries`)).results;
      categories = (await allPages<Json>(`${api()}/categories`)).results;
      topics = (await allPages<Json>(`${api()}/topics`)).results;
      for (const item of [...entries, ...categories, ...topics]) {
        const url = item.apiURL as string;
        details.set(url, await getJson(url));
      }
    });
    afterAll(async () => {
      await options.stop();
    });
    const it = (name: string, fn: () => unknown) => vitestIt(name, fn, options.timeout);
    options.extra?.(get);

    it('answers the root at /api/v1, /api/v1/ and /api/v1.json', async () => {
      for (const path of ['/api/v1', '/api/v1/', '/api/v1.json']) {
        const res = await get(path);
        expect(res.status, path).toBe(200);
        expect(await res.text(), path).toBe(
          JSON.stringify({ categories: `${api()}/categories`, entries: `${api()}/entries`, topics: `${api()}/topics` }, null, 2),
        );
      }
    });

    it('has a sample with content on both sides of every relation', () => {
      expect(entries.length).toBeGreaterThan(0);
      expect(categories.length).toBeGreaterThan(0);
      expect(topics.length).toBeGreaterThan(0);
    });

    it('puts the contract headers on every answer, whatever its status, and an ETag on successes', async () => {
      const firstEntry = entries[0]?.date as string;
      const cases: Array<[string, string, number]> = [
        ['GET', '/api/v1', 200],
        ['GET', '/api/v1/entries', 200],
        ['GET', '/api/v1/entries?page=last', 200],
        ['GET', '/api/v1/entries?start=1660-01-01&end=1660-12-31', 200],
        ['GET', '/api/v1/entries?start=1660-01-02&end=1666-09-02&page=1', 200],
        ['GET', `/api/v1/entries/${firstEntry}`, 200],
        ['GET', `/api/v1/entries/${firstEntry}.json`, 200],
        ['GET', `/api/v1/categories/${categories[0]?.slug as string}`, 200],
        ['GET', `/api/v1/topics/${topics[0]?.id as number}`, 200],
        ['GET', '/api/v1/entries?start=1661-13-01', 400],
        ['GET', '/api/v1/entries?page=0', 404],
        ['GET', '/api/v1/entries/1669-06-01', 404],
        ['GET', '/api/v1/entries/1660-02-30', 404],
        ['GET', '/api/v1/topics/abc', 404],
        ['GET', '/api/v1/nothing-here', 404],
        ['POST', '/api/v1/entries', 405],
        ['DELETE', `/api/v1/entries/${firstEntry}`, 405],
        ['PUT', '/api/v1/topics', 405],
        ['OPTIONS', '/api/v1/entries', 200],
        ['OPTIONS', `/api/v1/entries/${firstEntry}`, 200],
        ['HEAD', '/api/v1/entries?start=1661-01-01', 200],
        ['HEAD', '/api/v1/entries/1669-06-01', 404],
      ];
      for (const [method, path, status] of cases) {
        const res = await get(path, { method });
        const label = `${method} ${path}`;
        expect(res.status, label).toBe(status);
        for (const [header, value] of Object.entries(CONTRACT_HEADERS)) {
          const got = res.headers.get(header);
          expect(header === 'vary' ? vary(got) : got, `${label}: ${header}`).toBe(value);
        }
        const text = await res.text();
        if (method === 'GET' && status === 200) expect(res.headers.get('etag'), `${label}: etag`).toMatch(/^(W\/)?".+"$/);
        if (method === 'HEAD' || method === 'OPTIONS') expect(text, label).toBe('');
        if (status >= 400 && method !== 'HEAD') expect(JSON.parse(text), label).toMatchObject({ status_code: status });
      }
    });

    it('answers HEAD with the status and headers of GET and no body', async () => {
      for (const path of ['/api/v1/entries', '/api/v1/entries?start=1662-03-01&page=last', '/api/v1/topics/abc', `/api/v1/entries/${entries[0]?.date as string}`]) {
        const [g, h] = await Promise.all([get(path), get(path, { method: 'HEAD' })]);
        expect(h.status, path).toBe(g.status);
        for (const header of ['content-type', 'allow']) expect(h.headers.get(header), `${path} ${header}`).toBe(g.headers.get(header));
        expect(vary(h.headers.get('vary')), `${path} vary`).toBe(vary(g.headers.get('vary')));
        expect(await h.text()).toBe('');
      }
    });

    it('gives every error of API.md its status and message', async () => {
      const errors: Array<[string, string, number, string | RegExp]> = [
        ['GET', '/api/v1/entries/1669-06-01', 404, 'No Entry matches the given query.'],
        ['GET', '/api/v1/categories/no-such-category', 404, 'No Category matches the given query.'],
        ['GET', '/api/v1/topics/999999999', 404, 'No Topic matches the given query.'],
        ['GET', '/api/v1/entries/1660-02-30', 404, 'Not found.'],
        ['GET', '/api/v1/topics/abc', 404, 'Not found.'],
        ['GET', '/api/v1/categories/Not%20a%20slug', 404, 'Not found.'],
        ['GET', '/api/v1/elsewhere', 404, 'Not found.'],
        ['GET', '/api/v1/entries/1660-01-01/extra', 404, 'Not found.'],
        ['GET', '/api/v2/entries', 404, 'Not found.'],
        ['GET', '/api/v1/entries?page=0', 404, 'Invalid page.'],
        ['GET', '/api/v1/entries?page=-1', 404, 'Invalid page.'],
        ['GET', '/api/v1/entries?page=abc', 404, 'Invalid page.'],
        ['GET', '/api/v1/entries?page=100000', 404, 'Invalid page.'],
        ['GET', '/api/v1/categories?page=2.5', 404, 'Invalid page.'],
        ['GET', '/api/v1/topics?page=99999', 404, 'Invalid page.'],
        ['GET', '/api/v1/entries?start=1660-01-01&end=1660-12-31&page=999', 404, 'Invalid page.'],
        ['GET', '/api/v1/entries?start=1661-13-01', 400, /"start".*"1661-13-01".*YYYY-MM-DD/],
        ['GET', '/api/v1/entries?start=1661-02-30', 400, /"start".*"1661-02-30"/],
        ['GET', '/api/v1/entries?end=1661', 400, /"end".*"1661"/],
        ['GET', '/api/v1/entries?end=yesterday', 400, /"end".*"yesterday"/],
        ['GET', '/api/v1/entries?start=1661-01-01&end=1661-1-31', 400, /"end".*"1661-1-31"/],
        ['POST', '/api/v1/entries', 405, 'Method "POST" not allowed.'],
        ['PATCH', '/api/v1/categories', 405, 'Method "PATCH" not allowed.'],
        ['DELETE', '/api/v1', 405, 'Method "DELETE" not allowed.'],
      ];
      for (const [method, path, status, detail] of errors) {
        const res = await get(path, { method });
        const body = (await res.json()) as { detail: string; status_code: number };
        expect(res.status, `${method} ${path}`).toBe(status);
        expect(Object.keys(body)).toEqual(['detail', 'status_code']);
        expect(body.status_code).toBe(status);
        if (typeof detail === 'string') expect(body.detail, path).toBe(detail);
        else expect(body.detail, path).toMatch(detail);
      }
    });

    it('reaches every record from the root, with every link on this origin', async () => {
      const root = await getJson<Record<string, string>>('/api/v1');
      const seen = new Set<string>();
      const queue = Object.values(root);
      const fetched: Json[] = [];
      while (queue.length > 0) {
        const url = queue.shift() as string;
        if (seen.has(url)) continue;
        seen.add(url);
        expect(url.startsWith(`${api()}/`), url).toBe(true);
        const body = await getJson<Json>(url);
        fetched.push(body);
        const links = [body.nextPageURL, body.previousPageURL, body.apiURL, body.parents, body.children, body.topics, body.entries, body.categories]
          .flat()
          .filter((x): x is string => typeof x === 'string' && x.startsWith('http'));
        for (const r of (body.results as Json[] | undefined) ?? []) links.push(r.apiURL as string);
        for (const link of links) if (!seen.has(link)) queue.push(link);
      }
      const records = (kind: string) => [...seen].filter((u) => new RegExp(`/api/v1/${kind}/[^/?]+$`).test(u)).length;
      expect(records('entries')).toBe(entries.length);
      expect(records('categories')).toBe(categories.length);
      expect(records('topics')).toBe(topics.length);
      const firstPage = await getJson<Envelope<Json>>('/api/v1/entries');
      expect(firstPage.totalResults).toBe(entries.length);
    });

    it('lists records in key order with fields in contract order', () => {
      const sorted = <T>(xs: T[], cmp: (a: T, b: T) => number) => xs.slice(1).every((x, i) => cmp(xs[i] as T, x) < 0);
      expect(sorted(entries.map((e) => e.date as string), (a, b) => (a < b ? -1 : 1))).toBe(true);
      expect(sorted(categories.map((c) => c.slug as string), (a, b) => (a < b ? -1 : 1))).toBe(true);
      expect(sorted(topics.map((t) => t.id as number), (a, b) => a - b)).toBe(true);
      expect(Object.keys(entries[0] as Json)).toEqual(['date', 'title', 'lastModifiedTime', 'apiURL', 'webURL']);
      expect(Object.keys(categories[0] as Json)).toEqual(['slug', 'title', 'topicCount', 'depth', 'parents', 'children', 'apiURL', 'webURL']);
      expect(Object.keys(topics[0] as Json)).toEqual(['id', 'title', 'orderTitle', 'kind', 'lastModifiedTime', 'apiURL', 'webURL']);
      const entry = details.get(entries[0]?.apiURL as string) as Json;
      expect(Object.keys(entry)).toEqual(['date', 'title', 'entryHTML', 'footnotesHTML', 'annotationCount', 'lastAnnotationTime', 'topics', 'lastModifiedTime', 'apiURL', 'webURL']);
      const category = details.get(categories[0]?.apiURL as string) as Json;
      expect(Object.keys(category)).toEqual(['slug', 'title', 'topicCount', 'depth', 'parents', 'children', 'topics', 'apiURL', 'webURL']);
      const topic = details.get(topics[0]?.apiURL as string) as Json;
      expect(Object.keys(topic)).toEqual([
        'id', 'title', 'orderTitle', 'wheatleyHTML', 'tooltipText', 'wikipediaURL', 'thumbnailURL', 'annotationCount', 'lastAnnotationTime',
        'kind', 'latitude', 'longitude', 'zoom', 'shape', 'categories', 'entries', 'lastModifiedTime', 'apiURL', 'webURL',
      ]);
    });

    it('keeps every list item equal to the head of its detail record', () => {
      for (const item of [...entries, ...categories, ...topics]) {
        const detail = details.get(item.apiURL as string) as Json;
        for (const [k, v] of Object.entries(item)) expect(detail[k], `${item.apiURL as string} ${k}`).toEqual(v);
      }
    });

    it('agrees on cross-references both ways', () => {
      const entryTopics = new Set<string>();
      for (const e of entries) {
        const d = details.get(e.apiURL as string) as Json;
        for (const t of d.topics as string[]) {
          entryTopics.add(`${d.apiURL as string} ${t}`);
          expect((details.get(t) as Json).entries as string[], `${t} lists ${d.apiURL as string}`).toContain(d.apiURL);
        }
      }
      let topicEntryPairs = 0;
      const categoryTopics = new Set<string>();
      for (const t of topics) {
        const d = details.get(t.apiURL as string) as Json;
        for (const e of d.entries as string[]) {
          topicEntryPairs++;
          expect(entryTopics.has(`${e} ${d.apiURL as string}`), `${e} lists ${d.apiURL as string}`).toBe(true);
        }
        for (const c of d.categories as string[]) {
          categoryTopics.add(`${c} ${d.apiURL as string}`);
          expect((details.get(c) as Json).topics as string[]).toContain(d.apiURL);
        }
      }
      expect(topicEntryPairs).toBe(entryTopics.size);
      let categoryPairs = 0;
      for (const c of categories) {
        const d = details.get(c.apiURL as string) as Json;
        expect(d.topicCount).toBe((d.topics as string[]).length);
        categoryPairs += (d.topics as string[]).length;
        for (const child of d.children as string[]) {
          const cd = details.get(child) as Json;
          expect((cd.parents as string[]).at(-1)).toBe(d.apiURL);
          expect(cd.depth).toBe((d.depth as number) + 1);
          expect(cd.parents).toEqual([...(d.parents as string[]), d.apiURL]);
        }
        expect((d.parents as string[]).length).toBe((d.depth as number) - 1);
        expect(d.depth as number).toBeLessThanOrEqual(3);
      }
      expect(categoryPairs).toBe(categoryTopics.size);
      for (const e of entries) {
        const topicsOfEntry = (details.get(e.apiURL as string) as Json).topics as string[];
        const ids = topicsOfEntry.map((u) => Number(u.split('/').at(-1)));
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
      }
    });

    it('paginates: 50 a page, page=last, leading zeros, empty page, links without page 1', async () => {
      const first = await getJson<Envelope<Json>>('/api/v1/entries');
      expect(first.totalPages).toBe(Math.max(1, Math.ceil(first.totalResults / 50)));
      expect(first.results.length).toBe(Math.min(50, first.totalResults));
      expect(first.previousPageURL).toBeNull();
      const last = await getJson<Envelope<Json>>('/api/v1/entries?page=last');
      expect(last.nextPageURL).toBeNull();
      expect(last.results.at(-1)).toEqual(entries.at(-1));
      const n = first.totalPages;
      expect(await (await get(`/api/v1/entries?page=${n}`)).text()).toBe(await (await get('/api/v1/entries?page=last')).text());
      expect(await (await get('/api/v1/entries?page=')).text()).toBe(await (await get('/api/v1/entries')).text());
      if (n >= 2) {
        expect(first.nextPageURL).toBe(`${api()}/entries?page=2`);
        const second = await getJson<Envelope<Json>>('/api/v1/entries?page=002');
        expect(second.previousPageURL).toBe(`${api()}/entries`);
        expect(await (await get('/api/v1/entries?page=02')).text()).toBe(await (await get('/api/v1/entries?page=2')).text());
      }
      for (const c of ['categories', 'topics']) {
        const page = await getJson<Envelope<Json>>(`/api/v1/${c}?page=last`);
        expect(page.nextPageURL).toBeNull();
        expect(await (await get(`/api/v1/${c}?page=01&ignored=yes`)).text()).toBe(await (await get(`/api/v1/${c}`)).text());
      }
    });

    it('answers every example of API.md as written', async () => {
      // `.json` suffixes give the same bodies.
      expect(await (await get('/api/v1/entries.json?page=2')).text()).toBe(await (await get('/api/v1/entries?page=2')).text());
      const e = await get('/api/v1/entries/1660-01-01.json');
      expect(e.status).toBe(200);
      expect(await e.text()).toBe(await (await get('/api/v1/entries/1660-01-01')).text());
      const first = details.get(`${api()}/entries/1660-01-01`) as Json;
      expect(first.title).toBe('Sunday 1 January 1659/60');
      expect(first.webURL).toMatch(/\/diary\/1660\/01\/01\/$/);
      // Link example: {base}/api/v1/entries?end=1661-12-31&page=3&start=1661-01-01, on a range with 3+ pages.
      const wide = await getJson<Envelope<Json>>('/api/v1/entries?start=1660-01-01&end=1669-05-31&page=last');
      if (wide.totalPages >= 3) {
        const second = await getJson<Envelope<Json>>('/api/v1/entries?start=1660-01-01&end=1669-05-31&page=2');
        expect(second.nextPageURL).toBe(`${api()}/entries?end=1669-05-31&page=3&start=1660-01-01`);
        expect(second.previousPageURL).toBe(`${api()}/entries?end=1669-05-31&start=1660-01-01`);
      }
      // Unknown parameters are ignored and never echoed; empty values mean absent.
      const odd = await getJson<Envelope<Json>>('/api/v1/entries?start=&end=1669-05-31&foo=bar&page=1');
      expect(odd.totalResults).toBe(entries.length);
      if (odd.nextPageURL !== null) expect(odd.nextPageURL).toBe(`${api()}/entries?end=1669-05-31&page=2`);
      // start after end: one empty page.
      const empty = await getJson<Envelope<Json>>('/api/v1/entries?start=1662-01-01&end=1661-01-01');
      expect(empty).toEqual({ totalResults: 0, totalPages: 1, nextPageURL: null, previousPageURL: null, results: [] });
      // Dates outside the period are valid filters.
      const outside = await getJson<Envelope<Json>>('/api/v1/entries?start=1600-01-01&end=1700-12-31');
      expect(outside.totalResults).toBe(entries.length);
    });

    it('filters any start/end/page exactly like a brute-force filter of the full list', async () => {
      const rand = prng(1660);
      const dates = entries.map((e) => e.date as string);
      const pick = () => {
        const r = rand(10);
        if (r < 6 && dates.length > 0) return dates[rand(dates.length)] as string;
        const y = 1659 + rand(12);
        const m = 1 + rand(12);
        const d = 1 + rand(28);
        return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
      };
      for (let i = 0; i < (options.randomRanges ?? 200); i++) {
        const start = rand(4) === 0 ? undefined : pick();
        const end = rand(4) === 0 ? undefined : pick();
        const expected = entries.filter((e) => (start === undefined || (e.date as string) >= start) && (end === undefined || (e.date as string) <= end));
        const totalPages = Math.max(1, Math.ceil(expected.length / 50));
        const page = 1 + rand(totalPages + 1);
        const params = new URLSearchParams();
        if (start !== undefined) params.set('start', start);
        if (end !== undefined) params.set('end', end);
        if (page !== 1 || rand(2) === 0) params.set('page', String(page));
        const path = `/api/v1/entries?${params.toString()}`;
        const res = await get(path);
        if (page > totalPages) {
          expect(res.status, path).toBe(404);
          continue;
        }
        expect(res.status, path).toBe(200);
        const body = (await res.json()) as Envelope<Json>;
        expect(body.totalResults, path).toBe(expected.length);
        expect(body.totalPages, path).toBe(totalPages);
        expect(body.results, path).toEqual(expected.slice((page - 1) * 50, page * 50));
        const link = (p: number) => {
          const q = [end && `end=${end}`, p > 1 && `page=${p}`, start && `start=${start}`].filter(Boolean).join('&');
          return q === '' ? `${api()}/entries` : `${api()}/entries?${q}`;
        };
        expect(body.nextPageURL, path).toBe(page < totalPages ? link(page + 1) : null);
        expect(body.previousPageURL, path).toBe(page > 1 ? link(page - 1) : null);
      }
    });

    it('serves each year and month list, paginated, with links repeating the range', async () => {
      for (const [start, end] of [['1660-01-01', '1660-12-31'], ['1660-01-01', '1660-01-31'], ['1664-02-01', '1664-02-29'], ['1669-01-01', '1669-12-31']]) {
        const expected = entries.filter((e) => (e.date as string) >= (start as string) && (e.date as string) <= (end as string));
        const { pages, results } = await allPages<Json>(`${api()}/entries?start=${start}&end=${end}`);
        expect(results).toEqual(expected);
        expect(pages[0]?.totalPages).toBe(Math.max(1, Math.ceil(expected.length / 50)));
        for (const p of pages.slice(1)) expect(p.previousPageURL).toContain(`end=${end}`);
      }
    });
  });
}
