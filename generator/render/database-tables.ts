// The downloads' SQLite database as tables (render/downloads.ts makes it): its schema, derived
// from the records' descriptions (core/record-fields.ts), and the steps that fill a table, a piece
// of rows at a time, each table's steps a run of their own (sqlite-steps.mjs, `reusable`).

import { CATEGORY, type Description, ENTRY, type FieldSpec, fieldsOf, TOPIC } from '../core/record-fields.ts';
import { type Cell, type DatabaseStep, TEXT_PARAMETER } from './sqlite-steps.mjs';

/** A column of a record's table: a field of its detail (record-fields.ts) that is one cell. */
export interface Column {
  name: string;
  sql: string;
}

/** The columns of a record's table: its detail's fields that are one cell, in order (lists of links become tables). */
function columnsOf(description: Description): Column[] {
  return fieldsOf(description).flatMap((name): Column[] => {
    const spec = description[name] as FieldSpec;
    if (spec.type === 'array') return [];
    const type = spec.type === 'string' ? 'TEXT' : spec.type === 'integer' ? 'INTEGER' : 'REAL';
    const sql = `${name} ${type}${spec.key ? ' PRIMARY KEY' : ''}${spec.nullable ? '' : ' NOT NULL'}`;
    return [{ name, sql }];
  });
}

export const ENTRY_COLUMNS = columnsOf(ENTRY);
export const CATEGORY_COLUMNS = columnsOf(CATEGORY);
export const TOPIC_COLUMNS = columnsOf(TOPIC);
/** A category's links to its ancestors become its parent's slug, a column after `depth`. */
const PARENT: Column = { name: 'parent', sql: 'parent TEXT REFERENCES categories (slug)' };
const afterDepth = CATEGORY_COLUMNS.findIndex((c) => c.name === 'depth') + 1;
const CATEGORY_TABLE = [...CATEGORY_COLUMNS.slice(0, afterDepth), PARENT, ...CATEGORY_COLUMNS.slice(afterDepth)];

/** `CREATE TABLE`, its columns' definitions filled into lines of at most 110 characters (the bytes are the database's). */
function createTable(table: string, columns: readonly Column[]): string {
  const lines: string[] = [];
  let line = '';
  columns.forEach((c, i) => {
    const end = i === columns.length - 1 ? ');' : ',';
    if (line !== '' && `${line}, ${c.sql}${end}`.length > 110) {
      lines.push(`${line},`);
      line = '';
    }
    line = line === '' ? `  ${c.sql}` : `${line}, ${c.sql}`;
  });
  return `CREATE TABLE ${table} (\n${lines.join('\n')}${lines.length > 0 ? '\n' : ''}${line});`;
}

/** The schema: a table of each kind of record, its lists of links as tables, the searched text. */
export const SCHEMA = `
${createTable('entries', ENTRY_COLUMNS)}
${createTable('categories', CATEGORY_TABLE)}
${createTable('topics', TOPIC_COLUMNS)}
CREATE TABLE entry_topics (
  entry TEXT NOT NULL REFERENCES entries (date), topic INTEGER NOT NULL REFERENCES topics (id),
  PRIMARY KEY (entry, topic)) WITHOUT ROWID;
CREATE INDEX entry_topics_by_topic ON entry_topics (topic, entry);
CREATE TABLE topic_categories (
  topic INTEGER NOT NULL REFERENCES topics (id), category TEXT NOT NULL REFERENCES categories (slug),
  PRIMARY KEY (topic, category)) WITHOUT ROWID;
CREATE INDEX topic_categories_by_category ON topic_categories (category, topic);
-- Text content (tags stripped, entities decoded), as the API's search reads it; docid is the
-- rowid of the record (entries.rowid, topics.id).
CREATE VIRTUAL TABLE entries_fts USING fts4 (content="", title, text, notes, tokenize=porter);
CREATE VIRTUAL TABLE topics_fts USING fts4 (content="", title, text, notes, tokenize=porter);
`;

/** The tables of SCHEMA that rows are inserted into, each a run of steps (inPieces). */
export type Table =
  | 'entries'
  | 'entries_fts'
  | 'categories'
  | 'topics'
  | 'topics_fts'
  | 'entry_topics'
  | 'topic_categories';

/** The columns of `table` that SCHEMA declares TEXT. */
function textColumns(table: string): Set<string> {
  const definition = SCHEMA.match(new RegExp(`CREATE TABLE ${table} \\(([^;]*)\\)[^;]*;`))?.[1];
  if (definition === undefined) throw new Error(`no table ${table} in the schema`);
  return new Set(Array.from(definition.matchAll(/(\w+) TEXT\b/g), (m) => m[1] as string));
}

/** A statement's parameter: a text one is bound from its bytes (sqlite-steps.mjs, textParameters). */
const parameter = (text: boolean) => (text ? TEXT_PARAMETER : '?');

/** The insert of `names` into `table`, the columns SCHEMA declares TEXT bound from their bytes. */
function insertInto(table: string, names: readonly string[]): string {
  const text = textColumns(table);
  return `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((n) => parameter(text.has(n))).join(', ')})`;
}

/** A searched text's three fields, bound from their bytes. */
const TEXT_FIELDS = [1, 2, 3].map(() => parameter(true)).join(', ');

/** The steps that insert `count` records' searched text into `table`: docid, then fields (search/documents.ts). */
export const searchedText = (table: string, count: number, row: (i: number) => Cell[]) =>
  inPieces(table, `INSERT INTO ${table} (docid, title, text, notes) VALUES (?, ${TEXT_FIELDS})`, count, row);

/** Rows a step of the database carries at most: a piece a message to its thread (database-worker.mjs). */
const ROWS_A_STEP = 256;

/**
 * The steps that run `sql`, an insert into `table`, for each of `count` rows, made a piece at a
 * time: a run whose only effect is the table's rows, which the watch mode's next database copies
 * from this one when its steps are the same (sqlite-steps.mjs, `reusable`).
 */
function* inPieces(table: string, sql: string, count: number, row: (i: number) => Cell[]): Generator<DatabaseStep> {
  yield { reusable: [table] };
  for (let from = 0; from < count; from += ROWS_A_STEP) {
    const rows: Cell[][] = [];
    for (let i = from; i < Math.min(count, from + ROWS_A_STEP); i++) rows.push(row(i));
    yield { sql, rows };
  }
  yield { reusable: null };
}

/** The steps that insert `rows`, each the values of `names`, into `table`. */
export const insertRows = (table: string, names: readonly string[], rows: readonly Cell[][]) =>
  inPieces(table, insertInto(table, names), rows.length, (i) => rows[i] as Cell[]);

/**
 * The steps that insert `count` records' `columns` (fields of each detail, by the same names) into
 * `table`; `detailAt` makes a record's detail when its piece is made (never all of them at once).
 */
export function insertRecords(
  table: string,
  columns: readonly Column[],
  count: number,
  detailAt: (i: number) => object,
  extra: { column: string; values: readonly Cell[] } | null = null,
): Generator<DatabaseStep> {
  const names = [...columns.map((c) => c.name), ...(extra === null ? [] : [extra.column])];
  return inPieces(table, insertInto(table, names), count, (i) => {
    // A detail's field that is a column is one cell (columnsOf).
    const r = detailAt(i) as Record<string, Cell>;
    return [...columns.map((c) => r[c.name] as Cell), ...(extra === null ? [] : [extra.values[i] ?? null])];
  });
}
