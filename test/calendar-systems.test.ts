import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CALENDARS,
  type CalendarName,
  dateProblem,
  dayNumber,
  daysInMonth,
  isValidDate,
  parseIsoDate,
  weekday,
} from '../generator/core/calendar.ts';

// The reference model below shares no code with the module: Julian Day Numbers come from Meeus's
// floating-point algorithm (Astronomical Algorithms, ch. 7) and, for Gregorian dates, also from
// JavaScript's Date (proleptic Gregorian); leap years and month lengths are written out afresh.

const RUNS = { numRuns: 400 };
const NAMES: Record<CalendarName, string> = { julian: 'Julian', gregorian: 'Gregorian', british: 'British' };

type Ymd = [number, number, number];

const refJulianLeap = (y: number): boolean => y % 4 === 0;
const refGregorianLeap = (y: number): boolean => (y % 400 === 0 ? true : y % 100 === 0 ? false : y % 4 === 0);
const before = ([y, m, d]: Ymd, [y2, m2, d2]: Ymd): boolean => (y !== y2 ? y < y2 : m !== m2 ? m < m2 : d < d2);
const GAP_START: Ymd = [1752, 9, 3];
const GAP_END: Ymd = [1752, 9, 13];
const inGap = (date: Ymd): boolean => !before(date, GAP_START) && !before(GAP_END, date);
/** Which calendar's rules a british date follows: Julian up to the gap's end. */
const refRule = (calendar: CalendarName, date: Ymd): 'julian' | 'gregorian' =>
  calendar !== 'british' ? calendar : before(GAP_END, date) ? 'gregorian' : 'julian';

function refMonthLength(rule: 'julian' | 'gregorian', y: number, m: number): number {
  const leap = rule === 'julian' ? refJulianLeap(y) : refGregorianLeap(y);
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] as number;
}

function refValid(calendar: CalendarName, date: Ymd): boolean {
  const [y, m, d] = date;
  if (![y, m, d].every(Number.isInteger) || y < 1 || m < 1 || m > 12 || d < 1) return false;
  if (d > refMonthLength(refRule(calendar, date), y, m)) return false;
  return !(calendar === 'british' && inGap(date));
}

/** Meeus: JD at noon of the date, so JDN = JD + 0.5 exactly. */
function meeusJdn(rule: 'julian' | 'gregorian', [year, month, day]: Ymd): number {
  let y = year;
  let m = month;
  if (m <= 2) {
    y -= 1;
    m += 12;
  }
  const a = Math.floor(y / 100);
  const b = rule === 'gregorian' ? 2 - a + Math.floor(a / 4) : 0;
  return Math.floor(365.25 * (y + 4716)) + Math.floor(30.6001 * (m + 1)) + day + b - 1524.5 + 0.5;
}

/** Gregorian JDN from Date: 1970-01-01 is JDN 2440588. setUTCFullYear avoids Date.UTC's 0–99 → 1900s quirk. */
function dateJdn([y, m, d]: Ymd): number {
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d);
  return Math.round(t.getTime() / 86_400_000) + 2440588;
}

const refJdn = (calendar: CalendarName, date: Ymd): number => meeusJdn(refRule(calendar, date), date);

/** The next existing date, stepping by the reference month lengths and jumping the British gap. */
function refNext(calendar: CalendarName, date: Ymd): Ymd {
  const [y, m, d] = date;
  if (calendar === 'british' && y === 1752 && m === 9 && d === 2) return [1752, 9, 14];
  if (d < refMonthLength(refRule(calendar, date), y, m)) return [y, m, d + 1];
  return m < 12 ? [y, m + 1, 1] : [y + 1, 1, 1];
}

const iso = ([y, m, d]: Ymd): string =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

// Years across the whole range, with extra weight on the calendar reform and century years.
const year = fc.oneof(
  fc.integer({ min: 1, max: 9999 }),
  fc.integer({ min: 1740, max: 1760 }),
  fc.constantFrom(1, 4, 100, 1582, 1600, 1700, 1752, 1800, 1900, 2000, 2100, 9999),
);
const calendar = fc.constantFrom(...CALENDARS);
const anyDate = fc.tuple(year, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }));
const validIn = (cal: CalendarName) => anyDate.filter((date) => refValid(cal, date));
const calendarAndDate = calendar.chain((cal) => fc.tuple(fc.constant(cal), validIn(cal)));

