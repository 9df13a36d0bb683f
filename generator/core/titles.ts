// Entry titles in the diary's own calendar: Julian (Old Style) dates, the Julian weekday, and
// the dual year of dates before 25 March (Lady Day, the legal new year until 1752).

import type { TitleConvention } from './model.ts';
import type { IsoDate } from './types.ts';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Julian Day Number of a date of the Julian calendar (valid for all years after 4800 BC). */
function julianDayNumber(year: number, month: number, day: number): number {
  const a = Math.floor((14 - month) / 12);
  const y = year + 4800 - a;
  const m = month + 12 * a - 3;
  return day + Math.floor((153 * m + 2) / 5) + 365 * y + Math.floor(y / 4) - 32083;
}

/** 0 = Sunday … 6 = Saturday, for a date of the Julian calendar. */
export function julianWeekday(year: number, month: number, day: number): number {
  return (julianDayNumber(year, month, day) + 1) % 7;
}

function parts(date: IsoDate): [number, number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

/** True when the date's title carries a dual year under `convention`. */
export function hasDualYear(date: IsoDate, convention: TitleConvention): boolean {
  const [, month, day] = parts(date);
  const beforeLadyDay = month < 3 || (month === 3 && day < 25);
  return convention === 'every-year' ? beforeLadyDay : date < '1660-03-25';
}

/** `<Weekday> <day> <Month> <year>`, e.g. `Sunday 1 January 1659/60`. */
export function entryTitle(date: IsoDate, convention: TitleConvention): string {
  const [year, month, day] = parts(date);
  const weekday = WEEKDAYS[julianWeekday(year, month, day)] as string;
  const yearText = hasDualYear(date, convention) ? `${year - 1}/${String(year).slice(-2)}` : String(year);
  return `${weekday} ${day} ${MONTHS[month - 1] as string} ${yearText}`;
}
