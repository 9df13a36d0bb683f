// Netlify's CDN headers on the function's answers: what it may keep, and what its key is made of.

import type { ApiResponse } from '../../core/handler.ts';

/**
 * For Netlify's CDN only (it strips the header before the client sees it): keep the answer until
 * the next deploy, which purges every cached response of the site. A year is the longest
 * lifetime the CDN honours; a deploy comes sooner.
 */
export const CDN_CACHE_CONTROL = 'public, max-age=31536000, must-revalidate';

/** The headers Netlify's CDN reads on an answer of the function. */
export function netlifyHeaders(r: ApiResponse): Record<string, string> {
  return r.cacheable && r.status !== 304 ? { 'Netlify-CDN-Cache-Control': CDN_CACHE_CONTROL } : {};
}
