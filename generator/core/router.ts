// Paths of the contract to routes. A `.json` suffix names the same resource.

import { isIsoDate } from './dates.ts';
import type { Collection } from './types.ts';

export type Route =
  | { kind: 'root' }
  | { kind: 'list'; collection: Collection }
  | { kind: 'detail'; collection: Collection; key: string }
  | { kind: 'unknown' };

const COLLECTIONS: ReadonlySet<string> = new Set<Collection>(['entries', 'categories', 'topics']);
// Key shapes of the reference service's URL patterns: Django's slug and int converters.
const SLUG = /^[-a-zA-Z0-9_]+$/;
const INTEGER = /^[0-9]+$/;

export function route(pathname: string): Route {
  if (pathname === '/api/v1' || pathname === '/api/v1/' || pathname === '/api/v1.json') return { kind: 'root' };
  if (!pathname.startsWith('/api/v1/')) return { kind: 'unknown' };
  let rest = pathname.slice('/api/v1/'.length);
  if (rest.endsWith('.json')) rest = rest.slice(0, -'.json'.length);
  const parts = rest.split('/');
  const collection = parts[0] ?? '';
  if (!COLLECTIONS.has(collection) || parts.length > 2) return { kind: 'unknown' };
  const c = collection as Collection;
  if (parts.length === 1) return { kind: 'list', collection: c };
  const key = parts[1] ?? '';
  switch (c) {
    case 'entries':
      return isIsoDate(key) ? { kind: 'detail', collection: c, key } : { kind: 'unknown' };
    case 'categories':
      return SLUG.test(key) ? { kind: 'detail', collection: c, key } : { kind: 'unknown' };
    case 'topics':
      // Like the int converter, `007` names topic 7.
      return INTEGER.test(key) ? { kind: 'detail', collection: c, key: key.replace(/^0+(?=\d)/, '') } : { kind: 'unknown' };
  }
}
