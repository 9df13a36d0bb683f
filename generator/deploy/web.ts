// The web-standard side of the edge adapters (Netlify's Deno, Cloudflare's workerd): a Request to
// the core's ApiRequest, an ApiResponse to a Response, and the one fetch handler both run. An
// adapter is a few lines that say how its runtime gets the site index and a file of the build;
// createFetch keeps the index once loaded and the files an isolate has read, and runs the core's
// dispatch (core/dispatch.ts: the handler, and the one 503 of an API that cannot answer). A
// failure is the contract's 503 JSON error with `Cache-Control: no-store`. Runtime-free: web
// standards only.

import { fileKeeper, ISOLATE_KEPT_BYTES } from '../core/bounded-cache.ts';
import { createDispatch } from '../core/dispatch.ts';
import { messageOf } from '../core/errors.ts';
import { type ApiRequest, type ApiResponse, splitTarget } from '../core/handler.ts';
import { ok, type Result } from '../core/result.ts';
import type { SiteIndex } from '../core/site-index.ts';

export function fromRequest(request: Request): ApiRequest {
  return { method: request.method, ...splitTarget(request.url), header: (name) => request.headers.get(name) };
}

export function toResponse(r: ApiResponse, extra: Readonly<Record<string, string>> = {}): Response {
  const headers = new Headers({ ...r.headers, ...extra });
  // The core's bytes are never over shared memory, the one kind of Uint8Array a body cannot be.
  return new Response(r.sendBody ? (r.body as Uint8Array<ArrayBuffer>) : null, { status: r.status, headers });
}

export interface FetchOptions<Context> {
  /** The site index, or why there is none (said in the 503). A loaded index is kept, never a failure. */
  loadIndex(context: Context): Result<SiteIndex, string> | Promise<Result<SiteIndex, string>>;
  /** A file of the build (a path relative to it), null when there is none or it is too large. */
  readFile(file: string, request: Request, context: Context): Promise<Uint8Array | null>;
  /** What the 503 says of an unexpected error (default: its message). */
  failure?: (err: unknown, request: Request) => string;
  /** Headers the runtime adds to every answer (a CDN's caching). */
  headers?: (request: ApiRequest, response: ApiResponse) => Readonly<Record<string, string>>;
}

export type Fetch<Context> = (request: Request, context: Context) => Promise<Response>;

export function createFetch<Context>(options: FetchOptions<Context>): Fetch<Context> {
  // Only a loaded index is kept, never a pending or failed load: workerd binds the I/O behind a
  // promise to the request that started it, so another request awaiting it could hang if that one
  // is cancelled; and a failure is tried again by the next request. Concurrent first requests of a
  // cold isolate each load it, which costs each no more CPU than one.
  let loaded: SiteIndex | null = null;
  // The build's files an isolate has read, kept for its life (8 MB of them): a warm search reads no
  // shard again, and finds its postings and the records it showed before already parsed.
  const keep = fileKeeper(ISOLATE_KEPT_BYTES);
  const dispatch = createDispatch<{ request: Request; context: Context }>({
    site: async ({ request, context }) => {
      if (loaded === null) {
        const site = await options.loadIndex(context);
        if (!site.ok) return site;
        loaded = site.value;
      }
      return ok({ index: loaded, read: keep((file) => options.readFile(file, request, context)) });
    },
    failure: (err, _apiRequest, { request }) => (options.failure ?? messageOf)(err, request),
  });
  return async (request, context) => {
    const apiRequest = fromRequest(request);
    const r = await dispatch(apiRequest, { request, context });
    return toResponse(r, options.headers?.(apiRequest, r) ?? {});
  };
}
