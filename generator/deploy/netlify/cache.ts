// Netlify's CDN headers on the function's answers: what its cache key is made of, and which
// answers it may keep. docs/netlify.md ("Caching") says what is documented and what is not.
// Runtime-free.

import { FEED_TYPES } from '../../core/answer.ts';
import type { ApiRequest, ApiResponse } from '../../core/handler.ts';
import { JSON_TYPE } from '../../core/headers.ts';

/**
 * The cache key beyond the path: the parameters any answer reads (the date range, page, the
 * record filters, format, and search with its ordering) (every other parameter is
 * ignored by the API, so junk such as utm_source shares one entry), and Accept (JSON or the HTML
 * view). Netlify-Vary likely replaces the standard Vary in the key, so Accept is named here
 * although Vary has it; Cookie is left out on purpose (no answer depends on it). Sent on every
 * answer of a URL alike. A new query parameter read by the API must be added here.
 */
export const NETLIFY_VARY = 'query=category|day|end|format|kind|ordering|page|search|start|topic,header=Accept';
const KEY_PARAMETERS: ReadonlySet<string> = new Set([
  'category',
  'day',
  'end',
  'format',
  'kind',
  'ordering',
  'page',
  'search',
  'start',
  'topic',
]);

/**
 * For Netlify's CDN only (it strips the header before the client sees it): keep the answer until
 * the next deploy, which purges every cached response of the site. A year is the longest
 * lifetime the CDN honours; a deploy comes sooner.
 */
export const CDN_CACHE_CONTROL = 'public, max-age=31536000, must-revalidate';

/** The headers Netlify's CDN reads on an answer of the function. */
export function netlifyHeaders(request: ApiRequest, r: ApiResponse): Record<string, string> {
  return cdnMayKeep(request, r)
    ? { 'Netlify-Vary': NETLIFY_VARY, 'Netlify-CDN-Cache-Control': CDN_CACHE_CONTROL }
    : { 'Netlify-Vary': NETLIFY_VARY };
}

/**
 * May Netlify's CDN keep this answer and give it to every request with the same key? Only when
 * no request that gets a different answer can share its key, whatever Netlify does with the
 * URL before keying it (how it treats case, escapes, slashes, repeated or re-cased parameters is
 * not documented). Anything else still gets its right answer, from the function every time.
 *
 * - the core says a shared cache may keep it (not a 5xx, not OPTIONS or a refused method);
 * - GET only: Netlify caches GET, and a kept HEAD answer (no body) must never be given to a GET;
 * - not a 304, which answers one client's validator;
 * - JSON or a feed: a browser's HTML view is not kept, so that if Accept turned out not to be in the key,
 *   an API client could never be given HTML (the reverse, JSON for a browser, stays harmless);
 * - a plain path: lower case letters, digits, `-`, `_` and `.`, no escapes, no empty or dot
 *   segments, no trailing slash (`/api/v1/entries/` is a 404, `/api/v1/entries` is not);
 * - each key parameter (the date range, page, the record filters, format, search and ordering) at
 *   most once, spelled exactly so, with plain values (a search of several words, written with
 *   escapes, is answered by the function every time).
 */
export function cdnMayKeep(request: ApiRequest, r: ApiResponse): boolean {
  return (
    r.cacheable &&
    request.method === 'GET' &&
    r.status !== 304 &&
    KEPT_TYPES.has(r.headers['Content-Type'] ?? '') &&
    PLAIN_PATH.test(request.path) &&
    keyedExactly(request.query)
  );
}

/** JSON, and the feeds' types (never the HTML view: see above). */
const KEPT_TYPES: ReadonlySet<string> = new Set([JSON_TYPE, ...Object.values(FEED_TYPES)]);
const PLAIN_PATH = /^\/api(\/[a-z0-9_-][a-z0-9._-]*)*$/;
const PLAIN_VALUE = /^[A-Za-z0-9-]*$/;

/** True when the query's key parameters are each given once, plainly: the key then is the answer's. */
function keyedExactly(query: string): boolean {
  const seen = new Set<string>();
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    // Decoded exactly as the handler decodes it.
    const decoded = [...new URLSearchParams(pair)][0];
    if (decoded === undefined) continue;
    const name = decoded[0].toLowerCase();
    if (!KEY_PARAMETERS.has(name)) continue;
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    if (rawName !== name || !PLAIN_VALUE.test(rawValue) || seen.has(name)) return false;
    seen.add(name);
  }
  return true;
}
