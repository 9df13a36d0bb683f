// Property-based tests (fast-check) of the request side of the core against brute-force models
// written from ../shared/API.md: the router, the query parser and the list planner. A failure
// prints the shrunk counterexample and the seed that reproduces it.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answer } from '../generator/core/answer.ts';
import { areIsoDates, isIsoDate } from '../generator/core/dates.ts';
import { pageFile } from '../generator/core/files.ts';
import { listQuery } from '../generator/core/lists.ts';
import { parsePage } from '../generator/core/pagination.ts';
import { PEPYS_PERIOD } from '../generator/core/period.ts';
import { prerenderedLists } from '../generator/core/prerendered.ts';

import { route } from '../generator/core/router.ts';
import { loadSiteIndex, type SiteIndex } from '../generator/core/site-index.ts';

const RUNS = { numRuns: 400 };
const ORIGIN = 'https://api.test';
const LIST = `${ORIGIN}/api/v1/entries`;

/** Model of a real calendar date `YYYY-MM-DD` (years 0001–9999), by the platform's calendar. */
function modelIsDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Model of the `page` parameter. */
function modelPage(raw: string | undefined, totalPages: number): number | null {
  if (raw === undefined || raw === '') return 1;
  if (raw === 'last') return totalPages;
  if (!/^[0-9]+$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= totalPages ? n : null;
}

const dayOf = (i: number) => {
  const d = new Date(Date.UTC(1660, 0, 1) + i * 86_400_000);
  return d.toISOString().slice(0, 10);
};

/** Dates of the period, as strings a client might send (and some it might not). */
const dateText = fc.oneof(
  fc.integer({ min: -400, max: 3800 }).map(dayOf),
  fc.constantFrom(
    '',
    '1661-13-01',
    '1661-02-30',
    '1661',
    'yesterday',
    '1661-1-31',
    '1660-02-29',
    '1700-02-29',
    '0000-01-01',
    '1661-02-28\n',
    ' 1661-02-28',
    '1661/02/28',
    '1661-02-2x',
    '16６1-02-28',
    '1661-0٢-28',
    '+661-02-28',
    '-661-02-28',
    '1661--2-28',
    '9999-12-31',
  ),
  fc.string({ maxLength: 12 }),
);
const pageText = fc.oneof(
  fc.integer({ min: -2, max: 12 }).map(String),
  fc.constantFrom('', 'last', 'LAST', '01', '007', '1.0', ' 1', '+1', '1e1', '99999999999999999999'),
  fc.string({ maxLength: 4 }),
);

describe('property: dates and pages', () => {
  it('a date parameter is valid exactly when it is a real calendar date written YYYY-MM-DD', () => {
    fc.assert(
      fc.property(fc.oneof(dateText, fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/)), (text) => {
        expect(isIsoDate(text)).toBe(modelIsDate(text));
      }),
      RUNS,
    );
  });

  it('a date is valid exactly when the calendar has it: every day written of years around each rule', () => {
    // The years where the rules of the leap years and of year 0001 show, and every two-digit month
    // and day, 00 to 39 and 99: each text once, against the platform's calendar.
    const years = [
      ...Array.from({ length: 25 }, (_, i) => i),
      ...[96, 100, 104, 396, 400, 404, 1599, 1600, 1660, 1661, 1664, 1700, 1800, 1900, 2000, 2024, 2100, 2400],
      ...Array.from({ length: 10 }, (_, i) => 9990 + i),
    ];
    const twoDigits = [...Array.from({ length: 40 }, (_, i) => String(i).padStart(2, '0')), '99'];
    // The texts where the two disagree, gathered and asserted once (86,000 expect calls took ~1 s).
    const wrong: string[] = [];
    let texts = 0;
    for (const y of years)
      for (const m of twoDigits)
        for (const d of twoDigits) {
          const text = `${String(y).padStart(4, '0')}-${m}-${d}`;
          texts++;
          if (isIsoDate(text) !== modelIsDate(text)) wrong.push(text);
        }
    expect(texts).toBe(years.length * twoDigits.length ** 2);
    expect(wrong).toEqual([]);
  });

  it('a list of texts are dates exactly when each one is (one match over the list)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(dateText, fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/)), { maxLength: 6 }), (texts) => {
        expect(areIsoDates(texts)).toBe(texts.every((t) => modelIsDate(t)));
      }),
      RUNS,
    );
    // Two dates in one text, or a date cut in two, are not dates.
    expect(areIsoDates(['1660-01-01\n1660-01-02'])).toBe(false);
    expect(areIsoDates(['1660-01', '-01'])).toBe(false);
    expect(areIsoDates([])).toBe(true);
  });

  it('a page parameter names a page exactly as the contract says', () => {
    fc.assert(
      fc.property(fc.option(pageText, { nil: undefined }), fc.integer({ min: 1, max: 10 }), (raw, total) => {
        expect(parsePage(raw, total)).toBe(modelPage(raw, total));
      }),
      RUNS,
    );
  });
});

