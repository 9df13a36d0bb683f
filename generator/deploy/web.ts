// The web-standard side of the edge adapters (Netlify's Deno, Cloudflare's workerd): a Request to
// the core's ApiRequest, an ApiResponse to a Response. Runtime-free.

import { type ApiRequest, type ApiResponse, splitTarget } from '../core/handler.ts';

export function fromRequest(request: Request): ApiRequest {
  return { method: request.method, ...splitTarget(request.url), header: (name) => request.headers.get(name) };
}

export function toResponse(r: ApiResponse, extra: Readonly<Record<string, string>> = {}): Response {
  const headers = new Headers({ ...r.headers, ...extra });
  // The core's bytes are never over shared memory, the one kind of Uint8Array a body cannot be.
  return new Response(r.sendBody ? (r.body as Uint8Array<ArrayBuffer>) : null, { status: r.status, headers });
}
