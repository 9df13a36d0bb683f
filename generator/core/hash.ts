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
