// Entry titles (core/titles.ts) in the site's calendar, locale and convention, and the dates the
// API's addresses accept (core/dates.ts). The calendars themselves: test/calendar.test.ts.

import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../generator/content/config.ts';
import { titleFormat, titleRules } from '../generator/content/locale.ts';
import { weekday } from '../generator/core/calendar.ts';
import { isIsoDate, monthEnd } from '../generator/core/dates.ts';
import type { SiteConfig, TitleConvention } from '../generator/core/model.ts';
import { hasDualYear, hasTitleShape, type TitleFormat, entryTitle as titleOf } from '../generator/core/titles.ts';

const julianWeekday = (y: number, m: number, d: number) => weekday('julian', y, m, d);
const pepys = (convention: TitleConvention): SiteConfig => ({ ...DEFAULT_CONFIG, titleConvention: convention });
const SEED = pepys('seed');
const EVERY_YEAR = pepys('every-year');
const entryTitle = (date: string, convention: 'seed' | 'every-year') =>
  titleOf(date, titleRules(convention === 'seed' ? SEED : EVERY_YEAR));

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Independent check: in 1660–1669 the Julian date D fell on the Gregorian weekday of D + 10 days. */
function weekdayViaGregorian(date: string): string {
  const t = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return WEEKDAYS[new Date(t + 10 * 86_400_000).getUTCDay()] as string;
}

