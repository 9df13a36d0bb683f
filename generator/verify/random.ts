// The verifier's seeded sample: the same seed picks the same requests, so that a run that found a
// difference can be repeated exactly (`--seed`).

/** `rand(n)` is an integer in [0, n). Mulberry32: small, fast, good enough to pick a sample. */
export type Rand = (n: number) => number;

export function seededRandom(seed: number): Rand {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
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

/** A fresh seed for a run that was given none (printed, so that the run can be repeated). */
export function freshSeed(): number {
  return Math.floor(Math.random() * 1_000_000);
}
