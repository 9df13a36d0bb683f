// Date arithmetic for the import: the edition's dates are Gregorian (New Style), the diary's — and
// the API's — are Julian (Old Style). Only plain ISO strings cross this module's boundary.

import { addDays as addCalendarDays, format, parseISO } from 'date-fns';
import { isIsoDate } from '../core/dates.ts';

/** `iso` plus `days` days (negative to go back), in the proleptic Gregorian calendar. */
function addDays(iso: string, days: number): string {
  if (!isIsoDate(iso)) throw new Error(`not a date: ${iso}`);
  // date-fns works on local dates; formatting back in local time keeps the label exact.
  return format(addCalendarDays(parseISO(iso), days), 'yyyy-MM-dd');
}

// From 15 October 1582 (Gregorian) to 28 February 1700 (Gregorian) the Julian calendar ran ten
// days behind. Both calendars have the same leap days in that span (1600 is a leap year in both),
// so the Julian label is the Gregorian label of the day ten days earlier.
const TEN_DAY_SPAN_START = '1582-10-15';
const TEN_DAY_SPAN_END = '1700-02-28';

/** The Julian (Old Style) date of a Gregorian date between 1582-10-15 and 1700-02-28. */
export function gregorianToJulian(gregorian: string): string {
  if (!isIsoDate(gregorian) || gregorian < TEN_DAY_SPAN_START || gregorian > TEN_DAY_SPAN_END) {
    throw new Error(`cannot convert ${gregorian}: outside the ten-day span 1582-10-15 … 1700-02-28`);
  }
  return addDays(gregorian, -10);
}

/** Every ISO date from `first` to `last` inclusive. */
export function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) days.push(d);
  return days;
}

/** Zero-padded ISO date from the edition's unpadded `yyyy-m-d` (as in `entry-1660-1-11`). */
export function padLooseDate(loose: string): string | null {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(loose);
  if (!m) return null;
  const iso = `${m[1]}-${(m[2] as string).padStart(2, '0')}-${(m[3] as string).padStart(2, '0')}`;
  return isIsoDate(iso) ? iso : null;
}
