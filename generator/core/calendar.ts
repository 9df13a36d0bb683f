// The calendars a diary's dates can be written in, as pure integer arithmetic (no Date: JavaScript's
// Date is proleptic Gregorian only), so that it runs unchanged in Node, Deno and Workers.
// `british` is the calendar of Great Britain and its colonies: Julian up to Wednesday 1752-09-02,
// Gregorian from the next day, Thursday 1752-09-14; the eleven labels between never existed.

export type CalendarName = 'julian' | 'gregorian' | 'british';

export const CALENDARS: readonly CalendarName[] = ['julian', 'gregorian', 'british'];

const DISPLAY: Record<CalendarName, string> = { julian: 'Julian', gregorian: 'Gregorian', british: 'British' };

/** A calendar's name as a sentence writes it: `Julian`, `Gregorian`, `British`. */
export function calendarName(calendar: CalendarName): string {
  return DISPLAY[calendar];
}

const MONTH_NAMES = [
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

// Dates compared as the integer YYYYMMDD, which orders like the dates themselves.
const LAST_JULIAN = 17520902;
const FIRST_GREGORIAN = 17520914;

const key = (year: number, month: number, day: number): number => year * 10000 + month * 100 + day;

/** The calendar whose rules a british date follows (Julian for the gap labels too, see isValidDate). */
function ruleOf(calendar: CalendarName, year: number, month: number, day: number): 'julian' | 'gregorian' {
  if (calendar !== 'british') return calendar;
  return key(year, month, day) < FIRST_GREGORIAN ? 'julian' : 'gregorian';
}

function isLeapYear(rule: 'julian' | 'gregorian', year: number): boolean {
  if (rule === 'julian') return year % 4 === 0;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * The number of the month's last day. British September 1752 answers 30 although only 19 of its
 * days exist (1–2 and 14–30): callers want the month's end, and isValidDate rejects the gap.
 * British 1752 is a Julian leap year (February has 29 days) because the switch came in September.
 */
export function daysInMonth(calendar: CalendarName, year: number, month: number): number {
  if (month === 2) return isLeapYear(ruleOf(calendar, year, 2, 1), year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** True for an existing date: integers, year ≥ 1, month 1–12, day within the month, not in the British gap. */
export function isValidDate(calendar: CalendarName, year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(calendar, year, month)) return false;
  if (calendar !== 'british') return true;
  const k = key(year, month, day);
  return k <= LAST_JULIAN || k >= FIRST_GREGORIAN;
}

/**
 * The Julian Day Number (days since noon, 1 January 4713 BC Julian) of an existing date, by the
 * Fliegel–Van Flandern integer formulas: the year is counted from March so that the leap day ends it.
 * Throws a RangeError for a date that does not exist, rather than answering another date's number.
 */
export function dayNumber(calendar: CalendarName, year: number, month: number, day: number): number {
  if (!isValidDate(calendar, year, month, day)) {
    throw new RangeError(`${year}-${month}-${day} is not a date of the ${DISPLAY[calendar]} calendar`);
  }
  const a = Math.floor((14 - month) / 12);
  const y = year + 4800 - a;
  const m = month + 12 * a - 3;
  const base = day + Math.floor((153 * m + 2) / 5) + 365 * y + Math.floor(y / 4);
  if (ruleOf(calendar, year, month, day) === 'julian') return base - 32083;
  return base - Math.floor(y / 100) + Math.floor(y / 400) - 32045;
}

/** 0 = Sunday … 6 = Saturday (JDN 0 was a Monday). */
export function weekday(calendar: CalendarName, year: number, month: number, day: number): number {
  return (dayNumber(calendar, year, month, day) + 1) % 7;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The parts of a `YYYY-MM-DD` string (ASCII digits, four-digit year), or null; the date may not exist. */
export function parseIsoDate(text: string): { year: number; month: number; day: number } | null {
  const m = ISO_DATE.exec(text);
  return m ? { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) } : null;
}

/** Null when `text` is an existing `YYYY-MM-DD` date of the calendar, else what is wrong with it. */
export function dateProblem(calendar: CalendarName, text: string): string | null {
  const name = DISPLAY[calendar];
  const parts = parseIsoDate(text);
  if (!parts) return `${JSON.stringify(text)} is not a date of the ${name} calendar: it is not written YYYY-MM-DD`;
  const { year, month, day } = parts;
  if (isValidDate(calendar, year, month, day)) return null;
  const notDate = `${text} is not a date of the ${name} calendar`;
  if (year < 1) return `${notDate}: years start at 0001`;
  if (month < 1 || month > 12) return `${notDate}: there is no month ${parts.month}`;
  if (day < 1) return `${notDate}: days start at 01`;
  const length = daysInMonth(calendar, year, month);
  if (day > length) {
    const monthName = MONTH_NAMES[month - 1] as string;
    if (month === 2 && day === 29) return `${notDate}: ${year} is not a leap year in it`;
    return `${notDate}: ${monthName} has ${length} days in ${year}`;
  }
  return `${text} does not exist in the ${name} calendar: the eleven days 1752-09-03 to 1752-09-13 were skipped`;
}
