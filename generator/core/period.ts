// A diary's period (site.yaml `period`): its first and last day, and the years and months between
// them. The Pepys diary's is the default, and the Standard Ebooks importer's.

import { type CalendarName, dateProblem } from './calendar.ts';
import { pad2 } from './dates.ts';
import type { IsoDate } from './types.ts';

export interface Period {
  start: IsoDate;
  end: IsoDate;
}

export const PERIOD_START: IsoDate = '1660-01-01';
export const PERIOD_END: IsoDate = '1669-05-31';
export const PEPYS_PERIOD: Period = { start: PERIOD_START, end: PERIOD_END };

/**
 * What is wrong with a period of a calendar, or null: each day must exist in it, the start come
 * no later than the end. The one check of site.yaml's `period`, `--period` and `init --start`.
 */
export function periodProblem(calendar: CalendarName, start: string, end: string): string | null {
  return (
    dateProblem(calendar, start) ??
    dateProblem(calendar, end) ??
    (start > end ? `its start ${start} comes after its end ${end}` : null)
  );
}

/** Every year of the period, in order. */
export function periodYears(period: Period): number[] {
  const first = Number(period.start.slice(0, 4));
  const last = Number(period.end.slice(0, 4));
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** Every month of the period as `YYYY-MM`, in order. */
export function periodMonths(period: Period): string[] {
  const firstYear = Number(period.start.slice(0, 4));
  const lastYear = Number(period.end.slice(0, 4));
  return periodYears(period).flatMap((year) => {
    const first = year === firstYear ? Number(period.start.slice(5, 7)) : 1;
    const last = year === lastYear ? Number(period.end.slice(5, 7)) : 12;
    const yyyy = String(year).padStart(4, '0');
    return Array.from({ length: last - first + 1 }, (_, i) => `${yyyy}-${pad2(first + i)}`);
  });
}

/** True when the date lies in the Pepys diary's period (the Standard Ebooks importer's). */
export function isInPeriod(date: IsoDate): boolean {
  return date >= PERIOD_START && date <= PERIOD_END;
}
