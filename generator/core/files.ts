// Where each pre-rendered answer lives under the output directory. The build writes these
// paths, the local server and the edge function look them up, the CDN rules point at them:
// one mapping for all three.

import type { Collection, IsoDate } from './types.ts';

/** The API's first and last day: the diary's period. */
export const PERIOD_START: IsoDate = '1660-01-01';
export const PERIOD_END: IsoDate = '1669-05-31';
export const PERIOD_YEARS: readonly number[] = [1660, 1661, 1662, 1663, 1664, 1665, 1666, 1667, 1668, 1669];

/** Every (year, month) of the period, in order. */
export function periodMonths(): Array<{ year: number; month: number }> {
  const months: Array<{ year: number; month: number }> = [];
  for (const year of PERIOD_YEARS) {
    const last = year === 1669 ? 5 : 12;
    for (let month = 1; month <= last; month++) months.push({ year, month });
  }
  return months;
}

export const ROOT_FILE = 'api/v1/index.json';
/** The compact index the local server and the edge function load (not part of the API). */
export const SITE_INDEX_FILE = '_data/site-index.json';

export function listPageFile(collection: Collection, page: number): string {
  return `api/v1/${collection}/pages/${page}.json`;
}

export function yearPageFile(year: number, page: number): string {
  return `api/v1/entries/years/${year}/pages/${page}.json`;
}

/** `month` is `YYYY-MM`. */
export function monthPageFile(month: string, page: number): string {
  return `api/v1/entries/months/${month}/pages/${page}.json`;
}

export function detailFile(collection: Collection, key: string): string {
  return `api/v1/${collection}/${key}.json`;
}
