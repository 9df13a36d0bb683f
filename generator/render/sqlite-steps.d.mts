import type { SqlJsStatic } from 'sql.js';

/** A value of one column of a row. */
export type Cell = string | number | null;

/** SQL run once, or, with `rows`, a statement run for each row (its `?` bound to the row's cells). */
export interface SqlStep {
  sql: string;
  rows?: Cell[][];
  /** Its hash (stepHash), when the thread that made it hashed it already. */
  hash?: string;
}

/**
 * A step; the bounds of a run of steps whose only effect is the rows of `tables` (opened with the
 * tables, closed with null); or, in place of such a run, its tables' rows copied from the kept
 * database the writer was given (reuse), whose steps for them were the same.
 */
export type DatabaseStep = SqlStep | { reusable: readonly string[] | null } | { copy: readonly string[] };

/** A database left open by the writer that made it, for the next to copy runs from. */
export interface KeptDatabase {
  /** Its file in sql.js's file system. */
  file: string;
  /** Each run's steps' hashes (null: too long to hash), by the run's tables (joined by a space). */
  runs: ReadonlyMap<string, readonly string[] | null>;
  close(): void;
}

/** A statement's text parameter, bound from the string's UTF-8 bytes: `CAST(? AS TEXT)`. */
export const TEXT_PARAMETER: string;

/**
 * For each `?` of a statement, in order, whether it is written `CAST(? AS TEXT)` (bound from the
 * string's UTF-8 bytes); null when none is.
 */
export function textParameters(sql: string): boolean[] | null;

/** A database that steps are run on one after another, then made bytes or dropped. */
export interface DatabaseWriter {
  step(step: DatabaseStep): void;
  /**
   * Hashes the runs (for endKept), and copies from `kept` the runs it is told to copy (`{ copy }`);
   * a run whose cells hold more than `most` characters (default HELD_AT_MOST) is not hashed, nor
   * one that `kept` did not hash.
   */
  reuse(kept: KeptDatabase | undefined, most?: number): void;
  /** Copies from `kept` the runs it is told to copy (`{ copy }`), hashing nothing. */
  copyFrom(kept: KeptDatabase): void;
  /** The runs copied from a kept database so far, by their tables (joined by a space). */
  readonly copied: readonly string[];
  end(): Uint8Array;
  /** The bytes, the database left open for the next writer (after reuse). */
  endKept(): { bytes: Uint8Array; kept: KeptDatabase };
  abandon(): void;
}

/** What a step weighs: its text's length, and a few bytes a cell that is not text. */
export function stepWeight(step: SqlStep): number;

/** The hash of a step of a run: its SQL and each cell, with its type and length. */
export function stepHash(step: SqlStep): string;

/** The most text a run's steps may hold to be hashed, and held back while they are the last database's. */
export const HELD_AT_MOST: number;

/** An empty database whose file is `pages` pages long, all but the first on the freelist. */
export function roomyDatabase(pages: number): Uint8Array;

/** Given `bytes`, the database's file has room for about that many bytes at once. */
export function databaseWriter(SQL: SqlJsStatic, bytes?: number): DatabaseWriter;

/** A database's bytes (the last build's, read back) opened for a writer to copy tables from; its runs not known. */
export function openedDatabase(SQL: SqlJsStatic, bytes: Uint8Array): KeptDatabase;

/** A new in-memory database, each step run on it in order; its bytes. */
export function makeDatabase(SQL: SqlJsStatic, steps: Iterable<DatabaseStep>, bytes?: number): Uint8Array;
