// Compression on the local server (gzip or brotli, node:zlib) for bodies of 1 KiB or more, when
// the client's Accept-Encoding allows it. The core's answer is not touched: this wraps it.
//
// Validators (RFC 9110, 8.8.3): a compressed body is another representation, so it has another
// strong ETag: the identity one with the coding appended (`"<hash>-br"`, core/handler.ts
// codedEtag), still a function of the identity bytes alone, so a mirror can be checked by ETag
// whatever zlib version compressed it. The core applies this coding and decides the 304.
//
// Compressed bodies are kept by identity ETag and coding (the ETag is a hash of the bytes), up to
// a budget: a file, a computed range or an HTML page is compressed once, however often it is
// asked for, and whichever generation of the site it comes from. Errors (no ETag, and small) are
// compressed each time. The levels are chosen for speed: see the figures in docs/browsing.md.

import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { boundedCache } from '../core/bounded-cache.ts';
import type { ContentCoder } from '../core/handler.ts';

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

const cache = boundedCache<Uint8Array>(CACHE_BYTES);

/** The body compressed with `coding`. */
function compressBody(body: Uint8Array, coding: Coding): Uint8Array {
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
  cache.set(key, out, out.length);
  return out;
}

/** The local server's content coding (for the core's handler): compressed where it pays. */
export const compression: ContentCoder = {
  choose: (request, body) =>
    body.length < MIN_COMPRESSED_BYTES ? null : negotiateCoding(request.header('accept-encoding')),
  encode: (body, coding, etag) => compressed(body, coding as Coding, etag),
};
