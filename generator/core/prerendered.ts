// The one list of the lists the build writes out in full, page by page: the three unfiltered
// lists, and the entries of each year and each month of the diary's period that has entries. The
// renderer writes exactly these, answer() serves a request from them when it names one, and the
// CDN rules map onto them.
//
// Only the years and months that have entries: the file count follows the content, not the
// period (a period of 10,000 years made 163,312 files for 171 entries, past every CDN's cap). An
// empty year's or month's list is one page of no results, which the handler computes as it does
// any range, byte for byte the file it was (test/prerendered-lists.test.ts).

import type { CalendarName } from './calendar.ts';
import { monthEnd } from './dates.ts';
import type { LinkFilters } from './pagination.ts';
import type { Period } from './period.ts';
import type { Collection, IsoDate } from './types.ts';

export interface PrerenderedList {
  collection: Collection;
  /** The filters that select it (entries only); its links repeat them. */
  filters: LinkFilters;
  /** Directory of its pages under the output directory (core/files.ts pageFile). */
  dir: string;
}

/**
 * What decides a site's pre-rendered lists: its period, its calendar (a month's last day) and its
 * entries' dates, ascending.
 */
export interface ListedDiary {
  period: Period;
  calendar: CalendarName;
  entryDates: readonly IsoDate[];
}

const unfiltered = (collection: Collection): PrerenderedList => ({
  collection,
  filters: {},
  dir: `api/v1/${collection}`,
});

const key = (collection: Collection, filters: LinkFilters) =>
  `${collection}|${filters.start ?? ''}|${filters.end ?? ''}`;

interface Lists {
  period: string;
  all: readonly PrerenderedList[];
  byKey: ReadonlyMap<string, PrerenderedList>;
}

// By the dates' list: a build, a server and an isolate each have one (or one at a time); a
// request finds its site's lists without going through the dates again.
const made = new WeakMap<readonly IsoDate[], Lists>();

/** The years (`YYYY`) and months (`YYYY-MM`) of the period that hold an entry, ascending. */
function filledYearsAndMonths(diary: ListedDiary): { years: string[]; months: string[] } {
  const { start, end } = diary.period;
  const years: string[] = [];
  const months: string[] = [];
  for (const date of diary.entryDates) {
    if (date < start || date > end) continue;
    const month = date.slice(0, 7);
    if (months[months.length - 1] === month) continue;
    months.push(month);
    const year = date.slice(0, 4);
    if (years[years.length - 1] !== year) years.push(year);
  }
  return { years, months };
}

function listsOf(diary: ListedDiary): Lists {
  const period = `${diary.period.start}|${diary.period.end}|${diary.calendar}`;
  let lists = made.get(diary.entryDates);
  if (lists === undefined || lists.period !== period) {
    const { years, months } = filledYearsAndMonths(diary);
    const all: PrerenderedList[] = [
      unfiltered('entries'),
      ...years.map((year) => ({
        collection: 'entries' as const,
        filters: { start: `${year}-01-01`, end: `${year}-12-31` },
        dir: `api/v1/entries/years/${year}`,
      })),
      ...months.map((month) => ({
        collection: 'entries' as const,
        filters: {
          start: `${month}-01`,
          end: monthEnd(diary.calendar, Number(month.slice(0, 4)), Number(month.slice(5, 7))),
        },
        dir: `api/v1/entries/months/${month}`,
      })),
      unfiltered('categories'),
      unfiltered('topics'),
    ];
    lists = { period, all, byKey: new Map(all.map((list) => [key(list.collection, list.filters), list])) };
    made.set(diary.entryDates, lists);
  }
  return lists;
}

/** Every pre-rendered list of a diary. */
export function prerenderedLists(diary: ListedDiary): readonly PrerenderedList[] {
  return listsOf(diary).all;
}

/** The pre-rendered list that these exact filters select, if the build writes one. */
export function prerenderedList(
  collection: Collection,
  filters: LinkFilters,
  diary: ListedDiary,
): PrerenderedList | null {
  return listsOf(diary).byKey.get(key(collection, filters)) ?? null;
}
