// Byte arrays compared at once in the tests' toEqual, not a byte at a time. vitest's deep equality
// walks a Uint8Array as it walks any iterable, calling its generic equality for every element:
// about 4 µs a byte (1.3 s for 300 KB), and the tests compare built trees (Map<path, Buffer>),
// basis files and downloads of hundreds of kilobytes each. The answer is the same: two byte arrays
// of the same kind are equal when they hold the same bytes. Added once a worker by per-file.ts.

import { expect } from 'vitest';

/** Equal byte arrays of one kind; undefined (vitest's own equality decides) for anything else. */
export function bytesEqual(a: unknown, b: unknown): boolean | undefined {
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array)) return undefined;
  // A Buffer and a plain Uint8Array of the same bytes differ for vitest: left to it.
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return undefined;
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

const ADDED = Symbol.for('pepys.test.bytesEqual');

/** Adds bytesEqual to expect's equality testers, once however many files share the worker. */
export function addBytesEquality(): void {
  const g = globalThis as { [ADDED]?: true };
  if (g[ADDED] === true) return;
  g[ADDED] = true;
  expect.addEqualityTesters([bytesEqual]);
}
