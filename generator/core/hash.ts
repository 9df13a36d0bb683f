// A small, fast, dependency-free string hash (FNV-1a, 32 bit) for validators and build ids.
// Not for security: only to tell one body or one build from another.

export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** 64 bits of hash as 16 hex digits (two FNV-1a passes with different seeds). */
export function hash64(text: string): string {
  const a = fnv1a(text).toString(16).padStart(8, '0');
  const b = fnv1a(text, 0x050c5d1f).toString(16).padStart(8, '0');
  return a + b;
}

/** MurmurHash3's 32-bit finaliser: every bit of `h` moves the low ones (which a modulo keeps). */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
