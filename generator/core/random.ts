// The project's one seeded random generator: the verifier's sample, the synthetic encyclopedia and
// every randomised test draw from it, so that the same seed repeats the same run on any machine
// and in any runtime (it is pure arithmetic). Not for anything secret.

import { fnv1a } from './hash.ts';

/** `rand(n)` is an integer in [0, n). */
export type Rand = (n: number) => number;

/** Mulberry32: small, fast, and good enough to pick samples and shape test data. */
export function prng(seed: number): Rand {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

/** A generator seeded by a text (e.g. `fixture/topics`), for streams that must not interfere. */
export function prngOf(text: string): Rand {
  return prng(fnv1a(text));
}

/** One element of a non-empty list. */
export function pick<T>(rand: Rand, list: readonly T[]): T {
  return list[rand(list.length)] as T;
}

/** Up to `n` distinct elements of a list, in the list's order. */
export function sample<T>(rand: Rand, list: readonly T[], n: number): T[] {
  if (n >= list.length) return [...list];
  const chosen = new Set<number>();
  while (chosen.size < n) chosen.add(rand(list.length));
  return [...chosen].sort((a, b) => a - b).map((i) => list[i] as T);
}
