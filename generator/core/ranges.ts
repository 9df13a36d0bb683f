// Date-range filtering over the entries, sorted by date: two binary searches, no scan.

import type { IsoDate } from './types.ts';

/** Index of the first item >= `value` in an ascending list (dates, any strings, or numbers). */
export function lowerBound<T extends string | number>(sorted: readonly T[], value: T): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as T) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first date > `date`. */
function upperBound(dates: readonly IsoDate[], date: IsoDate): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((dates[mid] as IsoDate) <= date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The half-open slice [from, to) of the dates within start..end, both inclusive and optional. */
export function dateRange(
  dates: readonly IsoDate[],
  start: IsoDate | undefined,
  end: IsoDate | undefined,
): { from: number; to: number } {
  const from = start === undefined ? 0 : lowerBound(dates, start);
  const to = end === undefined ? dates.length : upperBound(dates, end);
  return to < from ? { from, to: from } : { from, to };
}
