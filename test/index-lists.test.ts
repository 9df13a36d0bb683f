// The site index's short lists (core/index-lists.ts): an entry written as its date alone comes
// back with the title and time it had, in every calendar, locale and title convention; topic ids
// come back from their runs; anything that is not such a list is refused.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { titleFormat } from '../generator/content/locale.ts';
import type { CalendarName } from '../generator/core/calendar.ts';
import { entryOfIndex, idRuns, idsOfRuns, indexEntries } from '../generator/core/index-lists.ts';
import type { TitleConvention } from '../generator/core/model.ts';
import { loadSiteIndex } from '../generator/core/site-index.ts';
import { entryTitle, type TitleFormat, type TitleRules } from '../generator/core/titles.ts';

const format = (code: string): TitleFormat => {
  const f = titleFormat(code);
  if (f instanceof Error) throw f;
  return f;
};

/** Every day from `start`, `count` of them, as ISO dates (proleptic Gregorian arithmetic). */
function days(start: string, count: number): string[] {
  const t = Date.parse(`${start}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(t + i * 86_400_000).toISOString().slice(0, 10));
}

describe('the entries of the site index', () => {
  const cases: Array<[CalendarName, TitleConvention, string]> = [
    ['julian', 'seed', 'en'],
    ['julian', 'every-year', 'en-GB'],
    ['british', 'single', 'fr'],
    ['gregorian', 'seed', 'de'],
  ];
  for (const [calendar, convention, locale] of cases) {
    it(`come back as they were: ${calendar}, ${convention}, ${locale}`, () => {
      const rules: TitleRules = { calendar, convention, periodStart: '1660-01-01', format: format(locale) };
      // Days around Lady Day and the new year, most with the title their date gives, some not.
      const dates = [...days('1660-01-01', 120), ...days('1661-03-20', 20), ...days('1751-12-25', 100)].filter(
        (d) => calendar !== 'british' || d < '1752-09-03' || d > '1752-09-13',
      );
      const entries = dates.map((date, i) => ({
        date,
        title: i % 17 === 5 ? `An edition's own title ${i}` : entryTitle(date, rules),
        lastModifiedTime: i % 23 === 7 ? '2026-03-04T05:06:07Z' : '2026-01-01T00:00:00Z',
      }));
      const written = indexEntries(entries, rules);
      expect(written.entryTime).toBe('2026-01-01T00:00:00Z');
      const short = written.entries.filter((e) => typeof e === 'string').length;
      expect(short).toBeGreaterThan(entries.length * 0.8);
      expect(short).toBeLessThan(entries.length);
      const back = written.entries.map((e) => entryOfIndex(e, rules, written.entryTime));
      expect(back).toEqual(entries);
    });
  }

  it('are none, with nothing stated, for a diary without entries', () => {
    const rules: TitleRules = {
      calendar: 'gregorian',
      convention: 'single',
      periodStart: '1900-01-01',
      format: format('en'),
    };
    expect(indexEntries([], rules)).toEqual({ entries: [] });
  });

  it('written short, are refused by an index that does not say how to make them whole', () => {
    const base = { version: 4, buildId: 'x', apiOrigin: 'https://a.test', siteOrigin: 'https://s.test', pageSize: 5 };
    const lists = { categories: [], topicRuns: [1, 3], entries: ['1914-08-02', ['1914-08-03', 'T', 't']] };
    const rules = { convention: 'single', format: format('en') };
    const loaded = (extra: Record<string, unknown>) => {
      const r = loadSiteIndex({ ...base, ...lists, ...extra });
      return r.ok ? 'loaded' : r.error;
    };
    expect(loaded({ titles: rules, entryTime: '2026-01-01T00:00:00Z' })).toBe('loaded');
    expect(loaded({ titles: rules })).toBe('"entries" holds something other than [date, title, time]');
    expect(loaded({ entryTime: '2026-01-01T00:00:00Z' })).toBe(
      '"entries" holds something other than [date, title, time]',
    );
    expect(loaded({ titles: { ...rules, convention: 'other' }, entryTime: 't' })).toBe(
      '"titles" is not { convention, format }',
    );
    const months = rules.format.months.slice(1);
    expect(loaded({ titles: { ...rules, format: { ...rules.format, months } }, entryTime: 't' })).toBe(
      '"titles" is not { convention, format }',
    );
    expect(loaded({ titles: rules, entryTime: 5 })).toBe('"entryTime" is not a time');
    const site = loadSiteIndex({ ...base, ...lists, titles: rules, entryTime: '2026-01-01T00:00:00Z' });
    if (!site.ok) throw new Error(site.error);
    expect(site.value.entryDates).toEqual(['1914-08-02', '1914-08-03']);
    expect(site.value.entryFragment(0)).toContain('"title": "Sunday 2 August 1914"');
    expect(site.value.entryFragment(1)).toContain('"title": "T"');
    expect([...site.value.topicIds]).toEqual([1, 2, 3]);
  });
});

describe('the topic ids of the site index', () => {
  it('come back from their runs, ascending, whatever the gaps', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: -5, max: 2_000 }), { maxLength: 300 }), (raw) => {
        const ids = [...raw].sort((a, b) => a - b);
        const runs = idRuns(ids);
        expect(idsOfRuns(runs)).toEqual(ids);
        // One run for each gap, and no more.
        const gaps = ids.filter((id, i) => i > 0 && id !== (ids[i - 1] as number) + 1).length;
        expect(runs.length).toBe(ids.length === 0 ? 0 : 2 * (gaps + 1));
      }),
    );
  });

  it('are refused when the runs are not ascending runs of whole numbers', () => {
    for (const runs of [[1], [1, 0], [1, -2], [5, 2, 6, 1], [5, 2, 1, 1], [1.5, 2], ['1', 2], {}, [1, 2 ** 53]])
      expect(idsOfRuns(runs), JSON.stringify(runs)).toBeNull();
    expect(idsOfRuns([5, 2, 7, 1])).toEqual([5, 6, 7]);
  });
});
