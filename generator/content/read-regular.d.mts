import type { Stats } from 'node:fs';

/**
 * What readRegular gives: the bytes with the facts of the file read (`readAt`: when, just after
 * opening it); or none, with the facts of what is there when it is not a regular file of at most
 * the size asked (`error` null), or the error that stopped it (`stats` null).
 */
export type RegularRead =
  | { bytes: Buffer; stats: Stats; readAt: number }
  | { bytes: null; stats: Stats; error: null }
  | { bytes: null; stats: null; error: unknown };

/**
 * The bytes of the regular file at `path` (links followed), read only when it is one of at most
 * `maxBytes`, and no more than the size it had when opened. Never throws.
 */
export function readRegular(path: string, maxBytes: number): RegularRead;
