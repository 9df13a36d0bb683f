// Calendar-date syntax and validity, free of dependencies so that the edge function can use it.
// A date of the API (an address, a `start` or `end`) is a date of the diary's own calendar
// (core/calendar.ts) written `YYYY-MM-DD`; `isIsoDate` is the proleptic Gregorian one (Python's
// `date`), for what is not a diary's date (timestamps, the importer's New Style dates).

import { type CalendarName, daysInMonth } from './calendar.ts';
import type { IsoDate } from './types.ts';

// A real date of a calendar written `YYYY-MM-DD`, years 0001 to 9999, as one regular expression
// (the month's days, and 29 February in the calendar's leap years). One expression, so that a
// list of dates is checked in one native match (areCalendarDates) instead of a call a date: an
// edge isolate's first request checks the 3,413 dates of the whole diary's site index, by V8's
// interpreter, in 1.6-3.6 ms a call a date, 0.4-0.6 ms so. test/properties.test.ts compares the
// Gregorian one with the platform's calendar, test/calendar-dates.test.ts each with calendar.ts.
const DAY = '(?:0[1-9]|1\\d|2[0-8])';
const MONTH_DAY = `(?:(?:0[13578]|1[02])-(?:${DAY}|29|3[01])|(?:0[469]|11)-(?:${DAY}|29|30)|02-${DAY})`;
/** Gregorian leap years: every fourth year, not the centuries but every fourth century. */
const GREGORIAN_LEAP = '(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)';
/** Julian leap years: every fourth year (a year's last two digits tell: 100 is a multiple of 4). */
const JULIAN_LEAP = '\\d\\d(?:[02468][048]|[13579][26])';
/** The centuries before 1752 that the Julian calendar makes leap and the Gregorian does not. */
const JULIAN_ONLY_LEAP_BEFORE_1752 = '(?:0[1235679]|1[013457])00';

const datePattern = (leap: string) => `(?!0000)(?:\\d{4}-${MONTH_DAY}|${leap}-02-29)`;
const PATTERNS: Readonly<Record<CalendarName, string>> = {
  gregorian: datePattern(GREGORIAN_LEAP),
  julian: datePattern(JULIAN_LEAP),
  // Gregorian dates and the Julian leap days of the centuries before the switch, but for the
  // eleven days Britain skipped in September 1752.
  british: `(?!1752-09-(?:0[3-9]|1[0-3]))${datePattern(`(?:${GREGORIAN_LEAP}|${JULIAN_ONLY_LEAP_BEFORE_1752})`)}`,
};

const ONE_DATE = new Map<CalendarName, RegExp>();
const DATE_LINES = new Map<CalendarName, RegExp>();
for (const [calendar, pattern] of Object.entries(PATTERNS) as Array<[CalendarName, string]>) {
  ONE_DATE.set(calendar, new RegExp(`^${pattern}$`));
  DATE_LINES.set(calendar, new RegExp(`^(?:${pattern}\\n)*$`));
}

/** True when `text` is a date of the calendar written `YYYY-MM-DD` (year 0001 to 9999). */
export function isCalendarDate(calendar: CalendarName, text: string): text is IsoDate {
  return (ONE_DATE.get(calendar) as RegExp).test(text);
}

/** True when every one of `texts` is a date of the calendar (one match over all of them). */
export function areCalendarDates(calendar: CalendarName, texts: readonly string[]): texts is readonly IsoDate[] {
  // Each of exactly ten characters, so that the lines of the match are the texts.
  for (let i = 0; i < texts.length; i++) if ((texts[i] as string).length !== 10) return false;
  return texts.length === 0 || (DATE_LINES.get(calendar) as RegExp).test(`${texts.join('\n')}\n`);
}

/** True when `text` is a real date of the proleptic Gregorian calendar written `YYYY-MM-DD`. */
export function isIsoDate(text: string): text is IsoDate {
  return isCalendarDate('gregorian', text);
}

/** True when every one of `texts` is a date as isIsoDate says. */
export function areIsoDates(texts: readonly string[]): texts is readonly IsoDate[] {
  return areCalendarDates('gregorian', texts);
}

export function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** The last day of a month of the calendar, as `YYYY-MM-DD` (Julian 1700-02 ends on the 29th). */
export function monthEnd(calendar: CalendarName, year: number, month: number): IsoDate {
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(daysInMonth(calendar, year, month))}`;
}
