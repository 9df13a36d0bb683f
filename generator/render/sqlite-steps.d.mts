import type { SqlJsStatic } from 'sql.js';

/** A value of one column of a row. */
export type Cell = string | number | null;

/** SQL run once, or, with `rows`, a statement run for each row (its `?` bound to the row's cells). */
export interface DatabaseStep {
  sql: string;
  rows?: Cell[][];
}

/** A new in-memory database, each step run on it in order; its bytes. */
export function makeDatabase(SQL: SqlJsStatic, steps: readonly DatabaseStep[]): Uint8Array;
