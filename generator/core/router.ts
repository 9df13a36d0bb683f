// Paths of the contract to routes. A `.json` suffix names the same resource.
//
// The path is taken as the client sent it: dot segments are not resolved (`/api/v1/categories/..`
// names no resource, it is not the root) and percent-escapes are not decoded (no key of the API
// needs one), so that `%2e%2e` is as unknown as `..`.

import type { CalendarName } from './calendar.ts';
import { isCalendarDate } from './dates.ts';
import { DOWNLOAD_TYPES } from './files.ts';
import { topicKey } from './topic-id.ts';
import type { Collection } from './types.ts';

export type Route =
  | { kind: 'root' }
  | { kind: 'schema' }
  /** The feeds of the latest entries (no `.json` spelling: each is its own media type). */
  | { kind: 'feed'; format: 'atom' | 'json' }
  /** The list of the whole-data files, and one of them (served as it is: no `.json` spelling). */
  | { kind: 'downloads' }
  | { kind: 'download'; name: string }
  | { kind: 'list'; collection: Collection }
  | { kind: 'detail'; collection: Collection; key: string }
  | { kind: 'unknown' };

const COLLECTIONS: ReadonlySet<string> = new Set<Collection>(['entries', 'categories', 'topics']);
// Key shapes of the reference service's URL patterns: Django's slug and int converters.
const SLUG = /^[-a-zA-Z0-9_]+$/;
const UNKNOWN: Route = { kind: 'unknown' };

/** The route of a path; an entry's address is a date of the diary's `calendar`. */
export function route(pathname: string, calendar: CalendarName): Route {
  // `/api/v1/.json`: the `/api/v1/` spelling with the format suffix, which every other path takes.
  if (pathname === '/api/v1' || pathname === '/api/v1/' || pathname === '/api/v1.json' || pathname === '/api/v1/.json')
    return { kind: 'root' };
  if (!pathname.startsWith('/api/v1/')) return UNKNOWN;
  let rest = pathname.slice('/api/v1/'.length);
  if (rest === 'feeds/atom') return { kind: 'feed', format: 'atom' };
  if (rest === 'feeds/json') return { kind: 'feed', format: 'json' };
  if (rest.startsWith('downloads/')) {
    const name = rest.slice('downloads/'.length);
    return DOWNLOAD_TYPES.has(name) ? { kind: 'download', name } : UNKNOWN;
  }
  if (rest.endsWith('.json')) rest = rest.slice(0, -'.json'.length);
  if (rest === 'schema') return { kind: 'schema' };
  if (rest === 'downloads') return { kind: 'downloads' };
  const parts = rest.split('/');
  const collection = parts[0] ?? '';
  if (!COLLECTIONS.has(collection) || parts.length > 2) return UNKNOWN;
  const c = collection as Collection;
  if (parts.length === 1) return { kind: 'list', collection: c };
  const key = parts[1] ?? '';
  switch (c) {
    case 'entries':
      return isCalendarDate(calendar, key) ? { kind: 'detail', collection: c, key } : UNKNOWN;
    case 'categories':
      return SLUG.test(key) ? { kind: 'detail', collection: c, key } : UNKNOWN;
    case 'topics': {
      // Like the int converter, `007` names topic 7 (the `topic` filter reads ids the same way).
      const id = topicKey(key);
      return id === null ? UNKNOWN : { kind: 'detail', collection: c, key: id };
    }
  }
}
