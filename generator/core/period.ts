// The diary's period: the API's first and last day, and the years and months between them.

import { pad2 } from './dates.ts';
import type { IsoDate } from './types.ts';

export const PERIOD_START: IsoDate = '1660-01-01';
export const PERIOD_END: IsoDate = '1669-05-31';

const FIRST_YEAR = Number(PERIOD_START.slice(0, 4));
const LAST_YEAR = Number(PERIOD_END.slice(0, 4));
const FIRST_MONTH = Number(PERIOD_START.slice(5, 7));
const LAST_MONTH = Number(PERIOD_END.slice(5, 7));

/** Every year of the period, in order. */
export const PERIOD_YEARS: readonly number[] = Array.from(
  { length: LAST_YEAR - FIRST_YEAR + 1 },
  (_, i) => FIRST_YEAR + i,
);

/** Every month of the period as `YYYY-MM`, in order. */
export const PERIOD_MONTHS: readonly string[] = PERIOD_YEARS.flatMap((year) => {
  const first = year === FIRST_YEAR ? FIRST_MONTH : 1;
  const last = year === LAST_YEAR ? LAST_MONTH : 12;
  return Array.from({ length: last - first + 1 }, (_, i) => `${year}-${pad2(first + i)}`);
});

export function isInPeriod(date: IsoDate): boolean {
  return date >= PERIOD_START && date <= PERIOD_END;
}
