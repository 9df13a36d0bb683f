// A diary's period (site.yaml `period`): its first and last day. The Pepys diary's is the default,
// and the Standard Ebooks importer's.

import { type CalendarName, dateProblem } from './calendar.ts';
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

/** True when the date lies in the Pepys diary's period (the Standard Ebooks importer's). */
export function isInPeriod(date: IsoDate): boolean {
  return date >= PERIOD_START && date <= PERIOD_END;
}
