import type { SqlJsStatic } from 'sql.js';

/** A value of one column of a row. */
export type Cell = string | number | null;

/** SQL run once, or, with `rows`, a statement run for each row (its `?` bound to the row's cells). */
export interface DatabaseStep {
  sql: string;
  rows?: Cell[][];
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
  end(): Uint8Array;
  abandon(): void;
}

/** An empty database whose file is `pages` pages long, all but the first on the freelist. */
export function roomyDatabase(pages: number): Uint8Array;

/** Given `bytes`, the database's file has room for about that many bytes at once. */
export function databaseWriter(SQL: SqlJsStatic, bytes?: number): DatabaseWriter;

/** A new in-memory database, each step run on it in order; its bytes. */
export function makeDatabase(SQL: SqlJsStatic, steps: Iterable<DatabaseStep>, bytes?: number): Uint8Array;
