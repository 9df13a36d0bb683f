// The one list of the lists the build writes out in full, page by page: the three unfiltered
// lists, and the entries of each year and each month of the diary's period. The renderer writes
// exactly these, answer() serves a request from them when it names one, and the CDN rules map
// onto them.

import type { CalendarName } from './calendar.ts';
import { monthEnd } from './dates.ts';
import type { LinkFilters } from './pagination.ts';
import { type Period, periodMonths, periodYears } from './period.ts';
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

const key = (collection: Collection, filters: LinkFilters) =>
  `${collection}|${filters.start ?? ''}|${filters.end ?? ''}`;

interface Lists {
  all: readonly PrerenderedList[];
  byKey: ReadonlyMap<string, PrerenderedList>;
}

// By period: a build, a server and an isolate each have one (or one at a time).
const made = new Map<string, Lists>();

function listsOf(period: Period, calendar: CalendarName): Lists {
  const id = `${period.start}|${period.end}|${calendar}`;
  let lists = made.get(id);
  if (lists === undefined) {
    const all: PrerenderedList[] = [
      unfiltered('entries'),
      ...periodYears(period).map((year) => ({
        collection: 'entries' as const,
        filters: { start: `${year}-01-01`, end: `${year}-12-31` },
        dir: `api/v1/entries/years/${year}`,
      })),
      ...periodMonths(period).map((month) => ({
        collection: 'entries' as const,
        filters: { start: `${month}-01`, end: monthEnd(calendar, Number(month.slice(0, 4)), Number(month.slice(5, 7))) },
        dir: `api/v1/entries/months/${month}`,
      })),
      unfiltered('categories'),
      unfiltered('topics'),
    ];
    lists = { all, byKey: new Map(all.map((list) => [key(list.collection, list.filters), list])) };
    if (made.size > 16) made.clear();
    made.set(id, lists);
  }
  return lists;
}

/** Every pre-rendered list of a diary of this period, in its calendar (a month's last day). */
export function prerenderedLists(period: Period, calendar: CalendarName): readonly PrerenderedList[] {
  return listsOf(period, calendar).all;
}

/** The pre-rendered list that these exact filters select, if the build writes one. */
export function prerenderedList(
  collection: Collection,
  filters: LinkFilters,
  period: Period,
  calendar: CalendarName,
): PrerenderedList | null {
  return listsOf(period, calendar).byKey.get(key(collection, filters)) ?? null;
}
