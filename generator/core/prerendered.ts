// The one list of the lists the build writes out in full, page by page: the three unfiltered
// lists, and the entries of each year and each month of the period. The renderer writes exactly
// these, answer() serves a request from them when it names one, and the CDN rules map onto them.

import { monthEnd } from './dates.ts';
import type { LinkFilters } from './pagination.ts';
import { PERIOD_MONTHS, PERIOD_YEARS } from './period.ts';
import type { Collection } from './types.ts';

export interface PrerenderedList {
  collection: Collection;
  /** The filters that select it (entries only); its links repeat them. */
  filters: LinkFilters;
  /** Directory of its pages under the output directory (core/files.ts pageFile). */
  dir: string;
}

const unfiltered = (collection: Collection): PrerenderedList => ({
  collection,
  filters: {},
  dir: `api/v1/${collection}`,
});

export const PRERENDERED_LISTS: readonly PrerenderedList[] = [
  unfiltered('entries'),
  ...PERIOD_YEARS.map((year) => ({
    collection: 'entries' as const,
    filters: { start: `${year}-01-01`, end: `${year}-12-31` },
    dir: `api/v1/entries/years/${year}`,
  })),
  ...PERIOD_MONTHS.map((month) => ({
    collection: 'entries' as const,
    filters: { start: `${month}-01`, end: monthEnd(Number(month.slice(0, 4)), Number(month.slice(5, 7))) },
    dir: `api/v1/entries/months/${month}`,
  })),
  unfiltered('categories'),
  unfiltered('topics'),
];

const key = (collection: Collection, filters: LinkFilters) =>
  `${collection}|${filters.start ?? ''}|${filters.end ?? ''}`;
const BY_KEY = new Map(PRERENDERED_LISTS.map((list) => [key(list.collection, list.filters), list]));

/** The pre-rendered list that these exact filters select, if the build writes one. */
export function prerenderedList(collection: Collection, filters: LinkFilters): PrerenderedList | null {
  return BY_KEY.get(key(collection, filters)) ?? null;
}
