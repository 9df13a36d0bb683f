// Calendar-date syntax and validity, free of dependencies so that the edge function can use it.
// Validity follows the proleptic Gregorian rules, as the reference service (Python's `date`) does.

import type { IsoDate } from './types.ts';

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

// A real calendar date written `YYYY-MM-DD`, years 0001 to 9999, as one regular expression (the
// month's days, and 29 February in the leap years: every fourth year, not the centuries but every
// fourth century). One expression, so that a list of dates is checked in one native match
// (areIsoDates) instead of a call a date: an edge isolate's first request checks the 3,413 dates
// of the whole diary's site index, by V8's interpreter, in 1.6-3.6 ms a call a date, 0.4-0.6 ms
// so. test/properties.test.ts compares it with the platform's calendar, year by year.
const DAY = '(?:0[1-9]|1\\d|2[0-8])';
const LEAP_YEAR = '(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)';
const DATE = `(?!0000)(?:\\d{4}-(?:(?:0[13578]|1[02])-(?:${DAY}|29|3[01])|(?:0[469]|11)-(?:${DAY}|29|30)|02-${DAY})|${LEAP_YEAR}-02-29)`;
const ONE_DATE = new RegExp(`^${DATE}$`);
const DATE_LINES = new RegExp(`^(?:${DATE}\\n)*$`);

/** True when `text` is a real calendar date written `YYYY-MM-DD` (year 0001 to 9999). */
export function isIsoDate(text: string): text is IsoDate {
  return ONE_DATE.test(text);
}

/** True when every one of `texts` is a date as isIsoDate says (one match over all of them). */
export function areIsoDates(texts: readonly string[]): texts is readonly IsoDate[] {
  // Each of exactly ten characters, so that the lines of the match are the texts.
  for (let i = 0; i < texts.length; i++) if ((texts[i] as string).length !== 10) return false;
  return texts.length === 0 || DATE_LINES.test(`${texts.join('\n')}\n`);
}

export function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** The last day of a month, as `YYYY-MM-DD`. */
export function monthEnd(year: number, month: number): IsoDate {
  return `${year}-${pad2(month)}-${pad2(daysInMonth(year, month))}`;
}
