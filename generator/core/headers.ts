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

/**
 * Status and headers of a rendered answer: the contract's headers, the client cache rule and the
 * ETag; 304 (no body) when the client's copy, named by If-None-Match, is current.
 */
export function answerHead(status: number, etag: string | null, ifNoneMatch: string | null): { status: number; headers: Record<string, string> } {
  const headers: Record<string, string> = { ...API_HEADERS, 'Cache-Control': CLIENT_CACHE_CONTROL };
  if (etag === null) return { status, headers };
  headers.ETag = etag;
  return { status: etagMatches(ifNoneMatch, etag) ? 304 : status, headers };
}