describe('calendar anchors', () => {
  it('knows the weekdays of famous dates', () => {
    expect(weekday('julian', 1752, 9, 2)).toBe(3); // Wednesday, last Julian day in Britain
    expect(weekday('gregorian', 1752, 9, 14)).toBe(4); // Thursday, first Gregorian day
    expect(weekday('british', 1752, 9, 2)).toBe(3);
    expect(weekday('british', 1752, 9, 14)).toBe(4);
    expect(weekday('julian', 1660, 1, 1)).toBe(0); // "Sunday 1 January 1659/60"
    expect(weekday('british', 1660, 1, 1)).toBe(0);
    expect(weekday('gregorian', 1914, 8, 2)).toBe(0);
    expect(weekday('gregorian', 2000, 1, 1)).toBe(6);
  });

  it('knows day numbers across the reforms', () => {
    expect(dayNumber('gregorian', 2000, 1, 1)).toBe(2451545);
    expect(dayNumber('british', 2000, 1, 1)).toBe(2451545);
    expect(dayNumber('gregorian', 1582, 10, 15)).toBe(dayNumber('julian', 1582, 10, 4) + 1);
    expect(dayNumber('british', 1752, 9, 14)).toBe(dayNumber('british', 1752, 9, 2) + 1);
    expect(dayNumber('julian', 1752, 9, 3)).toBe(dayNumber('gregorian', 1752, 9, 14));
    expect(dayNumber('julian', 1, 1, 1)).toBe(1721424);
    expect(dayNumber('gregorian', 1, 1, 1)).toBe(1721426);
  });

  it('knows the leap days that divide the calendars', () => {
    expect([isValidDate('julian', 1700, 2, 29), isValidDate('gregorian', 1700, 2, 29)]).toEqual([true, false]);
    expect([isValidDate('julian', 2000, 2, 29), isValidDate('gregorian', 2000, 2, 29)]).toEqual([true, true]);
    expect([isValidDate('julian', 1900, 2, 29), isValidDate('gregorian', 1900, 2, 29)]).toEqual([true, false]);
    expect(isValidDate('british', 1700, 2, 29)).toBe(true); // still Julian in Britain
    expect(isValidDate('british', 1752, 2, 29)).toBe(true); // the switch came in September
    expect(isValidDate('british', 1800, 2, 29)).toBe(false);
    expect(daysInMonth('british', 1752, 2)).toBe(29);
    expect(daysInMonth('british', 1752, 9)).toBe(30);
  });

  it('rejects non-integers, year 0 and out-of-range parts, and refuses day numbers for them', () => {
    for (const cal of CALENDARS) {
      for (const [y, m, d] of [
        [1660, 1, 1.5],
        [1660, 0, 1],
        [1660, 13, 1],
        [1660, 1, 0],
        [0, 1, 1],
        [Number.NaN, 1, 1],
      ] as Ymd[]) {
        expect(isValidDate(cal, y, m, d), `${cal} ${y}-${m}-${d}`).toBe(false);
        expect(() => dayNumber(cal, y, m, d)).toThrow(RangeError);
      }
    }
    expect(() => weekday('british', 1752, 9, 5)).toThrow(RangeError);
  });

  it('walks every day from 1500 to 1800 in each calendar, one day number at a time', () => {
    for (const cal of CALENDARS) {
      let date: Ymd = [1500, 1, 1];
      let n = dayNumber(cal, ...date);
      let count = 0;
      const wrong: string[] = []; // collected, not expected one by one: 110,000 expects take seconds
      while (date[0] < 1800) {
        const next = refNext(cal, date);
        const m = isValidDate(cal, ...next) ? dayNumber(cal, ...next) : Number.NaN;
        if (m !== n + 1 || weekday(cal, ...date) !== (n + 1) % 7) wrong.push(`${cal} ${iso(next)}: ${m}`);
        n = m;
        date = next;
        count++;
      }
      expect(wrong.slice(0, 5)).toEqual([]);
      // 300 years of 365 days plus their leap days; Britain also loses the eleven days.
      const leapDays = { julian: 75, gregorian: 73, british: 75 }[cal]; // 1700 was a leap year in Britain
      expect(count, cal).toBe(300 * 365 + leapDays - (cal === 'british' ? 11 : 0));
    }
  });
});

