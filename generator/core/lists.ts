// The list module: any page of any list, for any (start, end, page), from pre-rendered record
// fragments. Pure and dependency-free: the build, the local server and the edge functions all
// render list pages here. Requests are validated here (400 for a date, 404 for a page); the
// build plans its pages with the typed functions, never through query strings.

import type { CalendarName } from './calendar.ts';
import { isCalendarDate } from './dates.ts';
import { type ApiError, INVALID_PAGE, invalidDate } from './errors.ts';
import { envelope } from './json.ts';
import { type LinkFilters, pageURL, parsePage, totalPagesFor } from './pagination.ts';
import { PARAMETERS, type ParameterName } from './parameters.ts';
import { dateRange } from './ranges.ts';
import { fail, ok, type Result } from './result.ts';
import type { IsoDate } from './types.ts';

/**
 * A list request's parameters as given (the last occurrence of each), not yet validated: one per
 * row of the parameter table (parameters.ts), each read and validated by the module that answers it.
 */
export type ListQuery = { [name in ParameterName]?: string | undefined };

export function listQuery(params: URLSearchParams): ListQuery {
  const query: ListQuery = {};
  for (const { name } of PARAMETERS) {
    const all = params.getAll(name);
    if (all.length > 0) query[name] = all[all.length - 1];
  }
  return query;
}

/** The date filters' rows (`start`, `end`), in the order their errors are checked. */
type DateParameter = Extract<(typeof PARAMETERS)[number], { role: 'date' }>;
const DATE_PARAMETERS = PARAMETERS.filter((p): p is DateParameter => p.role === 'date');

/** The records a list selects: positions [from, from + total) of the full sequence. */
export interface ListSlice {
  filters: LinkFilters;
  from: number;
  total: number;
}

/** One page of a list. */
export interface PagePlan extends ListSlice {
  page: number;
  totalPages: number;
}

/** An unfiltered list of `total` records. */
export function wholeList(total: number): ListSlice {
  return { filters: {}, from: 0, total };
}

/** The entries within the filters (inclusive, each optional), from the sorted dates. */
export function entrySlice(dates: readonly IsoDate[], filters: LinkFilters): ListSlice {
  const { from, to } = dateRange(dates, filters.start, filters.end);
  return { filters, from, total: to - from };
}

/**
 * The date filters of a request: empty values are absent; anything else must be a real date of
 * the diary's calendar (the error's example: `example`, the diary's first day).
 */
export function entryFilters(q: ListQuery, calendar: CalendarName, example?: IsoDate): Result<LinkFilters, ApiError> {
  const filters: LinkFilters = {};
  for (const { name } of DATE_PARAMETERS) {
    const value = q[name];
    if (value === undefined || value === '') continue;
    if (!isCalendarDate(calendar, value)) return fail(invalidDate(name, value, example));
    filters[name] = value;
  }
  return ok(filters);
}

export function pageCount(slice: ListSlice, pageSize: number): number {
  return totalPagesFor(slice.total, pageSize);
}

/** Page `page` (1 to pageCount) of a slice. */
export function pagePlan(slice: ListSlice, pageSize: number, page: number): PagePlan {
  return { ...slice, page, totalPages: pageCount(slice, pageSize) };
}

/** The page a request names (`page` as given), or 404 Invalid page. */
export function requestedPage(slice: ListSlice, pageSize: number, raw: string | undefined): Result<PagePlan, ApiError> {
  const totalPages = pageCount(slice, pageSize);
  const page = parsePage(raw, totalPages);
  return page === null ? fail(INVALID_PAGE) : ok({ ...slice, page, totalPages });
}

/** An entries list request: its date filters first (400), then its page (404). */
export function planEntryRequest(
  dates: readonly IsoDate[],
  pageSize: number,
  q: ListQuery,
  calendar: CalendarName,
): Result<PagePlan, ApiError> {
  const filters = entryFilters(q, calendar);
  return filters.ok ? requestedPage(entrySlice(dates, filters.value), pageSize, q.page) : filters;
}

/** The rendered fragment of the record at a position of the unfiltered list. */
export type Fragments = (position: number) => string;

/** The bytes of a planned page; `fragment` gives every record of the unfiltered list. */
export function renderPage(listURL: string, fragment: Fragments, pageSize: number, plan: PagePlan): string {
  return envelope(
    {
      totalResults: plan.total,
      totalPages: plan.totalPages,
      nextPageURL: plan.page < plan.totalPages ? pageURL(listURL, plan.filters, plan.page + 1) : null,
      previousPageURL: plan.page > 1 ? pageURL(listURL, plan.filters, plan.page - 1) : null,
    },
    pagePositions(pageSize, plan).map(fragment),
  );
}

/** The positions in the unfiltered list of the records on a planned page. */
export function pagePositions(pageSize: number, plan: PagePlan): number[] {
  const first = plan.from + (plan.page - 1) * pageSize;
  const last = Math.min(plan.from + plan.total, first + pageSize);
  return Array.from({ length: Math.max(0, last - first) }, (_, i) => first + i);
}