describe('property: the query parser', () => {
  it('takes the last value of each recognised parameter and ignores every other', () => {
    const name = fc.constantFrom('start', 'end', 'page', 'Start', 'utm_source', 'page[]', 'x');
    const value = fc.string({ maxLength: 8 });
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 8 }), (pairs) => {
        const params = new URLSearchParams();
        for (const [k, v] of pairs) params.append(k, v);
        const last = (k: string) => pairs.filter(([n]) => n === k).at(-1)?.[1];
        // Through the query string and back, as a request gives it.
        expect(listQuery(new URLSearchParams(params.toString()))).toEqual({
          start: last('start'),
          end: last('end'),
          page: last('page'),
        });
      }),
      RUNS,
    );
  });
});

describe('property: the router', () => {
  const segment = fc.oneof(
    fc.constantFrom(
      'api',
      'v1',
      'v2',
      'entries',
      'categories',
      'topics',
      'schema',
      '',
      '.',
      '..',
      '%2e%2e',
      '%2E',
      'index.json',
    ),
    fc.integer({ min: 0, max: 99 }).map(String),
    fc.constantFrom('1660-01-01', '1660-02-30', '1669-05-31', 'people', 'Not%20a%20slug', 'a_b-c', '007'),
  );

  /** Paths a client might send: mostly below /api/v1/, some anywhere. */
  const path = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.array(segment, { minLength: 0, maxLength: 3 }), fc.boolean())
        .map(([tail, json]) => `/api/v1/${tail.join('/')}${json ? '.json' : ''}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.boolean())
        .map(([all, json]) => `/${all.join('/')}${json ? '.json' : ''}`),
    },
  );

  it('never throws; a path with an empty, dot or escaped segment below /api/v1/ names nothing', () => {
    fc.assert(
      fc.property(path, (path) => {
        const r = route(path, 'gregorian');
        const below = path.startsWith('/api/v1/')
          ? path
              .slice('/api/v1/'.length)
              .replace(/\.json$/, '')
              .split('/')
          : [];
        const odd =
          below.some((s) => s === '.' || s === '..' || s.includes('%')) || below.slice(0, -1).some((s) => s === '');
        if (odd && below.length > 0 && !(below.length === 1 && below[0] === '')) expect(r.kind, path).toBe('unknown');
      }),
      RUNS,
    );
  });

  it('routes exactly the contract’s paths (model: the table of API.md)', () => {
    const slug = /^[-a-zA-Z0-9_]+$/;
    const model = (path: string): string => {
      if (path === '/api/v1' || path === '/api/v1/' || path === '/api/v1.json' || path === '/api/v1/.json')
        return 'root';
      if (!path.startsWith('/api/v1/')) return 'unknown';
      const rest = path.slice(8).replace(/\.json$/, '');
      if (rest === 'schema') return 'schema';
      const parts = rest.split('/');
      if (!['entries', 'categories', 'topics'].includes(parts[0] as string) || parts.length > 2) return 'unknown';
      if (parts.length === 1) return `list ${parts[0]}`;
      const key = parts[1] as string;
      const ok =
        parts[0] === 'entries' ? modelIsDate(key) : parts[0] === 'categories' ? slug.test(key) : /^[0-9]+$/.test(key);
      return ok ? `detail ${parts[0]} ${parts[0] === 'topics' ? String(Number(key)) : key}` : 'unknown';
    };
    fc.assert(
      fc.property(path, (path) => {
        const r = route(path, 'gregorian');
        const got =
          r.kind === 'list' ? `list ${r.collection}` : r.kind === 'detail' ? `detail ${r.collection} ${r.key}` : r.kind;
        expect(got, path).toBe(model(path));
      }),
      RUNS,
    );
  });
});

/** A site index over the given (sorted, distinct) entry dates. */
function siteOf(dates: readonly string[], pageSize: number): SiteIndex {
  const loaded = loadSiteIndex({
    version: 4,
    buildId: 'p',
    apiOrigin: ORIGIN,
    siteOrigin: 'https://site.test',
    pageSize,
    period: PEPYS_PERIOD,
    categories: ['a', 'b'],
    topics: [1, 2, 3],
    entries: dates.map((d) => [d, `T ${d}`, '2026-01-01T00:00:00Z']),
  });
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.value;
}

/** Model of a page link: recognised non-empty parameters in alphabetical order, no page=1. */
function modelURL(start: string | undefined, end: string | undefined, page: number): string {
  const params = [end ? `end=${end}` : '', page > 1 ? `page=${page}` : '', start ? `start=${start}` : ''].filter(
    (p) => p !== '',
  );
  return params.length === 0 ? LIST : `${LIST}?${params.join('&')}`;
}

describe('property: the entries list planner against a brute-force filter', () => {
  it('answers any start/end/page: status, totals, results, links, and which pre-rendered file', () => {
    const days = fc
      .uniqueArray(fc.integer({ min: 0, max: 3439 }), { minLength: 0, maxLength: 160, size: 'large' })
      .map((is) => [...is].sort((a, b) => a - b));
    // A bound is often a day that has an entry, or its neighbour: where off-by-one errors live.
    const bound = fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .tuple(fc.nat(), fc.integer({ min: -1, max: 1 }))
          .map(([i, shift]) => ({ near: i, shift }) as const),
      },
      { weight: 2, arbitrary: fc.option(dateText, { nil: undefined }) },
    );
    const resolve = (b: { near: number; shift: number } | string | undefined, days: number[]): string | undefined =>
      typeof b === 'object'
        ? days.length === 0
          ? undefined
          : dayOf((days[b.near % days.length] as number) + b.shift)
        : b;
    fc.assert(
      fc.property(
        days,
        fc.integer({ min: 1, max: 40 }),
        bound,
        bound,
        fc.option(pageText, { nil: undefined }),
        (days, pageSize, startBound, endBound, page) => {
          const dates = days.map(dayOf);
          const start = resolve(startBound, days);
          const end = resolve(endBound, days);
          const site = siteOf(dates, pageSize);
          const query = { start, end, page };
          const a = answer('GET', '/api/v1/entries', query, site);
          // The model, step by step as API.md states it.
          const bad = [
            ['start', start],
            ['end', end],
          ].find(([, v]) => v !== undefined && v !== '' && !modelIsDate(v as string));
          if (bad !== undefined) {
            expect(a.kind === 'body' && a.status).toBe(400);
            expect(a.kind === 'body' && JSON.parse(a.body).detail).toContain(`"${bad[0]}"`);
            return;
          }
          const s = start === '' ? undefined : start;
          const e = end === '' ? undefined : end;
          const selected = dates.filter((d) => (s === undefined || d >= s) && (e === undefined || d <= e));
          const totalPages = Math.max(1, Math.ceil(selected.length / pageSize));
          const n = modelPage(page, totalPages);
          if (n === null) {
            expect(a).toEqual({
              kind: 'body',
              status: 404,
              body: JSON.stringify({ detail: 'Invalid page.', status_code: 404 }, null, 2),
            });
            return;
          }
          const list = prerenderedLists(site).find(
            (l) => l.collection === 'entries' && l.filters.start === s && l.filters.end === e,
          );
          if (list !== undefined) {
            expect(a).toEqual({ kind: 'file', file: pageFile(list.dir, n) });
            return;
          }
          const results = selected.slice((n - 1) * pageSize, n * pageSize).map((d) => ({
            date: d,
            title: `T ${d}`,
            lastModifiedTime: '2026-01-01T00:00:00Z',
            apiURL: `${LIST}/${d}`,
            webURL: `https://site.test/diary/${d.slice(0, 4)}/${d.slice(5, 7)}/${d.slice(8, 10)}/`,
          }));
          const envelope = {
            totalResults: selected.length,
            totalPages,
            nextPageURL: n < totalPages ? modelURL(s, e, n + 1) : null,
            previousPageURL: n > 1 ? modelURL(s, e, n - 1) : null,
            results,
          };
          expect(a).toEqual({ kind: 'body', status: 200, body: JSON.stringify(envelope, null, 2) });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('serves every page of every pre-rendered list from its file, and nothing past the last', () => {
    const dates = Array.from({ length: 700 }, (_, i) => dayOf(i * 5));
    fc.assert(
      fc.property(
        fc.constantFrom(...prerenderedLists({ period: PEPYS_PERIOD, calendar: 'julian', entryDates: dates })),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 40 }),
        (list, pageSize, page) => {
          const site = siteOf(dates, pageSize);
          const path = `/api/v1/${list.collection}`;
          const a = answer('GET', path, { ...list.filters, page: String(page) }, site);
          const total =
            list.collection === 'entries'
              ? dates.filter(
                  (d) =>
                    (list.filters.start === undefined || d >= list.filters.start) &&
                    (list.filters.end === undefined || d <= list.filters.end),
                ).length
              : list.collection === 'categories'
                ? 2
                : 3;
          const totalPages = Math.max(1, Math.ceil(total / pageSize));
          if (page >= 1 && page <= totalPages) expect(a).toEqual({ kind: 'file', file: pageFile(list.dir, page) });
          else expect(a.kind === 'body' && a.status).toBe(404);
        },
      ),
      RUNS,
    );
  });
});
