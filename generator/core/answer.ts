// A request to its answer: a pre-rendered file to serve, or bytes rendered now. The local server
// and the edge functions all reach it through handler.ts; none decides anything about the
// contract itself.

import type { Answer } from './answer-types.ts';
import { type ApiError, errorBody, methodNotAllowed, NOT_FOUND, noRecord } from './errors.ts';
import {
  DOWNLOAD_TYPES,
  DOWNLOADS_FILE,
  detailFile,
  downloadFile,
  FEED_FILES,
  pageFile,
  ROOT_FILE,
  SCHEMA_FILE,
} from './files.ts';
import { filteredListAnswer, hasRecordFilters, recordFilters } from './filters.ts';
import { entryFilters, type ListQuery, planEntryRequest, renderPage, requestedPage, wholeList } from './lists.ts';
import { metadataBody } from './metadata.ts';
import { prerenderedList } from './prerendered.ts';
import { lowerBound } from './ranges.ts';
import { ok } from './result.ts';
import { route } from './router.ts';
import { searchAnswer } from './search/answer.ts';
import { isBlankSearch } from './search/query.ts';
import type { SiteIndex } from './site-index.ts';
import type { Collection } from './types.ts';
import { collectionURL } from './urls.ts';

/** The media types of the feeds (RFC 4287; JSON Feed 1.1). */
export const FEED_TYPES = { atom: 'application/atom+xml', json: 'application/feed+json' } as const;

const MODEL_NAMES = { entries: 'Entry', categories: 'Category', topics: 'Topic' } as const;

function errorAnswer(error: ApiError): Answer {
  return { kind: 'body', status: error.status, body: errorBody(error) };
}

/**
 * Answers `method pathname` with its query (`params`) for a site. HEAD is answered like GET (the
 * caller sends no body); OPTIONS gets 200 and the path's metadata (metadata.ts) on every path of the API.
 */
export function answer(method: string, pathname: string, query: ListQuery, site: SiteIndex): Answer {
  const r = route(pathname, site.calendar);
  if (r.kind === 'unknown') return errorAnswer(NOT_FOUND);
  if (method === 'OPTIONS') return { kind: 'body', status: 200, body: metadataBody(r) };
  if (method !== 'GET' && method !== 'HEAD') return errorAnswer(methodNotAllowed(method));
  switch (r.kind) {
    case 'root':
      return { kind: 'file', file: ROOT_FILE };
    case 'schema':
      return { kind: 'file', file: SCHEMA_FILE };
    case 'feed':
      return { kind: 'file', file: FEED_FILES[r.format], type: FEED_TYPES[r.format] };
    case 'downloads':
      return { kind: 'file', file: DOWNLOADS_FILE };
    case 'download':
      return { kind: 'file', file: downloadFile(r.name), type: DOWNLOAD_TYPES.get(r.name) };
    case 'detail':
      return hasRecord(site, r.collection, r.key)
        ? { kind: 'file', file: detailFile(r.collection, r.key) }
        : errorAnswer(noRecord(MODEL_NAMES[r.collection]));
    case 'list':
      return answerList(r.collection, query, site);
  }
}

function answerList(collection: Collection, q: ListQuery, site: SiteIndex): Answer {
  if (collection !== 'categories') {
    // The date filters' 400 first, then the record filters' 400 or 404, then the search's 400s,
    // then the page's 404.
    const dates = collection === 'entries' ? entryFilters(q, site.calendar, site.period.start) : ok({});
    if (!dates.ok) return errorAnswer(dates.error);
    const records = recordFilters(collection, q, site);
    if (!records.ok) return errorAnswer(records.error);
    if (!isBlankSearch(q.search)) return searchAnswer(collection, q, site, records.value);
    if (hasRecordFilters(records.value))
      return filteredListAnswer(collection, records.value, dates.value, q.page, site);
  }
  const total = collection === 'categories' ? site.categorySlugs.size : site.topicIds.size;
  const planned =
    collection === 'entries'
      ? planEntryRequest(site.entryDates, site.pageSize, q, site.calendar)
      : requestedPage(wholeList(total), site.pageSize, q.page);
  if (!planned.ok) return errorAnswer(planned.error);
  const plan = planned.value;
  const list = prerenderedList(collection, plan.filters, site);
  if (list !== null) return { kind: 'file', file: pageFile(list.dir, plan.page) };
  // Only entry lists are filtered, so only they get here.
  return {
    kind: 'body',
    status: 200,
    body: renderPage(collectionURL(site.apiOrigin, collection), site.entryFragment, site.pageSize, plan),
  };
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
