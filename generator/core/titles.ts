// Entry titles in the diary's own calendar and language: the weekday the calendar gives the date,
// the names and word order of the site's locale (content/locale.ts reads them from date-fns), and
// the dual year of Julian dates before 25 March (Lady Day, the legal new year in England until
// 1752) where the title convention asks for it. Pure: the edge runtimes may import it.

import { type CalendarName, weekday } from './calendar.ts';
import type { TitleConvention } from './model.ts';
import type { IsoDate } from './types.ts';

/** One piece of a title's pattern: text as it is, or a field of the date. */
export type TitlePart =
  | { literal: string }
  | { field: 'weekday' | 'day' | 'day2' | 'dayOrdinal' | 'month' | 'monthNumber' | 'monthNumber2' | 'year' };

/** How a locale writes a date in full. */
export interface TitleFormat {
  /** Wide weekday names, Sunday first. */
  weekdays: readonly string[];
  /** Wide month names as a date writes them, January first. */
  months: readonly string[];
  /** The day as an ordinal (`dayOrdinal`), days 1 to 31, first at index 1. */
  ordinals: readonly string[];
  parts: readonly TitlePart[];
}

/** What an entry's title depends on besides its date (the site's configuration). */
export interface TitleRules {
  calendar: CalendarName;
  convention: TitleConvention;
  /** The first day of the diary: the `seed` convention writes dual years in its first year only. */
  periodStart: IsoDate;
  format: TitleFormat;
}

function parts(date: IsoDate): [number, number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

/** True when the date is one of the Julian calendar under `calendar`. */
function isJulianDate(calendar: CalendarName, date: IsoDate): boolean {
  return calendar === 'julian' || (calendar === 'british' && date <= '1752-09-02');
}

/**
 * True when the date's title carries a dual year: a Julian date before 1752 (the year 1752 began
 * on 1 January in England), before Lady Day; under `seed`, in the diary's first year only; never
 * under `single`.
 */
export function hasDualYear(date: IsoDate, rules: Omit<TitleRules, 'format'>): boolean {
  if (rules.convention === 'single' || !isJulianDate(rules.calendar, date) || date >= '1752-01-01') return false;
  const [year, month, day] = parts(date);
  const beforeLadyDay = month < 3 || (month === 3 && day < 25);
  if (!beforeLadyDay) return false;
  return rules.convention === 'every-year' || year === Number(rules.periodStart.slice(0, 4));
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The title of the entry of `date`, e.g. `Sunday 1 January 1659/60`, `dimanche 2 août 1914`. */
export function entryTitle(date: IsoDate, rules: TitleRules): string {
  const [year, month, day] = parts(date);
  const { format } = rules;
  const yearText = hasDualYear(date, rules) ? `${year - 1}/${String(year).slice(-2)}` : String(year);
  const field = (name: Extract<TitlePart, { field: string }>['field']): string => {
    switch (name) {
      case 'weekday':
        return format.weekdays[weekday(rules.calendar, year, month, day)] as string;
      case 'day':
        return String(day);
      case 'day2':
        return pad2(day);
      case 'dayOrdinal':
        return format.ordinals[day] as string;
      case 'month':
        return format.months[month - 1] as string;
      case 'monthNumber':
        return String(month);
      case 'monthNumber2':
        return pad2(month);
      case 'year':
        return yearText;
    }
  };
  return format.parts.map((p) => ('literal' in p ? p.literal : field(p.field))).join('');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const shapes = new WeakMap<TitleFormat, RegExp>();

/** What a field of a title may be written as, in a regular expression. */
function fieldPattern(field: Extract<TitlePart, { field: string }>['field'], format: TitleFormat): string {
  const alternatives = (names: readonly string[]) => `(?:${names.map(escapeRegExp).join('|')})`;
  switch (field) {
    case 'weekday':
      return alternatives(format.weekdays);
    case 'month':
      return alternatives(format.months);
    case 'dayOrdinal':
      return alternatives(format.ordinals.slice(1));
    case 'day':
      return '(?:[1-9]|[12][0-9]|3[01])';
    case 'day2':
      return '(?:0[1-9]|[12][0-9]|3[01])';
    case 'monthNumber':
      return '(?:[1-9]|1[0-2])';
    case 'monthNumber2':
      return '(?:0[1-9]|1[0-2])';
    case 'year':
      return '(?<year>[0-9]{4})(?:/(?<next>[0-9]{2}))?';
  }
}

/**
 * True when a title given in an entry's file keeps the locale's shape: the same words in the same
 * order, a weekday and a month of the locale, a day of 1 to 31, the year written YYYY or as a dual
 * year YYYY/YY (the second year the next one). An override may spell a date differently (an
 * edition's own dual year), so the weekday and day are not checked against the date.
 */
export function hasTitleShape(title: string, format: TitleFormat): boolean {
  let shape = shapes.get(format);
  if (shape === undefined) {
    const source = format.parts
      .map((p) => ('literal' in p ? escapeRegExp(p.literal) : fieldPattern(p.field, format)))
      .join('');
    shape = new RegExp(`^${source}$`, 'u');
    shapes.set(format, shape);
  }
  const m = shape.exec(title);
  if (m === null) return false;
  const next = m.groups?.next;
  return next === undefined || next === String(Number(m.groups?.year) + 1).slice(-2);
}