describe('Julian weekday', () => {
  it('makes 1 January 1660 a Sunday, not the Gregorian Thursday', () => {
    expect(julianWeekday(1660, 1, 1)).toBe(0);
    expect(new Date(Date.UTC(1660, 0, 1)).getUTCDay()).toBe(4);
  });

  it('agrees with Gregorian D + 10 days on every day of the period', () => {
    let checked = 0;
    for (let t = Date.UTC(1660, 0, 1); t <= Date.UTC(1669, 4, 31); t += 86_400_000) {
      // Walk the period's Julian dates by their labels; they are also valid Gregorian labels here.
      const date = new Date(t).toISOString().slice(0, 10);
      if (!isIsoDate(date)) continue;
      const [y, m, d] = [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
      expect(WEEKDAYS[julianWeekday(y, m, d)], date).toBe(weekdayViaGregorian(date));
      checked++;
    }
    expect(checked).toBe(3439);
  });

  it('knows the Julian leap day 1700-02-29 that Gregorian lacks', () => {
    // Julian 1700-02-28 is a Sunday-to-Thursday neighbour of 1700-02-29 and 1700-03-01.
    expect((julianWeekday(1700, 2, 28) + 1) % 7).toBe(julianWeekday(1700, 2, 29));
    expect((julianWeekday(1700, 2, 29) + 1) % 7).toBe(julianWeekday(1700, 3, 1));
  });
});

describe('entry titles', () => {
  it('writes the seed convention: dual year only before 25 March 1660', () => {
    expect(entryTitle('1660-01-01', 'seed')).toBe('Sunday 1 January 1659/60');
    expect(entryTitle('1660-03-24', 'seed')).toBe('Saturday 24 March 1659/60');
    expect(entryTitle('1660-03-25', 'seed')).toBe('Sunday 25 March 1660');
    expect(entryTitle('1661-01-20', 'seed')).toBe('Sunday 20 January 1661');
    expect(entryTitle('1669-05-31', 'seed')).toBe('Monday 31 May 1669');
  });

  it('writes the every-year convention of the printed editions', () => {
    expect(entryTitle('1661-01-20', 'every-year')).toBe('Sunday 20 January 1660/61');
    expect(entryTitle('1661-03-24', 'every-year')).toBe('Sunday 24 March 1660/61');
    expect(entryTitle('1661-03-25', 'every-year')).toBe('Monday 25 March 1661');
    expect(entryTitle('1669-12-31', 'every-year')).toBe('Friday 31 December 1669');
    expect(entryTitle('1660-01-01', 'every-year')).toBe('Sunday 1 January 1659/60');
  });

  it('has no leading zero on the day and a two-digit second year', () => {
    expect(entryTitle('1664-02-09', 'seed')).toBe('Tuesday 9 February 1664');
    expect(entryTitle('1664-02-29', 'every-year')).toBe('Monday 29 February 1663/64');
    expect(hasDualYear('1700-01-05', titleRules(EVERY_YEAR))).toBe(true);
    expect(entryTitle('1700-01-05', 'every-year')).toMatch(/ 1699\/00$/);
  });
});

describe('titles in other calendars, locales and conventions', () => {
  const site = (over: Partial<SiteConfig>): SiteConfig => ({ ...DEFAULT_CONFIG, ...over });
  const format = (code: string): TitleFormat => {
    const f = titleFormat(code);
    if (f instanceof Error) throw f;
    return f;
  };

  it("writes a locale's names in its own order (date-fns's full date pattern)", () => {
    const war = site({ calendar: 'gregorian', period: { start: '1914-08-01', end: '1918-11-11' } });
    expect(titleOf('1914-08-02', titleRules({ ...war, locale: 'fr' }))).toBe('dimanche 2 août 1914');
    expect(titleOf('1914-08-02', titleRules({ ...war, locale: 'de' }))).toBe('Sonntag, 2. August 1914');
    expect(titleOf('1914-08-02', titleRules({ ...war, locale: 'es' }))).toBe('domingo, 2 de agosto de 1914');
    expect(titleOf('1914-08-02', titleRules({ ...war, locale: 'en-GB' }))).toBe('Sunday, 2 August 1914');
    expect(titleOf('1914-08-02', titleRules(war))).toBe('Sunday 2 August 1914');
  });

  it('gives the weekday of the date in the calendar it is written in', () => {
    // The same label, eleven days apart: 1752-09-02 Julian was a Wednesday, 1752-09-14 Gregorian a Thursday.
    const british = site({ calendar: 'british', period: { start: '1750-01-01', end: '1755-12-31' } });
    expect(titleOf('1752-09-02', titleRules(british))).toBe('Wednesday 2 September 1752');
    expect(titleOf('1752-09-14', titleRules(british))).toBe('Thursday 14 September 1752');
    expect(titleOf('1752-09-02', titleRules({ ...british, calendar: 'gregorian' }))).toBe('Saturday 2 September 1752');
  });

  it('writes dual years only for Julian dates before 1752, and never under `single`', () => {
    const british = site({
      calendar: 'british',
      titleConvention: 'every-year',
      period: { start: '1750-01-01', end: '1755-12-31' },
    });
    expect(titleOf('1751-02-01', titleRules(british))).toMatch(/ 1750\/51$/);
    // 1752 began on 1 January in England: no dual year from then on.
    expect(titleOf('1752-02-01', titleRules(british))).toMatch(/ 1752$/);
    expect(titleOf('1751-02-01', titleRules({ ...british, calendar: 'gregorian' }))).toMatch(/ 1751$/);
    expect(titleOf('1660-01-01', titleRules(pepys('single')))).toBe('Sunday 1 January 1660');
    // `seed`: in the diary's first year only, whatever that year is.
    const later = site({ period: { start: '1701-01-01', end: '1710-12-31' } });
    expect(titleOf('1701-02-01', titleRules(later))).toMatch(/ 1700\/01$/);
    expect(titleOf('1702-02-01', titleRules(later))).toMatch(/ 1702$/);
  });

  it("checks a given title against the locale's shape", () => {
    expect(hasTitleShape('dimanche 2 août 1914', format('fr'))).toBe(true);
    expect(hasTitleShape('Sunday 2 August 1914', format('fr'))).toBe(false);
    expect(hasTitleShape('Sonntag, 2. August 1914', format('de'))).toBe(true);
    expect(hasTitleShape('Sonntag, 2 August 1914', format('de'))).toBe(false);
    expect(hasTitleShape('Sunday 1 January 1659/60', format('en'))).toBe(true);
    expect(hasTitleShape('Sunday 1 January 1659/61', format('en'))).toBe(false);
  });

  it('refuses what is not a date-fns locale', () => {
    for (const code of ['xx', 'fr-XX', '../../package', '', 'EN'])
      expect(titleFormat(code), code).toBeInstanceOf(Error);
  });
});

describe('calendar dates', () => {
  it('accepts only real dates written YYYY-MM-DD', () => {
    for (const good of ['1660-01-01', '1664-02-29', '2000-02-29', '0001-01-01', '9999-12-31'])
      expect(isIsoDate(good), good).toBe(true);
    for (const bad of [
      '1661-13-01',
      '1661-02-30',
      '1661',
      'yesterday',
      '1661-2-3',
      '1661-02-29',
      '1900-02-29',
      '0000-01-01',
      ' 1661-01-01',
      '1661-01-01 ',
      '１６６１-01-01',
    ])
      expect(isIsoDate(bad), bad).toBe(false);
  });

  it('knows month ends, in the calendar', () => {
    expect(monthEnd('julian', 1660, 2)).toBe('1660-02-29');
    expect(monthEnd('julian', 1661, 2)).toBe('1661-02-28');
    expect(monthEnd('julian', 1669, 4)).toBe('1669-04-30');
    expect(monthEnd('julian', 1700, 2)).toBe('1700-02-29');
    expect(monthEnd('british', 1700, 2)).toBe('1700-02-29');
    expect(monthEnd('gregorian', 1700, 2)).toBe('1700-02-28');
    expect(monthEnd('british', 1900, 2)).toBe('1900-02-28');
    expect(monthEnd('british', 1752, 9)).toBe('1752-09-30');
    expect(monthEnd('gregorian', 999, 12)).toBe('0999-12-31');
  });
});
