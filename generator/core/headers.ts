// The headers of every answer under /api/, success or error.

export const API_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'application/json',
  Allow: 'GET, HEAD, OPTIONS',
  Vary: 'Cookie, Accept',
};

/** Clients revalidate (cheaply, with the ETag): a rebuild may change any answer. */
export const CLIENT_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/** True when an If-None-Match header value matches `etag` (weak comparison, RFC 9110). */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => bare(t) === bare(etag));
}
