// Compression on the local server (gzip or brotli, node:zlib) for bodies of 1 KiB or more, when
// the client's Accept-Encoding allows it. The core's answer is not touched: this wraps it.
//
// Validators (RFC 9110, 8.8.3): a compressed body is another representation, so it has another
// strong ETag: the identity one with the coding appended (`"<hash>-br"`), still a function of the
// identity bytes alone, so a mirror can be checked by ETag whatever zlib version compressed it.
// If-None-Match is therefore evaluated here, against the ETag of the representation this request
// gets, and not by the core against the identity one: the core is asked without it.
//
// Compressed bodies are kept by identity ETag and coding (the ETag is a hash of the bytes), up to
// a budget: a file, a computed range or an HTML page is compressed once, however often it is
// asked for, and whichever generation of the site it comes from. Errors (no ETag, and small) are
// compressed each time. The levels are chosen for speed: see the figures in docs/browsing.md.

import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ifNoneMatchHits } from '../core/etag.ts';
import type { ApiRequest, ApiResponse } from '../core/handler.ts';

export type Coding = 'br' | 'gzip';

/** Bodies smaller than this are sent as they are: compressing them saves less than it costs. */
export const MIN_COMPRESSED_BYTES = 1024;
const BROTLI_QUALITY = 4;
/** 256 KiB windows: every body of the API fits, and a smaller window is cheaper to set up. */
const BROTLI_WINDOW_BITS = 18;
const GZIP_LEVEL = 6;
/** Compressed bytes kept; past it, the cache starts over (as the server's file cache does). */
const CACHE_BYTES = 32 * 1024 * 1024;

/**
 * The coding to send for an Accept-Encoding value, or null for none: brotli when it is acceptable
 * at least as much as gzip (it is smaller at the same speed), else gzip. RFC 9110, 12.5.3:
 * `q=0` refuses a coding, `*` stands for the codings not named, `x-gzip` is gzip.
 */
export function negotiateCoding(acceptEncoding: string | null): Coding | null {
  if (acceptEncoding === null) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (name === '') continue;
    let weight = 1;
    for (const p of params) {
      const m = /^q\s*=\s*([01](?:\.\d{0,3})?)$/.exec(p);
      if (p.startsWith('q')) weight = m === null ? 0 : Math.min(1, Number(m[1]));
    }
    const key = name === 'x-gzip' ? 'gzip' : name;
    q.set(key, Math.max(q.get(key) ?? 0, weight));
  }
  const weight = (coding: Coding) => q.get(coding) ?? q.get('*') ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  if (br > 0 && br >= gzip) return 'br';
  return gzip > 0 ? 'gzip' : null;
}

const cache = new Map<string, Uint8Array>();
let cached = 0;

/** The body compressed with `coding`. */
export function compressBody(body: Uint8Array, coding: Coding): Uint8Array {
  return coding === 'br'
    ? brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipSync(body, { level: GZIP_LEVEL });
}

/** compressBody, remembered by the identity ETag of the body when it has one. */
function compressed(body: Uint8Array, coding: Coding, etag: string | undefined): Uint8Array {
  if (etag === undefined) return compressBody(body, coding);
  const key = `${coding} ${etag}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const out = compressBody(body, coding);
  if (cached + out.length > CACHE_BYTES) {
    cache.clear();
    cached = 0;
  }
  cache.set(key, out);
  cached += out.length;
  return out;
}

/** The ETag of the `coding` form of the representation whose identity ETag is `etag`. */
export function codedEtag(etag: string, coding: Coding): string {
  return etag.replace(/"$/, `-${coding}"`);
}

/** The request as the core must see it when this layer compresses: without If-None-Match. */
function withoutIfNoneMatch(request: ApiRequest): ApiRequest {
  return { ...request, header: (name) => (name.toLowerCase() === 'if-none-match' ? null : request.header(name)) };
}

/** The core's answer with `coding` applied where it pays, and If-None-Match evaluated on the result. */
function encode(r: ApiResponse, method: string, coding: Coding, ifNoneMatch: string | null): ApiResponse {
  let out = r;
  // A body that is sent, or that a HEAD describes (its headers are those GET would send).
  if ((r.sendBody || method === 'HEAD') && r.body.length >= MIN_COMPRESSED_BYTES) {
    const headers: Record<string, string> = { ...r.headers, 'Content-Encoding': coding };
    headers.Vary = r.headers.Vary === undefined ? 'Accept-Encoding' : `${r.headers.Vary}, Accept-Encoding`;
    if (r.headers.ETag !== undefined) headers.ETag = codedEtag(r.headers.ETag, coding);
    out = { ...r, headers, body: compressed(r.body, coding, r.headers.ETag) };
  }
  const etag = out.headers.ETag;
  if (etag !== undefined && out.status >= 200 && out.status < 300 && ifNoneMatchHits(ifNoneMatch, etag)) {
    // The 304 of the compressed answer: its ETag and Vary, no body and so no Content-Encoding.
    const { 'Content-Encoding': _, ...headers } = out.headers;
    return { ...out, status: 304, headers, sendBody: false };
  }
  return out;
}

/**
 * Answers `request` with `answer` (the core's handler over the site), compressed when the client
 * accepts a coding and the body is large enough; without an acceptable coding, exactly the
 * core's answer.
 */
export async function answerCompressed(request: ApiRequest, answer: (request: ApiRequest) => Promise<ApiResponse>): Promise<ApiResponse> {
  const coding = negotiateCoding(request.header('accept-encoding'));
  if (coding === null || request.method === 'OPTIONS') return answer(request);
  return encode(await answer(withoutIfNoneMatch(request)), request.method, coding, request.header('if-none-match'));
}
