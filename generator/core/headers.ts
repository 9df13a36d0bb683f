// The headers of every answer under /api/, success, error or 304, on every runtime.

export const JSON_TYPE = 'application/json';
export const HTML_TYPE = 'text/html; charset=utf-8';

/** What every answer carries, whatever its status. */
export const API_HEADERS: Readonly<Record<string, string>> = {
  Allow: 'GET, HEAD, OPTIONS',
  Vary: 'Cookie, Accept',
  'X-Content-Type-Options': 'nosniff',
  // A public, read-only API without credentials: any page may read it, and its validator.
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag',
};

/**
 * The HTML view's Content-Security-Policy: no script at all, nothing from anywhere (the page is
 * self-contained), its own inline style, forms that submit to itself, and never in a frame
 * (clickjacking). Inline style only: with no script allowed, injected markup cannot run code.
 */
export const HTML_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Clients revalidate (cheaply, with the ETag): a rebuild may change any answer. */
export const CLIENT_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
/** An answer that must not be kept anywhere: the site could not answer properly. */
export const NO_STORE = 'no-store';

/** How long a browser may reuse a preflight's answer, in seconds. */
export const PREFLIGHT_MAX_AGE = '86400';
const ALWAYS_ALLOWED = ['If-None-Match'];
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The extra headers of a CORS preflight: the methods, the request headers it asked for (every
 * one: the API has no credentials to protect) plus If-None-Match, and how long to keep them.
 */
export function preflightHeaders(requestedHeaders: string | null): Record<string, string> {
  const names = [...ALWAYS_ALLOWED];
  for (const raw of (requestedHeaders ?? '').split(',')) {
    const name = raw.trim();
    if (TOKEN.test(name) && !names.some((n) => n.toLowerCase() === name.toLowerCase())) names.push(name);
  }
  return {
    'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
    'Access-Control-Allow-Headers': names.join(', '),
    'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
  };
}
