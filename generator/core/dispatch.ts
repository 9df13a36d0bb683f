// The one dispatch every adapter runs, after Hono's: the site to answer from (its index and a way
// to read its files), the core's handler, and the errors of an API that cannot answer, caught and
// worded here once. The edge's web fetch (deploy/web.ts createFetch) and the local server
// (server/server.ts) are each their runtime's request and response around it; docs/architecture.md
// "The request path". Runtime-free.
//
// Every request gets an answer, whatever fails: never a throw, which a runtime would answer with
// its own error page. A site that cannot be loaded is the contract's 503 (`Cache-Control:
// no-store`, as every 5xx): worded by the adapter (an ApiError) or as the API unavailable.

import type { ReadFile } from './answer-types.ts';
import { type ApiError, messageOf } from './errors.ts';
import { type ApiRequest, type ApiResponse, type ContentCoder, errorResponse, handle } from './handler.ts';
import type { Result } from './result.ts';
import type { SiteIndex } from './site-index.ts';

/** What a request is answered from: the site index and a way to read the files it lists. */
export interface Site {
  index: SiteIndex;
  read: ReadFile;
}

/** Why there is no site: a reason (`The API is unavailable: <why>.`), or the error to answer. */
type NoSite = string | ApiError;

export interface DispatchOptions<Context> {
  /** The site for this request (loaded, or kept from before by the adapter), or why there is none. */
  site(context: Context): Result<Site, NoSite> | Promise<Result<Site, NoSite>>;
  /** A content coding applied to bodies (the local server's compression); none by default. */
  coder?: ContentCoder;
  /** What an unexpected error is answered with (default: the 503 naming its message). */
  failure?: (err: unknown, request: ApiRequest, context: Context) => NoSite;
}

export type Dispatch<Context> = (request: ApiRequest, context: Context) => Promise<ApiResponse>;

export function createDispatch<Context>(options: DispatchOptions<Context>): Dispatch<Context> {
  const { coder } = options;
  return async (request, context) => {
    try {
      const found = options.site(context);
      // A site found at once is used at once: no turn of the microtask queue for nothing.
      const site = found instanceof Promise ? await found : found;
      if (!site.ok) return errorResponse(request, noSiteError(site.error), coder);
      return await handle(request, site.value.index, site.value.read, coder);
    } catch (err) {
      return errorResponse(request, noSiteError((options.failure ?? messageOf)(err, request, context)), coder);
    }
  };
}

function noSiteError(why: NoSite): ApiError {
  return typeof why === 'string' ? { status: 503, detail: `The API is unavailable: ${why}.` } : why;
}
