// The HTTP contract of ../shared/API.md, end to end, against any server: the local server
// (test/http-local.test.ts), the whole diary (test/heavy/full-diary.test.ts), Netlify's emulation
// and workerd (test/heavy/) run it alike. Every answer it sees is also checked against the site's
// own OpenAPI document (/api/v1/schema, see openapi-check.ts): path, status, headers and body.

import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it as vitestIt } from 'vitest';
import { prng } from '../../generator/core/random.ts';
import { entryFields, topicFields } from '../../generator/core/search/documents.ts';
import { terms, tokenize } from '../../generator/core/search/tokenize.ts';
import type { EntryDetail, TopicDetail } from '../../generator/core/types.ts';
import { CONTRACT } from './field-order.ts';
import { type OpenApiChecker, openApiChecker } from './openapi-check.ts';

interface ContractTarget {
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
  /** The diary served: its period, page size and first entry (default: the Pepys sample's). */
  site?: ContractSite;
}

/** What the suite must know of the diary it is given: the rest it reads from the answers. */
export interface ContractSite {
  period: { start: string; end: string };
  pageSize: number;
  /** The first entry, as API.md's examples show it for the Pepys diary. */
  firstEntry: { date: string; title: string; webURL: RegExp };
}

const PEPYS_CONTRACT_SITE: ContractSite = {
  period: { start: '1660-01-01', end: '1669-05-31' },
  pageSize: 50,
  firstEntry: { date: '1660-01-01', title: 'Sunday 1 January 1659/60', webURL: /\/diary\/1660\/01\/01\/$/ },
};

/** The second sample (examples/carnet-1914): Gregorian, French, 10 a page, its own webURLs. */
export const CARNET_CONTRACT_SITE: ContractSite = {
  period: { start: '1914-08-02', end: '1918-11-11' },
  pageSize: 10,
  firstEntry: {
    date: '1914-08-02',
    title: 'dimanche 2 août 1914',
    webURL: /^https:\/\/www\.carnet\.example\.org\/carnet\/1914-08-02$/,
  },
};

/** The second sample's content directory. */
export const CARNET_CONTENT = fileURLToPath(new URL('../../examples/carnet-1914', import.meta.url));

/**
 * Dates the tests ask for, from the diary's period: for the Pepys diary those API.md's examples
 * use (y0 1660, y1 1669). `y(n)` is the year n years after the first.
 */
function periodDates(site: ContractSite) {
  const y0 = Number(site.period.start.slice(0, 4));
  const y1 = Number(site.period.end.slice(0, 4));
  const y = (n: number) => String(y0 + n).padStart(4, '0');
  const [ey, em, ed] = site.period.end.split('-').map(Number) as [number, number, number];
  const after = new Date(Date.UTC(2001, em - 1, ed + 1));
  // The first leap year after the first, in every calendar (a year divisible by 4, not by 100).
  let leap = y0 + 1;
  while (leap % 4 !== 0 || leap % 100 === 0) leap++;
  return {
    y,
    lastYear: String(y1).padStart(4, '0'),
    leapYear: String(leap).padStart(4, '0'),
    /** A day after the period, valid in every calendar. */
    afterEnd: `${String(ey + (after.getUTCFullYear() - 2001)).padStart(4, '0')}-${String(after.getUTCMonth() + 1).padStart(2, '0')}-${String(after.getUTCDate()).padStart(2, '0')}`,
    /** A computed range from the second day of the first year to September, two thirds on. */
    midRange: `start=${y(0)}-01-02&end=${y(Math.floor(((y1 - y0) * 2) / 3))}-09-02`,
    /** How many years random dates span: one before the period to two after its first. */
    randomYears: y1 - y0 + 3,
  };
}

/** A Vary value without the tokens in `added`. */
function varyWithout(value: string | null, added: readonly string[]): string | null {
  if (value === null || added.length === 0) return value;
  const drop = new Set(added.map((t) => t.toLowerCase()));
  return value
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '' && !drop.has(t.toLowerCase()))
    .join(', ');
}

interface Envelope<T> {
  totalResults: number;
  totalPages: number;
  nextPageURL: string | null;
  previousPageURL: string | null;
  results: T[];
}
type Json = Record<string, unknown>;

/** The contract's headers of every JSON answer, with the values they always have. */
export const CONTRACT_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  allow: 'GET, HEAD, OPTIONS',
  vary: 'Cookie, Accept',
  'x-content-type-options': 'nosniff',
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag',
};

/**
 * The Vary values an answer may have: the contract's, plus Accept-Encoding when its body is
 * compressed. The local server adds it when it compresses (test/compress.test.ts checks that it
 * does); a platform that compresses by itself may not (workerd's local server does not).
 */
const contractVary = (res: Response) =>
  res.headers.get('content-encoding') === null
    ? ['Cookie, Accept']
    : ['Cookie, Accept, Accept-Encoding', 'Cookie, Accept'];

/** What a browser navigating sends (Chromium's Accept for a document). */
export const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';

/**
 * Accept values of clients that are not browsers, or that ask for JSON: each must get the JSON,
 * byte for byte. `null` sends no Accept at all.
 */
export const JSON_ACCEPTS: ReadonlyArray<string | null> = [
  null,
  '',
  '*/*',
  'application/json',
  'application/json, text/plain, */*', // axios
  'application/json, */*;q=0.5', // HTTPie
  'application/json;q=0.9, */*;q=0.8',
  'text/html;q=0.5, application/json',
  'text/html, application/json', // a tie between named types: the default wins
  'application/*',
  'text/plain',
  'application/xml',
  'image/webp,*/*',
  'text/*;q=0.1, */*',
  'text/html;q=0, */*',
  'text/html;q=abc, */*',
  'nonsense',
];

