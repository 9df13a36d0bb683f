import type { SqlJsStatic } from 'sql.js';

/** A value of one column of a row. */
export type Cell = string | number | null;

/** SQL run once, or, with `rows`, a statement run for each row (its `?` bound to the row's cells). */
export interface SqlStep {
  sql: string;
  rows?: Cell[][];
}

/**
 * A step, or the bounds of a run of steps whose only effect is the rows of `tables` (opened with
 * the tables, closed with null): a writer may copy those rows from a kept database instead.
 */
export type DatabaseStep = SqlStep | { reusable: readonly string[] | null };

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
   * Hashes the runs (for endKept), and copies those that hash as `kept`'s did from it; a run whose
   * cells hold more than `most` characters (default 24 M) is neither held nor hashed.
   */
  reuse(kept: KeptDatabase | undefined, most?: number): void;
  /** The runs copied from a kept database so far, by their tables (joined by a space). */
  readonly copied: readonly string[];
  end(): Uint8Array;
  /** The bytes, the database left open for the next writer (after reuse). */
  endKept(): { bytes: Uint8Array; kept: KeptDatabase };
  abandon(): void;
}

/** What a step weighs: its text's length, and a few bytes a cell that is not text. */
export function stepWeight(step: SqlStep): number;

/** An empty database whose file is `pages` pages long, all but the first on the freelist. */
export function roomyDatabase(pages: number): Uint8Array;

/** Given `bytes`, the database's file has room for about that many bytes at once. */
export function databaseWriter(SQL: SqlJsStatic, bytes?: number): DatabaseWriter;

/** A new in-memory database, each step run on it in order; its bytes. */
export function makeDatabase(SQL: SqlJsStatic, steps: Iterable<DatabaseStep>, bytes?: number): Uint8Array;
