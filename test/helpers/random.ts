// The tests' one seeded random generator: the same seed gives the same sequence, in Node and in
// Deno alike (no imports), so that a failing random case can be reproduced from its seed.

/** `rand(n)` is an integer in [0, n). Mulberry32. */
export function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}