/** A GET over node:http with exactly these request headers (fetch always adds an Accept). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Headers; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
        resolve({ status: res.statusCode ?? 0, headers: h, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The text of the Body section of a browsable page: the JSON as the page shows it. */
function shownJson(html: string): string | null {
  const m = /<section aria-labelledby="body-title">.*?<pre><code>([\s\S]*?)<\/code><\/pre>/.exec(html);
  if (m === null) return null;
  return (m[1] as string)
    .replace(/<\/?a\b[^>]*>/g, '')
    .replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] as string);
}

/**
 * fetch, tried a second time when a kept-alive connection turns out closed: after a test that
 * computes for longer than the server's keep-alive timeout, the pool still holds sockets the
 * server has closed, whose closing this process had no time to see. Browsers retry the same way.
 */
async function fetchRetrying(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET') throw err;
    return fetch(url, init);
  }
}

export function defineContractTests(name: string, options: ContractOptions): void {
  const site = options.site ?? PEPYS_CONTRACT_SITE;
  const size = site.pageSize;
  const { y, lastYear, leapYear, afterEnd, midRange, randomYears } = periodDates(site);
  const { start: periodStart, end: periodEnd } = site.period;
  const vary = (value: string | null) => varyWithout(value, options.varyAdded ?? []);
  describe(`API contract: ${name}`, () => {
    let origin = '';
    const api = () => `${origin}/api/v1`;
    // Every answer is checked against the site's OpenAPI document as soon as that is loaded.
    let checker: OpenApiChecker | null = null;
    let schemaDocument: Json = {};
    const doc = () => schemaDocument;
    let checked = 0;
    const conform = (method: string, url: string, status: number, headers: Headers, body: string) => {
      if (checker === null) return;
      checked++;
      const problems = checker.check(method, url, status, headers, body);
      if (problems.length > 0)
        throw new Error(`the answer does not match the site's OpenAPI document:\n  ${problems.join('\n  ')}`);
    };
    const get = async (path: string, init?: RequestInit) => {
      const url = path.startsWith('http') ? path : origin + path;
      const res = await fetchRetrying(url, init);
      conform(init?.method ?? 'GET', url, res.status, res.headers, await res.clone().text());
      return res;
    };
    const getRaw = async (path: string, headers: Record<string, string>) => {
      const res = await rawGet(origin + path, headers);
      conform('GET', origin + path, res.status, res.headers, res.body.toString('utf8'));
      return res;
    };
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
      const schema = await fetch(`${api()}/schema`);
      expect(schema.status, 'GET /api/v1/schema').toBe(200);
      const text = await schema.text();
      schemaDocument = JSON.parse(text) as Json;
      checker = openApiChecker(schemaDocument);
      conform('GET', `${api()}/schema`, schema.status, schema.headers, text);
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
          JSON.stringify(
            { categories: `${api()}/categories`, entries: `${api()}/entries`, topics: `${api()}/topics` },
            null,
            2,
          ),
        );
      }
    });

    it('has content on both sides of every relation: entries with topics, topics with entries, categories with topics, with children and with parents, topics in categories', () => {
      const detail = (item: Json) => details.get(item.apiURL as string) as Json;
      const some = (items: Json[], field: string) =>
        items.some((item) => (detail(item)[field] as unknown[]).length > 0);
      expect(some(entries, 'topics'), 'an entry that mentions topics').toBe(true);
      expect(some(topics, 'entries'), 'a topic mentioned by entries').toBe(true);
      expect(some(topics, 'categories'), 'a topic in categories').toBe(true);
      expect(some(categories, 'topics'), 'a category with topics').toBe(true);
      expect(some(categories, 'children'), 'a category with children').toBe(true);
      expect(some(categories, 'parents'), 'a category with parents').toBe(true);
      expect(
        categories.some((c) => c.depth === 3),
        'a category three levels deep',
      ).toBe(true);
    });

    it('puts the contract headers (CORS and nosniff included) on every answer, whatever its status, 304s and preflights too, and an ETag on successes', async () => {
      const firstEntry = entries[0]?.date as string;
      const cases: Array<[string, string, number]> = [
        ['GET', '/api/v1', 200],
        ['GET', '/api/v1/entries', 200],
        ['GET', '/api/v1/entries?page=last', 200],
        ['GET', `/api/v1/entries?start=${y(0)}-01-01&end=${y(0)}-12-31`, 200],
        ['GET', `/api/v1/entries?${midRange}&page=1`, 200],
        ['GET', `/api/v1/entries/${firstEntry}`, 200],
        ['GET', `/api/v1/entries/${firstEntry}.json`, 200],
        ['GET', `/api/v1/categories/${categories[0]?.slug as string}`, 200],
        ['GET', `/api/v1/topics/${topics[0]?.id as number}`, 200],
        ['GET', `/api/v1/entries?start=${y(1)}-13-01`, 400],
        ['GET', '/api/v1/entries?page=0', 404],
        ['GET', `/api/v1/entries/${afterEnd}`, 404],
        ['GET', `/api/v1/entries/${y(0)}-02-30`, 404],
        ['GET', '/api/v1/topics/abc', 404],
        ['GET', '/api/v1/nothing-here', 404],
        ['POST', '/api/v1/entries', 405],
        ['DELETE', `/api/v1/entries/${firstEntry}`, 405],
        ['PUT', '/api/v1/topics', 405],
        ['OPTIONS', '/api/v1/entries', 200],
        ['OPTIONS', `/api/v1/entries/${firstEntry}`, 200],
        ['HEAD', `/api/v1/entries?start=${y(1)}-01-01`, 200],
        ['HEAD', `/api/v1/entries/${afterEnd}`, 404],
      ];
      for (const [method, path, status] of cases) {
        const res = await get(path, { method });
        const label = `${method} ${path}`;
        expect(res.status, label).toBe(status);
        for (const [header, value] of Object.entries(CONTRACT_HEADERS)) {
          const got = res.headers.get(header);
          if (header === 'vary') expect(contractVary(res).map(vary), `${label}: vary ${got}`).toContain(vary(got));
          else expect(got, `${label}: ${header}`).toBe(value);
        }
        const text = await res.text();
        if (method === 'GET' && status === 200)
          expect(res.headers.get('etag'), `${label}: etag`).toMatch(/^(W\/)?".+"$/);
        if (method === 'HEAD') expect(text, label).toBe('');
        // OPTIONS: the resource's metadata, as DRF's (core/metadata.ts).
        if (method === 'OPTIONS')
          expect(Object.keys(JSON.parse(text)), label).toEqual([
            'name',
            'description',
            'renders',
            'parses',
            'parameters',
          ]);
        if (status >= 400 && method !== 'HEAD') expect(JSON.parse(text), label).toMatchObject({ status_code: status });
      }
      // 304s: a file, a computed range, a browsable page; and a CORS preflight.
      for (const [path, accept] of [
        [`/api/v1/entries/${firstEntry}`, '*/*'],
        [`/api/v1/entries?${midRange}`, '*/*'],
        ['/api/v1/topics', BROWSER_ACCEPT],
      ] as const) {
        const first = await get(path, { headers: { accept } });
        await first.arrayBuffer();
        const etag = first.headers.get('etag') as string;
        const res = await get(path, { headers: { accept, 'if-none-match': etag } });
        const label = `If-None-Match ${path} (${accept})`;
        expect(res.status, label).toBe(304);
        expect(res.headers.get('etag'), label).toBe(etag);
        expect(await res.text(), label).toBe('');
        for (const [header, value] of Object.entries(CONTRACT_HEADERS)) {
          const got = res.headers.get(header);
          // A 304 has the Vary of the answer it stands for (which may be compressed) and no body.
          if (header === 'vary') expect(vary(got)?.startsWith('Cookie, Accept'), `${label}: vary ${got}`).toBe(true);
          else if (header === 'content-type')
            expect(got, label).toBe(accept === BROWSER_ACCEPT ? 'text/html; charset=utf-8' : value);
          else expect(got, `${label}: ${header}`).toBe(value);
        }
      }
      const preflight = await get('/api/v1/entries', {
        method: 'OPTIONS',
        headers: { origin: 'http://elsewhere.test', 'access-control-request-method': 'GET' },
      });
      expect(preflight.status).toBe(200);
      for (const [header, value] of Object.entries(CONTRACT_HEADERS)) {
        if (header !== 'vary') expect(preflight.headers.get(header), `preflight: ${header}`).toBe(value);
      }
    });

    it('answers a CORS preflight: the methods, every request header it asks for and If-None-Match, a max age', async () => {
      const firstEntry = entries[0]?.date as string;
      for (const [path, asked] of [
        [`/api/v1/entries/${firstEntry}`, 'if-none-match'],
        [`/api/v1/entries?start=${y(1)}-01-01`, 'X-Requested-With, if-none-match, Authorization'],
        ['/api/v1/topics', null],
      ] as const) {
        const headers: Record<string, string> = {
          origin: 'http://elsewhere.test',
          'access-control-request-method': 'GET',
        };
        if (asked !== null) headers['access-control-request-headers'] = asked;
        const res = await get(path, { method: 'OPTIONS', headers });
        const label = `preflight ${path} asking ${asked ?? 'no headers'}`;
        expect(res.status, label).toBe(200);
        expect(((await res.json()) as { parses: string[] }).parses, label).toEqual([]);
        expect(res.headers.get('access-control-allow-origin'), label).toBe('*');
        const list = (name: string) =>
          (res.headers.get(name) ?? '')
            .split(',')
            .map((t) => t.trim().toLowerCase())
            .filter((t) => t !== '');
        expect(list('access-control-allow-methods'), label).toEqual(expect.arrayContaining(['get', 'head', 'options']));
        const wanted = [
          'if-none-match',
          ...(asked ?? '')
            .split(',')
            .map((t) => t.trim().toLowerCase())
            .filter((t) => t !== ''),
        ];
        expect(list('access-control-allow-headers'), label).toEqual(expect.arrayContaining(wanted));
        expect(Number(res.headers.get('access-control-max-age')), label).toBeGreaterThan(0);
      }
    });

    it('answers HEAD with the status, Content-Type, Allow and Vary of GET, and no body', async () => {
      for (const path of [
        '/api/v1/entries',
        `/api/v1/entries?start=${y(2)}-03-01&page=last`,
        '/api/v1/topics/abc',
        `/api/v1/entries/${entries[0]?.date as string}`,
      ]) {
        const [g, h] = await Promise.all([get(path), get(path, { method: 'HEAD' })]);
        expect(h.status, path).toBe(g.status);
        for (const header of ['content-type', 'allow'])
          expect(h.headers.get(header), `${path} ${header}`).toBe(g.headers.get(header));
        expect(vary(h.headers.get('vary')), `${path} vary`).toBe(vary(g.headers.get('vary')));
        expect(await h.text()).toBe('');
      }
    });

    it('gives every error of API.md its status and message', async () => {
      const errors: Array<[string, string, number, string | RegExp]> = [
        ['GET', `/api/v1/entries/${afterEnd}`, 404, 'No Entry matches the given query.'],
        ['GET', '/api/v1/categories/no-such-category', 404, 'No Category matches the given query.'],
        ['GET', '/api/v1/topics/999999999', 404, 'No Topic matches the given query.'],
        ['GET', `/api/v1/entries/${y(0)}-02-30`, 404, 'Not found.'],
        ['GET', '/api/v1/topics/abc', 404, 'Not found.'],
        ['GET', '/api/v1/categories/Not%20a%20slug', 404, 'Not found.'],
        ['GET', '/api/v1/elsewhere', 404, 'Not found.'],
        ['GET', `/api/v1/entries/${site.firstEntry.date}/extra`, 404, 'Not found.'],
        ['GET', '/api/v2/entries', 404, 'Not found.'],
        ['GET', '/api/v1/entries?page=0', 404, 'Invalid page.'],
        ['GET', '/api/v1/entries?page=-1', 404, 'Invalid page.'],
        ['GET', '/api/v1/entries?page=abc', 404, 'Invalid page.'],
        ['GET', '/api/v1/entries?page=100000', 404, 'Invalid page.'],
        ['GET', '/api/v1/categories?page=2.5', 404, 'Invalid page.'],
        ['GET', '/api/v1/topics?page=99999', 404, 'Invalid page.'],
        ['GET', `/api/v1/entries?start=${y(0)}-01-01&end=${y(0)}-12-31&page=999`, 404, 'Invalid page.'],
        [
          'GET',
          `/api/v1/entries?start=${y(1)}-13-01`,
          400,
          new RegExp(`"start".*"${y(1)}-13-01".*YYYY-MM-DD, such as ${periodStart}\\.$`),
        ],
        ['GET', `/api/v1/entries?start=${y(1)}-02-30`, 400, new RegExp(`"start".*"${y(1)}-02-30"`)],
        ['GET', `/api/v1/entries?end=${y(1)}`, 400, new RegExp(`"end".*"${y(1)}"`)],
        ['GET', '/api/v1/entries?end=yesterday', 400, /"end".*"yesterday"/],
        ['GET', `/api/v1/entries?start=${y(1)}-01-01&end=${y(1)}-1-31`, 400, new RegExp(`"end".*"${y(1)}-1-31"`)],
        ['GET', '/api/v1/entries?topic=abc', 400, /"topic".*"abc"/],
        ['GET', '/api/v1/entries.json?day=02-30', 400, /"day".*"02-30"/],
        ['GET', '/api/v1/entries?topic=999999999', 404, 'No Topic matches the given query.'],
        ['GET', '/api/v1/topics?kind=animal', 400, /"kind".*"animal"/],
        ['GET', '/api/v1/topics.json?kind=Person', 400, /"kind".*"Person"/],
        ['GET', '/api/v1/topics?category=no-such-category', 404, 'No Category matches the given query.'],
        ['POST', '/api/v1/entries', 405, 'Method "POST" not allowed.'],
        ['PATCH', '/api/v1/categories', 405, 'Method "PATCH" not allowed.'],
        ['DELETE', '/api/v1', 405, 'Method "DELETE" not allowed.'],
      ];
      for (const [method, path, status, detail] of errors) {
        const res = await get(path, { method });
        const body = (await res.json()) as { detail: string; status_code: number };
        expect(res.status, `${method} ${path}`).toBe(status);
        expect(Object.keys(body)).toEqual(CONTRACT.error);
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
        const links = [
          body.nextPageURL,
          body.previousPageURL,
          body.apiURL,
          body.parents,
          body.children,
          body.topics,
          body.entries,
          body.categories,
        ]
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
      expect(
        sorted(
          entries.map((e) => e.date as string),
          (a, b) => (a < b ? -1 : 1),
        ),
      ).toBe(true);
      expect(
        sorted(
          categories.map((c) => c.slug as string),
          (a, b) => (a < b ? -1 : 1),
        ),
      ).toBe(true);
      expect(
        sorted(
          topics.map((t) => t.id as number),
          (a, b) => a - b,
        ),
      ).toBe(true);
      expect(Object.keys(entries[0] as Json)).toEqual(CONTRACT.entryItem);
      expect(Object.keys(categories[0] as Json)).toEqual(CONTRACT.categoryItem);
      expect(Object.keys(topics[0] as Json)).toEqual(CONTRACT.topicItem);
      const entry = details.get(entries[0]?.apiURL as string) as Json;
      expect(Object.keys(entry)).toEqual(CONTRACT.entryDetail);
      const category = details.get(categories[0]?.apiURL as string) as Json;
      expect(Object.keys(category)).toEqual(CONTRACT.categoryDetail);
      const topic = details.get(topics[0]?.apiURL as string) as Json;
      expect(Object.keys(topic)).toEqual(CONTRACT.topicDetail);
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

    it(`paginates: ${size} a page, page=last, leading zeros, empty page, links without page 1`, async () => {
      const first = await getJson<Envelope<Json>>('/api/v1/entries');
      expect(first.totalPages).toBe(Math.max(1, Math.ceil(first.totalResults / size)));
      expect(first.results.length).toBe(Math.min(size, first.totalResults));
      expect(first.previousPageURL).toBeNull();
      const last = await getJson<Envelope<Json>>('/api/v1/entries?page=last');
      expect(last.nextPageURL).toBeNull();
      expect(last.results.at(-1)).toEqual(entries.at(-1));
      const n = first.totalPages;
      expect(await (await get(`/api/v1/entries?page=${n}`)).text()).toBe(
        await (await get('/api/v1/entries?page=last')).text(),
      );
      expect(await (await get('/api/v1/entries?page=')).text()).toBe(await (await get('/api/v1/entries')).text());
      if (n >= 2) {
        expect(first.nextPageURL).toBe(`${api()}/entries?page=2`);
        const second = await getJson<Envelope<Json>>('/api/v1/entries?page=002');
        expect(second.previousPageURL).toBe(`${api()}/entries`);
        expect(await (await get('/api/v1/entries?page=02')).text()).toBe(
          await (await get('/api/v1/entries?page=2')).text(),
        );
      }
      for (const c of ['categories', 'topics']) {
        const page = await getJson<Envelope<Json>>(`/api/v1/${c}?page=last`);
        expect(page.nextPageURL).toBeNull();
        expect(await (await get(`/api/v1/${c}?page=01&ignored=yes`)).text()).toBe(
          await (await get(`/api/v1/${c}`)).text(),
        );
      }
    });

    it('answers every example of API.md as written', async () => {
      // `.json` suffixes give the same bodies.
      expect(await (await get('/api/v1/entries.json?page=2')).text()).toBe(
        await (await get('/api/v1/entries?page=2')).text(),
      );
      const day = site.firstEntry.date;
      const e = await get(`/api/v1/entries/${day}.json`);
      expect(e.status).toBe(200);
      expect(await e.text()).toBe(await (await get(`/api/v1/entries/${day}`)).text());
      const first = details.get(`${api()}/entries/${day}`) as Json;
      expect(first.title).toBe(site.firstEntry.title);
      expect(first.webURL).toMatch(site.firstEntry.webURL);
      // Link example: {base}/api/v1/entries?end=1661-12-31&page=3&start=1661-01-01, on a range with 3+ pages.
      const whole = `start=${periodStart}&end=${periodEnd}`;
      const wide = await getJson<Envelope<Json>>(`/api/v1/entries?${whole}&page=last`);
      if (wide.totalPages >= 3) {
        const second = await getJson<Envelope<Json>>(`/api/v1/entries?${whole}&page=2`);
        expect(second.nextPageURL).toBe(`${api()}/entries?end=${periodEnd}&page=3&start=${periodStart}`);
        expect(second.previousPageURL).toBe(`${api()}/entries?end=${periodEnd}&start=${periodStart}`);
      }
      // Unknown parameters are ignored and never echoed; empty values mean absent.
      const odd = await getJson<Envelope<Json>>(`/api/v1/entries?start=&end=${periodEnd}&foo=bar&page=1`);
      expect(odd.totalResults).toBe(entries.length);
      if (odd.nextPageURL !== null) expect(odd.nextPageURL).toBe(`${api()}/entries?end=${periodEnd}&page=2`);
      // start after end: one empty page.
      const empty = await getJson<Envelope<Json>>(`/api/v1/entries?start=${y(2)}-01-01&end=${y(1)}-01-01`);
      expect(empty).toEqual({ totalResults: 0, totalPages: 1, nextPageURL: null, previousPageURL: null, results: [] });
      // Dates outside the period are valid filters.
      const outside = await getJson<Envelope<Json>>(`/api/v1/entries?start=${y(-60)}-01-01&end=${y(40)}-12-31`);
      expect(outside.totalResults).toBe(entries.length);
    });

    it('filters any start/end/page exactly like a brute-force filter of the full list', async () => {
      const rand = prng(1660);
      const dates = entries.map((e) => e.date as string);
      const pick = () => {
        const r = rand(10);
        if (r < 6 && dates.length > 0) return dates[rand(dates.length)] as string;
        const year = y(-1 + rand(randomYears));
        const m = 1 + rand(12);
        const d = 1 + rand(28);
        return `${year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
      };
      for (let i = 0; i < (options.randomRanges ?? 200); i++) {
        const start = rand(4) === 0 ? undefined : pick();
        const end = rand(4) === 0 ? undefined : pick();
        const expected = entries.filter(
          (e) =>
            (start === undefined || (e.date as string) >= start) && (end === undefined || (e.date as string) <= end),
        );
        const totalPages = Math.max(1, Math.ceil(expected.length / size));
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
        expect(body.results, path).toEqual(expected.slice((page - 1) * size, page * size));
        const link = (p: number) => {
          const q = [end && `end=${end}`, p > 1 && `page=${p}`, start && `start=${start}`].filter(Boolean).join('&');
          return q === '' ? `${api()}/entries` : `${api()}/entries?${q}`;
        };
        expect(body.nextPageURL, path).toBe(page < totalPages ? link(page + 1) : null);
        expect(body.previousPageURL, path).toBe(page > 1 ? link(page - 1) : null);
      }
    });

    it('filters by topic, day, kind and category exactly like a brute-force filter of the full lists, with links repeating the filters', async () => {
      const rand = prng(1669);
      const keyOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
      // Brute force from the records reached from the root: an entry mentions the topics its
      // detail lists; a topic's kind and categories are in its detail.
      const entryTopics = new Map(
        entries.map((e) => [
          e.date as string,
          ((details.get(e.apiURL as string)?.topics ?? []) as string[]).map(keyOf),
        ]),
      );
      const topicDetail = (t: Json) => details.get(t.apiURL as string) as Json;
      const slugs = categories.map((c) => c.slug as string);
      const ids = topics.map((t) => String(t.id));
      const checkAll = async (path: string, expected: Json[], linked: string[]) => {
        const pages = await allPages<Json>(`${origin}${path}`);
        expect(pages.results, path).toEqual(expected);
        expect(pages.pages[0]?.totalResults, path).toBe(expected.length);
        for (const page of pages.pages) {
          for (const link of [page.nextPageURL, page.previousPageURL]) {
            if (link === null) continue;
            const names = [...new URL(link).searchParams.keys()];
            expect(names, link).toEqual([...names].sort());
            for (const name of linked) expect(names, link).toContain(name);
          }
        }
      };
      for (let i = 0; i < 12; i++) {
        const id = ids[rand(ids.length)] as string;
        const day =
          rand(2) === 0 ? ((entries[rand(entries.length)]?.date as string) ?? periodStart).slice(5) : undefined;
        const expected = entries.filter(
          (e) =>
            entryTopics.get(e.date as string)?.includes(id) &&
            (day === undefined || (e.date as string).endsWith(`-${day}`)),
        );
        await checkAll(
          `/api/v1/entries?topic=${id}${day === undefined ? '' : `&day=${day}`}`,
          expected,
          day === undefined ? ['topic'] : ['day', 'topic'],
        );
      }
      for (const day of ['01-01', '02-29', '12-31']) {
        await checkAll(
          `/api/v1/entries?day=${day}`,
          entries.filter((e) => (e.date as string).endsWith(`-${day}`)),
          ['day'],
        );
      }
      for (const kind of ['person', 'place', 'default']) {
        await checkAll(
          `/api/v1/topics?kind=${kind}`,
          topics.filter((t) => t.kind === kind),
          ['kind'],
        );
      }
      for (let i = 0; i < 6; i++) {
        const slug = slugs[rand(slugs.length)] as string;
        const own = (t: Json) => (topicDetail(t).categories as string[]).map(keyOf).includes(slug);
        await checkAll(`/api/v1/topics?category=${slug}`, topics.filter(own), ['category']);
        await checkAll(
          `/api/v1/topics.json?category=${slug}&kind=person`,
          topics.filter((t) => own(t) && t.kind === 'person'),
          ['category', 'kind'],
        );
      }
    });

    it('searches entries and topics exactly like a linear scan of their words (issue 16)', async () => {
      const rand = prng(1666);
      const collections = [
        { name: 'entries', items: entries, key: 'date', fields: (d: Json) => entryFields(d as unknown as EntryDetail) },
        { name: 'topics', items: topics, key: 'id', fields: (d: Json) => topicFields(d as unknown as TopicDetail) },
      ] as const;
      for (const c of collections) {
        // Words as written (a stem is not a word to search for: stemming it again may change it).
        const written = c.items.map((item) =>
          c
            .fields(details.get(item.apiURL as string) as Json)
            .flatMap((f) => tokenize(f).map((t) => f.slice(t.start, t.end))),
        );
        const texts = c.items.map((item) => c.fields(details.get(item.apiURL as string) as Json).map(terms));
        const has = (doc: number, words: readonly string[]) => {
          const phrase = terms(words.join(' '));
          return (texts[doc] ?? []).some((field) => field.some((_, i) => phrase.every((w, k) => field[i + k] === w)));
        };
        const some = () => {
          const all = written[rand(written.length)] ?? [];
          return all.length === 0 ? ['plague'] : all.slice(rand(all.length)).slice(0, 1 + rand(2));
        };
        for (let i = 0; i < 12; i++) {
          const a = some();
          const b = some();
          const form = rand(4);
          // Each term quoted: a word written "or" is then a word, not the operator.
          const search =
            form === 0
              ? `"${a.join(' ')}"`
              : form === 1
                ? `"${a.join(' ')}" or "${b[0]}"`
                : form === 2
                  ? `"${a[0]}" -"${b[0]}"`
                  : `"${a[0]}"`;
          const expected = c.items.filter((_, doc) =>
            form === 0
              ? has(doc, a)
              : form === 1
                ? has(doc, a) || has(doc, [b[0] as string])
                : form === 2
                  ? has(doc, [a[0] as string]) && !has(doc, [b[0] as string])
                  : has(doc, [a[0] as string]),
          );
          const path = `/api/v1/${c.name}?search=${encodeURIComponent(search as string)}`;
          const body = (await (await get(path)).json()) as Envelope<Json>;
          expect(body.totalResults, path).toBe(expected.length);
          expect(
            body.results.map((r) => r[c.key]),
            path,
          ).toEqual(expected.slice(0, size).map((r) => r[c.key]));
          for (const r of body.results) expect(typeof r.snippet, path).toBe('string');
        }
      }
    });

    it('serves year and month lists, leap February included, paginated, with links repeating the range', async () => {
      for (const [start, end] of [
        [`${y(0)}-01-01`, `${y(0)}-12-31`],
        [`${y(0)}-01-01`, `${y(0)}-01-31`],
        [`${leapYear}-02-01`, `${leapYear}-02-29`],
        [`${lastYear}-01-01`, `${lastYear}-12-31`],
      ]) {
        const expected = entries.filter(
          (e) => (e.date as string) >= (start as string) && (e.date as string) <= (end as string),
        );
        const { pages, results } = await allPages<Json>(`${api()}/entries?start=${start}&end=${end}`);
        expect(results).toEqual(expected);
        expect(pages[0]?.totalPages).toBe(Math.max(1, Math.ceil(expected.length / size)));
        for (const p of pages.slice(1)) expect(p.previousPageURL).toContain(`end=${end}`);
      }
    });

    // Paths of every kind, and every kind of status, for the representation tests below.
    const representative = () => [
      '/api/v1',
      '/api/v1/entries?page=2',
      `/api/v1/entries?start=${y(0)}-01-01&end=${y(0)}-12-31&page=last`,
      `/api/v1/entries?${midRange}`,
      `/api/v1/entries/${entries[0]?.date as string}`,
      `/api/v1/categories/${categories[0]?.slug as string}`,
      `/api/v1/topics/${topics[0]?.id as number}`,
      '/api/v1/topics?page=last',
      '/api/v1/schema',
      `/api/v1/entries?start=${y(1)}-13-01`,
      `/api/v1/entries/${afterEnd}`,
      '/api/v1/nothing-here',
    ];

    it('answers JSON, byte for byte the same, to every Accept that does not prefer text/html, and to a .json path whatever the Accept', async () => {
      for (const path of representative()) {
        const reference = await getRaw(path, {});
        expect(reference.headers.get('content-type'), path).toBe('application/json');
        for (const accept of JSON_ACCEPTS) {
          const res = await getRaw(path, accept === null ? {} : { accept });
          const label = `${path} with Accept ${JSON.stringify(accept)}`;
          expect(res.status, label).toBe(reference.status);
          expect(res.headers.get('content-type'), label).toBe('application/json');
          expect(res.body.equals(reference.body), label).toBe(true);
          expect(res.headers.get('etag'), label).toBe(reference.headers.get('etag'));
        }
      }
      for (const path of [
        '/api/v1.json',
        '/api/v1/entries.json?page=2',
        `/api/v1/entries/${entries[0]?.date as string}.json`,
        '/api/v1/schema.json',
      ]) {
        const plain = await getRaw(path, {});
        const browser = await getRaw(path, { accept: BROWSER_ACCEPT });
        expect(browser.headers.get('content-type'), path).toBe('application/json');
        expect(browser.body.equals(plain.body), path).toBe(true);
      }
    });

    it('answers a browser with the browsable page: same status, the JSON shown exactly, API links on this origin, nothing loaded from anywhere', async () => {
      const cases: Array<[string, string]> = [
        ...representative().map((p): [string, string] => ['GET', p]),
        ['POST', '/api/v1/entries'],
      ];
      for (const [method, path] of cases) {
        const json = await get(path, { method });
        const jsonText = await json.text();
        const page = await get(path, { method, headers: { accept: BROWSER_ACCEPT } });
        const html = await page.text();
        const label = `${method} ${path}`;
        expect(page.status, label).toBe(json.status);
        expect(page.headers.get('content-type'), label).toBe('text/html; charset=utf-8');
        // No script, nothing from elsewhere, never in a frame (core/headers.ts HTML_CSP).
        expect(page.headers.get('content-security-policy'), label).toMatch(
          /^default-src 'none';.*frame-ancestors 'none'$/,
        );
        expect(json.headers.get('content-security-policy'), label).toBeNull();
        expect(contractVary(page).map(vary), label).toContain(vary(page.headers.get('vary')));
        expect(html.startsWith('<!doctype html>\n<html lang="en">'), label).toBe(true);
        expect(shownJson(html), label).toBe(jsonText);
        if (json.status === 200) {
          expect(page.headers.get('etag'), label).toMatch(/^(W\/)?".+"$/);
          expect(page.headers.get('etag'), label).not.toBe(json.headers.get('etag'));
        }
        // No script, no stylesheet, image or frame from anywhere: the page is one document (the
        // content's own HTML, shown as JSON text in <pre>, is text, not markup).
        expect(html.replace(/<pre>[\s\S]*?<\/pre>/g, ''), label).not.toMatch(
          /<script|<link|<img|<iframe|<object|<embed|\ssrc=|url\(/i,
        );
        // Every link to this origin is a path on the page's own origin.
        for (const [, href] of html.matchAll(/href="([^"]*)"/g)) {
          expect((href as string).startsWith(origin), `${label}: ${href as string} left absolute`).toBe(false);
        }
        for (const [, url] of jsonText.matchAll(/(?<!\\)"(https?:\/\/[^"\\\s]+)"/g)) {
          const u = url as string;
          const expected = u === origin ? '/' : u.startsWith(`${origin}/`) ? u.slice(origin.length) : u;
          expect(html, `${label}: a link for ${u}`).toContain(`href="${expected.replaceAll('&', '&amp;')}"`);
        }
      }
      // A list page says where it stands, and links to the pages around it.
      const html = await (await get('/api/v1/entries?page=2', { headers: { accept: BROWSER_ACCEPT } })).text();
      const first = await getJson<Envelope<Json>>('/api/v1/entries');
      if (first.totalPages >= 2) {
        expect(html).toContain(`Page 2 of ${first.totalPages}`);
        expect(html).toContain('rel="prev" href="/api/v1/entries"');
      }
    });

    it('serves an OpenAPI 3.1 document of this site: its origin as the server, examples that are its own answers', async () => {
      const doc = schemaDocument;
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.servers).toEqual([expect.objectContaining({ url: origin })]);
      const responses = (doc.components as Json).responses as Record<
        string,
        { content?: Record<string, { examples?: Record<string, { value: unknown }> }> }
      >;
      const example = (name: string) =>
        Object.values(responses[name]?.content?.['application/json']?.examples ?? {})[0]?.value;
      expect(example('Root')).toEqual(await getJson('/api/v1'));
      expect(example('EntryList')).toEqual(await getJson('/api/v1/entries'));
      expect(example('CategoryList')).toEqual(await getJson('/api/v1/categories'));
      expect(example('TopicList')).toEqual(await getJson('/api/v1/topics'));
      for (const [name, item] of [
        ['Entry', entries[0]],
        ['Category', categories[0]],
        ['Topic', topics[0]],
      ] as const) {
        if (item !== undefined) expect(example(name), name).toEqual(details.get(item.apiURL as string));
      }
      expect(await (await get('/api/v1/schema.json')).text()).toBe(JSON.stringify(doc, null, 2));
    });

    it('answers every path of its OpenAPI document, each spelling: 200, 304, HEAD, OPTIONS, 405, and its 400 and 404', async () => {
      const paths = doc().paths as Record<string, Json>;
      const parameters = (doc().components as Json).parameters as Record<string, { name: string; example?: unknown }>;
      const missing: Record<string, string> = {
        date: `${y(-60)}-01-01`,
        slug: 'no-such-category',
        id: '999999999',
        name: 'no-such-file.gz',
      };
      const fill = (template: string, values: (name: string) => string) =>
        template.replace(/\{([^}]+)\}/g, (_, name: string) => values(name));
      for (const template of Object.keys(paths)) {
        const path = fill(template, (name) => String(parameters[name]?.example));
        const label = `${template} as ${path}`;
        const ok = await get(path);
        expect(ok.status, label).toBe(200);
        await ok.arrayBuffer();
        const etag = ok.headers.get('etag') as string;
        for (const method of ['GET', 'HEAD']) {
          const res = await get(path, { method, headers: { 'if-none-match': etag } });
          // A download is the CDN's static file: its revalidation is the CDN's (Netlify's
          // emulation answers 200 again), so either answer conforms.
          if (template.startsWith('/api/v1/downloads/')) expect([200, 304], `${method} ${label}`).toContain(res.status);
          else expect(res.status, `${method} ${label} If-None-Match`).toBe(304);
          await res.arrayBuffer();
        }
        expect((await get(path, { method: 'HEAD' })).status, label).toBe(200);
        // A download is a static file on the CDNs: GET and HEAD are what it has.
        const file = template.startsWith('/api/v1/downloads/');
        if (!file) {
          expect((await get(path, { method: 'OPTIONS' })).status, label).toBe(200);
          for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
            const res = await get(path, { method });
            expect(res.status, `${method} ${label}`).toBe(405);
            await res.arrayBuffer();
          }
          // DRF's format override: a format it has no renderer for is a 404, whatever the method.
          for (const method of ['GET', 'HEAD', 'OPTIONS']) {
            const res = await get(`${path}?format=xml`, { method });
            expect(res.status, `${method} ${label}?format=xml`).toBe(404);
            await res.arrayBuffer();
          }
        }
        for (const method of ['GET', 'HEAD']) {
          if (template.includes('{')) {
            const res = await get(
              fill(template, (name) => missing[name] as string),
              { method },
            );
            expect(res.status, `${method} ${label}, no such record`).toBe(404);
            await res.arrayBuffer();
          }
          if (/\/(entries|categories|topics)(\.json)?$/.test(template)) {
            const res = await get(`${path}?page=0`, { method });
            expect(res.status, `${method} ${label}?page=0`).toBe(404);
            await res.arrayBuffer();
          }
          if (/\/entries(\.json)?$/.test(template)) {
            const res = await get(`${path}?end=${y(1)}-02-30`, { method });
            expect(res.status, `${method} ${label}?end=${y(1)}-02-30`).toBe(400);
            await res.arrayBuffer();
          }
          if (/\/topics(\.json)?$/.test(template)) {
            {
              const res = await get(`${path}?kind=animal`, { method });
              expect(res.status, `${method} ${label}?kind=animal`).toBe(400);
              await res.arrayBuffer();
            }
            const res = await get(`${path}?search=lute&ordering=date`, { method });
            expect(res.status, `${method} ${label}?search=lute&ordering=date`).toBe(400);
            await res.arrayBuffer();
          }
        }
      }
    });

    // Last: it reads what the tests above saw.
    it('saw every answer match the OpenAPI document, and every status the document gives (but 503) at least once', () => {
      expect(checked).toBeGreaterThan(entries.length + categories.length + topics.length);
      const paths = doc().paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>;
      const unseen: string[] = [];
      for (const [template, item] of Object.entries(paths)) {
        for (const [method, operation] of Object.entries(item)) {
          if (method === 'parameters') continue;
          for (const status of Object.keys(operation.responses ?? {})) {
            const key = `${method.toUpperCase()} ${template} ${status}`;
            // A static file's revalidation is the CDN's (see above): its 304 may never come.
            const cdnsOwn = template === '/api/v1/downloads/{name}' && status === '304';
            if (status !== '503' && !cdnsOwn && !checker?.seen.has(key)) unseen.push(key);
          }
        }
      }
      expect(unseen).toEqual([]);
    });
  });
}
