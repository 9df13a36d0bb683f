// Netlify's edge function for every request under /api/, as a thin adapter: Netlify's Request to
// the core's handler and back, with Netlify's CDN headers. The build generates the function's
// entry module (generate.ts), which hands this the site index bundled with it: nothing is
// fetched to start, so nothing can hand back a wrong body. Pre-rendered answers are read from the
// published files through context.next() (Netlify's static layer, inside Netlify).
//
// Every request gets a Response from here, whatever fails: never undefined and never a throw,
// either of which would let Netlify's chain answer with whatever the last context.next() read.
// A failure is the contract's 503 JSON error with `Cache-Control: no-store` and nothing that lets
// the CDN keep it. Runtime-free: Deno runs it as it is.

import { fileKeeper, ISOLATE_KEPT_BYTES } from '../../core/bounded-cache.ts';
import { type ApiRequest, type ApiResponse, errorResponse, handle } from '../../core/handler.ts';
import { MAX_FILE_BYTES } from '../../core/read-files.ts';
import type { Result } from '../../core/result.ts';
import { loadSiteIndex, type SiteIndex } from '../../core/site-index.ts';
import { boundedBody } from '../read-body.ts';
import { fromRequest, toResponse } from '../web.ts';
import { netlifyHeaders } from './cache.ts';

/** The part of Netlify's edge function context this function uses. */
export interface NetlifyContext {
  next(request: Request): Promise<Response>;
}

export type EdgeFunction = (request: Request, context: NetlifyContext) => Promise<Response>;

/** The edge function over a site index (the parsed SITE_INDEX_FILE bundled with it). */
export function createEdgeFunction(bundledIndex: unknown): EdgeFunction {
  // Loaded by the isolate's first request, then kept: the bundled index cannot change.
  let site: Result<SiteIndex, string> | null = null;
  // The published files the isolate has read, kept for its life (8 MB of them): a warm search reads
  // no shard again, and finds its postings and the records it showed before already parsed.
  const keep = fileKeeper(ISOLATE_KEPT_BYTES);
  return async (request, context) => {
    const apiRequest = fromRequest(request);
    try {
      site ??= loadSiteIndex(bundledIndex);
      if (!site.ok)
        return respond(apiRequest, unavailable(apiRequest, `its bundled site index is invalid: ${site.error}`));
      const readFile = keep(async (file: string): Promise<Uint8Array | null> => {
        const res = await context.next(new Request(new URL(`/${file}`, request.url)));
        if (res.status !== 200) {
          await res.body?.cancel();
          return null;
        }
        // A file over the bound reads as missing: the handler's 503, as for a damaged pack.
        return boundedBody(res, MAX_FILE_BYTES);
      });
      return respond(apiRequest, await handle(apiRequest, site.value, readFile));
    } catch (err) {
      // Netlify's function log gets the cause; the client gets the contract's error.
      console.error(`pepys-api: ${request.method} ${request.url}: ${err instanceof Error ? err.message : String(err)}`);
      return respond(apiRequest, unavailable(apiRequest, 'an unexpected error occurred'));
    }
  };
}

function unavailable(request: ApiRequest, why: string): ApiResponse {
  return errorResponse(request, { status: 503, detail: `The API is unavailable: ${why}.` });
}

function respond(request: ApiRequest, r: ApiResponse): Response {
  return toResponse(r, netlifyHeaders(request, r));
}
