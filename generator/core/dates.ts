// Calendar-date syntax and validity, free of dependencies so that the edge function can use it.
// Validity follows the proleptic Gregorian rules, as the reference service (Python's `date`) does.

import type { IsoDate } from './types.ts';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** True when `text` is a real calendar date written `YYYY-MM-DD` (year 0001 to 9999). */
export function isIsoDate(text: string): text is IsoDate {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** The last day of a month, as `YYYY-MM-DD`. */
export function monthEnd(year: number, month: number): IsoDate {
  return `${year}-${pad2(month)}-${pad2(daysInMonth(year, month))}`;
}