describe('calendar properties', () => {
  it('day numbers agree with Meeus for Julian and Gregorian dates, and with Date for Gregorian', () => {
    fc.assert(
      fc.property(validIn('julian'), (date) => dayNumber('julian', ...date) === meeusJdn('julian', date)),
      RUNS,
    );
    fc.assert(
      fc.property(validIn('gregorian'), (date) => {
        const n = dayNumber('gregorian', ...date);
        return n === meeusJdn('gregorian', date) && n === dateJdn(date);
      }),
      RUNS,
    );
  });

  it('day numbers and weekdays step by one to the next existing date in every calendar', () => {
    fc.assert(
      fc.property(calendarAndDate, ([cal, date]) => {
        const next = refNext(cal, date);
        expect(dayNumber(cal, ...date)).toBe(refJdn(cal, date));
        expect(isValidDate(cal, ...next)).toBe(true);
        expect(dayNumber(cal, ...next)).toBe(dayNumber(cal, ...date) + 1);
        expect(weekday(cal, ...next)).toBe((weekday(cal, ...date) + 1) % 7);
      }),
      RUNS,
    );
  });

  it('validity of any (year, month, day) follows the reference leap rules', () => {
    const part = fc.oneof(fc.integer({ min: -2, max: 35 }), fc.constantFrom(0.5, 29.5, Number.NaN, Infinity));
    const date = fc.tuple(fc.oneof(year, fc.integer({ min: -5, max: 0 })), part, part);
    fc.assert(
      fc.property(calendar, date, (cal, [y, m, d]) => isValidDate(cal, y, m, d) === refValid(cal, [y, m, d])),
      { numRuns: 1000 },
    );
  });

  it('british is julian up to 1752-09-02, gregorian from 1752-09-14, and has no dates between', () => {
    fc.assert(
      fc.property(anyDate, (date) => {
        const british = isValidDate('british', ...date);
        if (inGap(date)) return !british;
        const rule = before(date, GAP_START) ? 'julian' : 'gregorian';
        if (british !== isValidDate(rule, ...date)) return false;
        return !british || dayNumber('british', ...date) === dayNumber(rule, ...date);
      }),
      { numRuns: 1000 },
    );
    for (let d = 3; d <= 13; d++) {
      expect(isValidDate('british', 1752, 9, d)).toBe(false);
      expect(dateProblem('british', iso([1752, 9, d]))).toMatch(/British/);
      expect(isValidDate('julian', 1752, 9, d) && isValidDate('gregorian', 1752, 9, d)).toBe(true);
    }
  });

  it('dateProblem is null exactly for existing dates, else names the date, the calendar and why', () => {
    const shaped = fc
      .tuple(fc.oneof(year, fc.constant(0)), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
      .map(iso);
    fc.assert(
      fc.property(calendar, fc.oneof(shaped, fc.string({ maxLength: 12 })), (cal, text) => {
        const problem = dateProblem(cal, text);
        const parts = parseIsoDate(text);
        const exists = parts !== null && isValidDate(cal, parts.year, parts.month, parts.day);
        expect(problem === null).toBe(exists);
        if (parts) expect(exists).toBe(refValid(cal, [parts.year, parts.month, parts.day]));
        if (problem !== null) {
          expect(problem).toContain(NAMES[cal]);
          expect(problem).toContain(parts ? text : JSON.stringify(text));
          expect(problem).toMatch(/: \S/); // a reason follows the colon
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('dateProblem says why in words', () => {
    expect(dateProblem('gregorian', '1700-02-29')).toBe(
      '1700-02-29 is not a date of the Gregorian calendar: 1700 is not a leap year in it',
    );
    expect(dateProblem('julian', '1700-02-29')).toBeNull();
    expect(dateProblem('british', '1752-09-05')).toBe(
      '1752-09-05 does not exist in the British calendar: the eleven days 1752-09-03 to 1752-09-13 were skipped',
    );
    expect(dateProblem('gregorian', '2023-02-30')).toBe(
      '2023-02-30 is not a date of the Gregorian calendar: February has 28 days in 2023',
    );
    expect(dateProblem('julian', '1661-13-01')).toMatch(/no month 13/);
    expect(dateProblem('julian', '1661-04-31')).toMatch(/April has 30 days/);
    expect(dateProblem('julian', '0000-01-01')).toMatch(/0001/);
    expect(dateProblem('julian', '1660-1-01')).toMatch(/YYYY-MM-DD/);
  });

  it('parseIsoDate reads exactly YYYY-MM-DD', () => {
    for (const bad of ['1660-1-01', '16600101', '1660-01-01x', '', ' 1660-01-01', '660-01-01', '１６６０-01-01'])
      expect(parseIsoDate(bad), bad).toBeNull();
    expect(parseIsoDate('1752-09-05')).toEqual({ year: 1752, month: 9, day: 5 });
    expect(parseIsoDate('0000-99-00')).toEqual({ year: 0, month: 99, day: 0 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.nat(99), fc.nat(99), (y, m, d) => {
        expect(parseIsoDate(iso([y, m, d]))).toEqual({ year: y, month: m, day: d });
      }),
      RUNS,
    );
  });
});
