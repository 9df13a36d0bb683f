import { describe, expect, it } from 'vitest';
import { envelope, pretty, resultFragment } from '../generator/core/json.ts';
import {
  type ListQuery,
  listQuery,
  planEntryRequest,
  renderPage,
  requestedPage,
  wholeList,
} from '../generator/core/lists.ts';
import { pageURL, parsePage, totalPagesFor } from '../generator/core/pagination.ts';
import { prng } from '../generator/core/random.ts';
import { dateRange } from '../generator/core/ranges.ts';

const LIST = 'https://api.test/api/v1/entries';

describe('page numbers', () => {
  it('counts at least one page', () => {
    expect(totalPagesFor(0, 50)).toBe(1);
    expect(totalPagesFor(50, 50)).toBe(1);
    expect(totalPagesFor(51, 50)).toBe(2);
  });

  it('parses absent, empty, digits with leading zeros and last; rejects the rest', () => {
    expect(parsePage(undefined, 3)).toBe(1);
    expect(parsePage('', 3)).toBe(1);
    expect(parsePage('2', 3)).toBe(2);
    expect(parsePage('003', 3)).toBe(3);
    expect(parsePage('last', 3)).toBe(3);
    expect(parsePage('last', 1)).toBe(1);
    for (const bad of ['0', '4', '-1', '+1', '1.0', ' 1', 'abc', 'LAST', '1e1', '99999999999999999999999'])
      expect(parsePage(bad, 3), bad).toBeNull();
  });
});

describe('page links', () => {
  it('orders parameters alphabetically and leaves page out of page 1', () => {
    expect(pageURL(LIST, {}, 1)).toBe(LIST);
    expect(pageURL(LIST, {}, 2)).toBe(`${LIST}?page=2`);
    expect(pageURL(LIST, { start: '1661-01-01', end: '1661-12-31' }, 3)).toBe(
      `${LIST}?end=1661-12-31&page=3&start=1661-01-01`,
    );
    expect(pageURL(LIST, { start: '1661-01-01', end: '1661-12-31' }, 1)).toBe(
      `${LIST}?end=1661-12-31&start=1661-01-01`,
    );
    expect(pageURL(LIST, { start: '1661-01-01' }, 2)).toBe(`${LIST}?page=2&start=1661-01-01`);
  });

  it('reads the last occurrence of each parameter and ignores unknown ones', () => {
    expect(listQuery(new URLSearchParams('page=1&page=2&start=&foo=bar'))).toEqual({
      start: '',
      end: undefined,
      page: '2',
    });
  });
});

describe('envelope', () => {
  const records = Array.from({ length: 3 }, (_, i) => ({
    date: `1660-01-0${i + 1}`,
    title: `Entry “${i}”`,
    n: [i, { x: null }],
  }));
  const head = { totalResults: 3, totalPages: 1, nextPageURL: null, previousPageURL: null };

  it('assembled from fragments equals JSON.stringify of the whole, byte for byte', () => {
    expect(envelope(head, records.map(resultFragment))).toBe(pretty({ ...head, results: records }));
    expect(envelope({ ...head, totalResults: 0 }, [])).toBe(pretty({ ...head, totalResults: 0, results: [] }));
  });

  it('keeps non-ASCII as is and fields in contract order', () => {
    const body = envelope(head, records.map(resultFragment));
    expect(body).toContain('Entry “0”');
    expect(Object.keys(JSON.parse(body))).toEqual([
      'totalResults',
      'totalPages',
      'nextPageURL',
      'previousPageURL',
      'results',
    ]);
  });
});

describe('list planning and rendering', () => {
  const dates = Array.from({ length: 120 }, (_, i) => new Date(Date.UTC(1661, 0, 1 + i)).toISOString().slice(0, 10));
  const fragments = dates.map((date) => resultFragment({ date }));
  const render = (q: ListQuery) => {
    const planned = planEntryRequest(dates, 50, q, 'julian');
    if (!planned.ok) return planned.error;
    return JSON.parse(renderPage(LIST, (i) => fragments[i] as string, 50, planned.value)) as {
      totalResults: number;
      totalPages: number;
      nextPageURL: string | null;
      previousPageURL: string | null;
      results: Array<{ date: string }>;
    };
  };

  it('filters inclusively by start and end and paginates the filtered set', () => {
    const page = render({ start: '1661-01-10', end: '1661-03-31', page: '2' });
    if ('detail' in page) throw new Error(page.detail);
    expect(page.totalResults).toBe(81);
    expect(page.totalPages).toBe(2);
    expect(page.results[0]?.date).toBe('1661-03-01');
    expect(page.results.at(-1)?.date).toBe('1661-03-31');
    expect(page.nextPageURL).toBeNull();
    expect(page.previousPageURL).toBe(`${LIST}?end=1661-03-31&start=1661-01-10`);
  });

  it('answers start after end, and ranges outside the data, with one empty page', () => {
    for (const q of [{ start: '1661-03-01', end: '1661-02-01' }, { start: '1700-01-01' }, { end: '1600-01-01' }]) {
      const page = render(q);
      expect(page).toMatchObject({
        totalResults: 0,
        totalPages: 1,
        nextPageURL: null,
        previousPageURL: null,
        results: [],
      });
    }
  });

  it('rejects bad dates with 400 naming the parameter and the value, bad pages with 404', () => {
    expect(render({ start: '1661-13-01' })).toMatchObject({ status: 400 });
    expect((render({ end: 'yesterday' }) as { detail: string }).detail).toMatch(/"end".*"yesterday".*YYYY-MM-DD/);
    expect(render({ start: '1661-02-30', page: '99' })).toMatchObject({ status: 400 });
    expect(render({ page: '4' })).toEqual({ status: 404, detail: 'Invalid page.' });
    expect(render({ page: 'last' })).toMatchObject({ totalPages: 3, nextPageURL: null });
  });

  it('matches a brute-force filter on random ranges', () => {
    const rand = prng(7);
    for (let i = 0; i < 500; i++) {
      const start = rand(3) === 0 ? undefined : dates[rand(dates.length)];
      const end = rand(3) === 0 ? undefined : dates[rand(dates.length)];
      const expected = dates.filter((d) => (start === undefined || d >= start) && (end === undefined || d <= end));
      const { from, to } = dateRange(dates, start, end);
      expect(dates.slice(from, to)).toEqual(expected);
    }
  });

  it('plans plain lists', () => {
    const planned = requestedPage(wholeList(101), 50, 'last');
    expect(planned).toMatchObject({ ok: true, value: { page: 3, totalPages: 3, total: 101 } });
  });
});
