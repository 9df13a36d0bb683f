// A request to its answer: a pre-rendered file to serve, or bytes rendered now. The local server
// and the edge function both call this; neither decides anything about the contract itself.

import { monthEnd, pad2 } from './dates.ts';
import { type ApiError, errorBody, methodNotAllowed, NOT_FOUND, noRecord } from './errors.ts';
import { detailFile, listPageFile, monthPageFile, PERIOD_YEARS, ROOT_FILE, yearPageFile } from './files.ts';
import { hash64 } from './hash.ts';
import { type ListQuery, listQuery, planEntryList, planPlainList, renderPage } from './lists.ts';
import type { LinkFilters } from './pagination.ts';
import { lowerBound } from './ranges.ts';
import { type Route, route } from './router.ts';
import type { SiteIndex } from './site-index.ts';
import type { Collection } from './types.ts';
import { collectionURL } from './urls.ts';

export type Answer =
  /** Serve this pre-rendered file (a path relative to the output directory), status 200. */
  | { kind: 'file'; file: string }
  /** Send these bytes; `etag` is set on successful answers. */
  | { kind: 'body'; status: number; body: string; etag: string | null };

const MODEL_NAMES = { entries: 'Entry', categories: 'Category', topics: 'Topic' } as const;

function fail(error: ApiError): Answer {
  return { kind: 'body', status: error.status, body: errorBody(error), etag: null };
}

/**
 * Answers `method pathname?search` for a site. HEAD is answered like GET (the caller sends no
 * body); OPTIONS gets 200 with no body on every path of the API.
 */
export function answer(method: string, pathname: string, search: string, site: SiteIndex): Answer {
  const r = route(pathname);
  if (r.kind === 'unknown') return fail(NOT_FOUND);
  if (method === 'OPTIONS') return { kind: 'body', status: 200, body: '', etag: null };
  if (method !== 'GET' && method !== 'HEAD') return fail(methodNotAllowed(method));
  return answerGet(r, listQuery(new URLSearchParams(search)), site);
}

function answerGet(r: Exclude<Route, { kind: 'unknown' }>, q: ListQuery, site: SiteIndex): Answer {
  if (r.kind === 'root') return { kind: 'file', file: ROOT_FILE };
  if (r.kind === 'detail') {
    return hasRecord(site, r.collection, r.key)
      ? { kind: 'file', file: detailFile(r.collection, r.key) }
      : fail(noRecord(MODEL_NAMES[r.collection]));
  }
  if (r.collection !== 'entries') {
    const total = r.collection === 'categories' ? site.categorySlugs.size : site.topicIds.size;
    const planned = planPlainList(total, site.pageSize, q);
    return planned.ok ? { kind: 'file', file: listPageFile(r.collection, planned.plan.page) } : fail(planned.error);
  }
  const planned = planEntryList(site.entryDates, site.pageSize, q);
  if (!planned.ok) return fail(planned.error);
  const { plan } = planned;
  const file = prerenderedEntryPage(plan.filters, plan.page);
  if (file !== null) return { kind: 'file', file };
  const body = renderPage(collectionURL(site.apiOrigin, 'entries'), site.entryFragments, site.pageSize, plan);
  // The body is a function of the build and of (start, end, page) alone.
  const etag = `"${site.buildId}-${hash64(`${plan.filters.start ?? ''}|${plan.filters.end ?? ''}|${plan.page}`)}"`;
  return { kind: 'body', status: 200, body, etag };
}

function hasRecord(site: SiteIndex, collection: Collection, key: string): boolean {
  switch (collection) {
    case 'entries': {
      const i = lowerBound(site.entryDates, key);
      return site.entryDates[i] === key;
    }
    case 'categories':
      return site.categorySlugs.has(key);
    case 'topics':
      return site.topicIds.has(Number(key));
  }
}

/** The file the build wrote for this entries page, if it wrote one: unfiltered, a year or a month. */
export function prerenderedEntryPage(filters: LinkFilters, page: number): string | null {
  const { start, end } = filters;
  if (start === undefined && end === undefined) return listPageFile('entries', page);
  if (start === undefined || end === undefined) return null;
  const year = Number(start.slice(0, 4));
  if (!PERIOD_YEARS.includes(year) || end.slice(0, 4) !== start.slice(0, 4)) return null;
  if (start.endsWith('-01-01') && end.endsWith('-12-31')) return yearPageFile(year, page);
  const month = Number(start.slice(5, 7));
  if (start.endsWith('-01') && end === monthEnd(year, month) && (year < 1669 || month <= 5)) {
    return monthPageFile(`${year}-${pad2(month)}`, page);
  }
  return null;
}
