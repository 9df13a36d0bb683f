// The one validator policy of every answer on every runtime: a strong ETag that is a hash of the
// representation's bytes (so equal bytes have equal ETags wherever they are served, and a mirror
// can be checked by ETag alone), and RFC 9110's If-None-Match: weak comparison, `*`, lists.

import { fmix32 } from './hash.ts';

/** 64 bits of a MurmurHash3-style hash over the bytes, as 16 hex digits. Not for security. */
function hashBytes(bytes: Uint8Array): string {
  let h1 = 0x9747b28c ^ bytes.length;
  let h2 = 0x85ebca6b ^ bytes.length;
  const words = bytes.length & ~3;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < words; i += 4) {
    let k = view.getUint32(i, true);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h1 ^= k;
    h1 = (h1 << 13) | (h1 >>> 19);
    h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
    h2 ^= k;
    h2 = (h2 << 17) | (h2 >>> 15);
    h2 = (Math.imul(h2, 0x2c1b3c6d) + 0x297a2d39) | 0;
  }
  let tail = 0;
  for (let i = bytes.length - 1; i >= words; i--) tail = (tail << 8) | (bytes[i] as number);
  h1 ^= Math.imul(tail, 0xcc9e2d51);
  h2 ^= Math.imul(tail, 0x1b873593);
  h1 = fmix32(h1 ^ h2);
  h2 = fmix32(h2 ^ h1);
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

/** The ETag of a representation. */
export function etagOf(bytes: Uint8Array): string {
  return `"${hashBytes(bytes)}"`;
}

const ENTITY_TAG = /(?:W\/)?"([^"]*)"/g;

/**
 * True when an If-None-Match value names the current representation, whose ETag is `etag`:
 * `*`, or a list in which one entity-tag is weakly equal to it (RFC 9110, 13.1.2).
 */
export function ifNoneMatchHits(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  for (const m of ifNoneMatch.matchAll(ENTITY_TAG)) if (`"${m[1]}"` === opaque) return true;
  return false;
}
