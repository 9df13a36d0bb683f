// The list module: any page of any list, for any (start, end, page), from pre-rendered record
// fragments. Pure and dependency-free: the build, the local server and the edge function all
// render list pages here.

import { isIsoDate } from './dates.ts';
import { type ApiError, INVALID_PAGE, invalidDate } from './errors.ts';
import { envelope } from './json.ts';
import { type LinkFilters, pageURL, parsePage, totalPagesFor } from './pagination.ts';
import { dateRange } from './ranges.ts';
import type { IsoDate } from './types.ts';

/** A list request's parameters as given (the last occurrence of each), not yet validated. */
export interface ListQuery {
  start?: string | undefined;
  end?: string | undefined;
  page?: string | undefined;
}

export function listQuery(params: URLSearchParams): ListQuery {
  const last = (name: string) => {
    const all = params.getAll(name);
    return all.length === 0 ? undefined : all[all.length - 1];
  };
  return { start: last('start'), end: last('end'), page: last('page') };
}

/** One page of a list: the slice [from, to) of the full (filtered) sequence. */
export interface PagePlan {
  filters: LinkFilters;
  page: number;
  totalPages: number;
  /** Number of records in the filtered set. */
  total: number;
  /** Position of the filtered set in the full sequence. */
  from: number;
}

export type Planned = { ok: true; plan: PagePlan } | { ok: false; error: ApiError };

/** Validates and plans an entries list request: 400 for a bad date, 404 for a bad page. */
export function planEntryList(dates: readonly IsoDate[], pageSize: number, q: ListQuery): Planned {
  const filters: LinkFilters = {};
  for (const name of ['start', 'end'] as const) {
    const value = q[name];
    if (value === undefined || value === '') continue;
    if (!isIsoDate(value)) return { ok: false, error: invalidDate(name, value) };
    filters[name] = value;
  }
  const { from, to } = dateRange(dates, filters.start, filters.end);
  return planPage(filters, to - from, from, pageSize, q.page);
}

/** Plans a page of an unfiltered list of `total` records. */
export function planPlainList(total: number, pageSize: number, q: ListQuery): Planned {
  return planPage({}, total, 0, pageSize, q.page);
}

function planPage(filters: LinkFilters, total: number, from: number, pageSize: number, raw: string | undefined): Planned {
  const totalPages = totalPagesFor(total, pageSize);
  const page = parsePage(raw, totalPages);
  if (page === null) return { ok: false, error: INVALID_PAGE };
  return { ok: true, plan: { filters, page, totalPages, total, from } };
}

/** The bytes of a planned page. `fragments` holds every record of the unfiltered list. */
export function renderPage(listURL: string, fragments: readonly string[], pageSize: number, plan: PagePlan): string {
  const first = plan.from + (plan.page - 1) * pageSize;
  const last = Math.min(plan.from + plan.total, first + pageSize);
  return envelope(
    {
      totalResults: plan.total,
      totalPages: plan.totalPages,
      nextPageURL: plan.page < plan.totalPages ? pageURL(listURL, plan.filters, plan.page + 1) : null,
      previousPageURL: plan.page > 1 ? pageURL(listURL, plan.filters, plan.page - 1) : null,
    },
    fragments.slice(first, last),
  );
}
