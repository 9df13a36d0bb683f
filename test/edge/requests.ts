// Random requests for the edge function's byte-identity tests: list queries with every kind of
// start/end/page value the contract names (valid, invalid, empty, out of the period, repeated,
// unknown parameters), details known and unknown, other paths and methods. Deterministic: the
// same seed gives the same requests, in Node and in Deno alike.

/**
 * Every header the handler sets: what two runtimes answering the same request must agree on.
 * What else each server adds (Date, Content-Length, Connection, Content-Encoding when the client
 * accepts gzip) belongs to the transport, not the contract.
 */
export const CONTRACT_HEADER_NAMES = [
  'content-type',
  'allow',
  'vary',
  'etag',
  'cache-control',
  'x-content-type-options',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
] as const;

export interface RandomRequest {
  method: string;
  /** Path and query, e.g. `/api/v1/entries?start=1660-01-01&page=2`. */
  path: string;
}

import { prng } from '../../generator/core/random.ts';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export interface Known {
  dates: readonly string[];
  slugs: readonly string[];
  ids: readonly number[];
}

/** Searches of every kind (issue 16): words, phrases, or, exclusions, lenient and refused ones. */
const SEARCHES = [
  'plague',
  'lute or theorbo',
  '"and so to bed"',
  'king -queen',
  'Théâtre',
  '"unbalanced',
  'or',
  '',
  ' ',
  'a'.repeat(501),
  'x\u0001',
  Array.from({ length: 33 }, (_, i) => `w${i}`).join(' '),
];

/** `count` random requests against a site with the `known` records. */
export function randomRequests(count: number, known: Known, seed = 1660): RandomRequest[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)] as T;

  const date = (): string => {
    switch (rand(12)) {
      case 0:
        return '';
      case 1:
        return pick([
          '1661-13-01',
          '1661-02-30',
          '1661',
          'yesterday',
          '1661-1-31',
          '16610101',
          '1661-02-29',
          '0000-01-01',
          '1660-01-01T00:00:00Z',
          '%20',
          'null',
        ]);
      case 2:
        return `${pick([1599, 1659, 1669, 1670, 2024, 9999])}-${pad(1 + rand(12))}-${pad(1 + rand(28))}`;
      case 3:
        return pick(['1660-01-01', '1669-05-31', '1664-02-29', '1668-02-29', '1660-12-31', '1669-12-31']);
      case 4:
      case 5:
      case 6:
        return known.dates.length > 0 ? pick(known.dates) : '1660-01-01';
      default:
        return `${1660 + rand(10)}-${pad(1 + rand(12))}-${pad(1 + rand(31))}`;
    }
  };
  const page = (): string =>
    pick(['', '1', '2', '3', '4', '5', '7', 'last', '0', '01', '002', '-1', 'abc', '2.5', '99', '100000', ' 1', '1e1']);
  const monthRange = (): [string, string] => {
    const y = 1660 + rand(10);
    const m = 1 + rand(y === 1669 ? 5 : 12);
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    return [`${y}-${pad(m)}-01`, `${y}-${pad(m)}-${pad(last)}`];
  };

  const listQuery = (entries: boolean): string => {
    const params: Array<[string, string]> = [];
    if (entries) {
      const r = rand(10);
      if (r < 2) {
        const y = 1660 + rand(10);
        params.push(['start', `${y}-01-01`], ['end', `${y}-12-31`]);
      } else if (r < 4) {
        const [s, e] = monthRange();
        params.push(['start', s], ['end', e]);
      } else {
        if (rand(4) !== 0) params.push(['start', date()]);
        if (rand(4) !== 0) params.push(['end', date()]);
      }
      // The record filters of the entries (core/filters.ts), valid and not.
      if (rand(6) === 0)
        params.push(['topic', pick([String(known.ids.length > 0 ? pick(known.ids) : 1), 'x', '999999999', ''])]);
      if (rand(6) === 0) params.push(['day', pick(['01-01', '02-29', '03-25', '12-31', '02-30', '1-1', ''])]);
    } else {
      if (rand(5) === 0) params.push(['start', date()]);
      // The record filters of the topics (the categories list ignores them).
      if (rand(5) === 0) params.push(['kind', pick(['person', 'place', 'default', 'animal', ''])]);
      if (rand(5) === 0)
        params.push(['category', known.slugs.length > 0 && rand(3) !== 0 ? pick(known.slugs) : pick(['no-such', ''])]);
    }
    if (rand(3) !== 0) params.push(['page', page()]);
    if (rand(4) === 0) params.push(['search', pick(SEARCHES)]);
    if (rand(8) === 0) params.push(['ordering', pick(['relevance', '', 'date'])]);
    if (rand(6) === 0) params.push([pick(['foo', 'Page', 'START', 'format', 'ordering']), pick(['1', 'json', 'x'])]);
    // Repeated parameters: the last occurrence counts.
    if (rand(8) === 0 && params.length > 0) {
      const [name] = pick(params);
      params.push([name, name === 'page' ? page() : date()]);
    }
    // Shuffled order.
    for (let i = params.length - 1; i > 0; i--) {
      const j = rand(i + 1);
      [params[i], params[j]] = [params[j] as [string, string], params[i] as [string, string]];
    }
    const q = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    return q === '' ? (rand(4) === 0 ? '?' : '') : `?${q}`;
  };

  const path = (): string => {
    const r = rand(100);
    const json = rand(4) === 0 ? '.json' : '';
    if (r < 55) return `/api/v1/entries${json}${listQuery(true)}`;
    if (r < 61) return `/api/v1/categories${json}${listQuery(false)}`;
    if (r < 67) return `/api/v1/topics${json}${listQuery(false)}`;
    if (r < 75)
      return `/api/v1/entries/${rand(3) === 0 ? date() || 'x' : known.dates.length > 0 ? pick(known.dates) : '1660-01-01'}${json}`;
    if (r < 79)
      return `/api/v1/categories/${rand(3) === 0 ? pick(['no-such', 'Not%20a%20slug', 'a.b', '-', 'x_y']) : known.slugs.length > 0 ? pick(known.slugs) : 'x'}${json}`;
    if (r < 84) {
      const id = known.ids.length > 0 ? pick(known.ids) : 1;
      return `/api/v1/topics/${pick([String(id), String(id), `00${id}`, 'abc', '0', '999999999', '-1', `${id}.5`])}${json}`;
    }
    return pick([
      '/api/v1/feeds/atom',
      '/api/v1/feeds/json',
      '/api/v1/feeds/json.json',
      '/api/v1',
      '/api/v1/',
      '/api/v1.json',
      '/api/v1?page=2',
      '/api',
      '/api/',
      '/api/v2/entries',
      '/api/v1/elsewhere',
      '/api/v1/entries/1660-01-01/extra',
      '/api/v1/entries/pages/1.json',
      '/api/v1/entries/years/1660/pages/1.json',
      '/api/v1/index.json',
      '/api/v1/entries/',
      '/api/v1//entries',
      '/api/v1/ENTRIES',
      '/api/v1/entries.json.json',
    ]);
  };

  const out: RandomRequest[] = [];
  for (let i = 0; i < count; i++) {
    const r = rand(100);
    const method = r < 80 ? 'GET' : r < 88 ? 'HEAD' : r < 93 ? 'OPTIONS' : pick(['POST', 'PUT', 'PATCH', 'DELETE']);
    out.push({ method, path: path() });
  }
  return out;
}
