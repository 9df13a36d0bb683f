// The downloads' database is made in a file given its room at once (sqlite-steps.mjs
// roomyDatabase), so that sql.js does not copy the file each time it grows: an empty database
// whose pages but the first are on the freelist. SQLite must take it as a sound empty database,
// and the database made in it must be byte for byte the one made in an empty file, whether the
// room is too much, too little or none.

import fc from 'fast-check';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { type DatabaseStep, makeDatabase, roomyDatabase } from '../generator/render/sqlite-steps.mjs';

const SQL = await initSqlJs();

function pragma(db: InstanceType<typeof SQL.Database>, name: string): unknown {
  return db.exec(`PRAGMA ${name}`)[0]?.values[0]?.[0];
}

/** Steps like the downloads' own: a table and its full-text index, filled, optimized, vacuumed. */
function steps(rows: readonly [string, string][]): DatabaseStep[] {
  return [
    { sql: 'PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;' },
    {
      sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT); CREATE VIRTUAL TABLE notes_fts USING fts4(title, body, tokenize=porter);',
    },
    { sql: 'BEGIN' },
    {
      sql: 'INSERT INTO notes VALUES (?, CAST(? AS TEXT), CAST(? AS TEXT))',
      rows: rows.map(([t, b], i) => [i + 1, t, b]),
    },
    {
      sql: 'INSERT INTO notes_fts (docid, title, body) VALUES (?, ?, ?)',
      rows: rows.map(([t, b], i) => [i + 1, t, b]),
    },
    { sql: 'COMMIT' },
    { sql: "INSERT INTO notes_fts (notes_fts) VALUES ('optimize')" },
    { sql: 'VACUUM' },
  ];
}

describe('the database made in a file given its room at once', () => {
  it.each([2, 3, 1018, 1019, 1020, 5000])('an empty database of %i pages, all but one free, is sound', (pages) => {
    const db = new SQL.Database(roomyDatabase(pages));
    try {
      expect(pragma(db, 'integrity_check')).toBe('ok');
      expect(pragma(db, 'page_count')).toBe(pages);
      expect(pragma(db, 'freelist_count')).toBe(pages - 1);
      expect(pragma(db, 'page_size')).toBe(4096);
      expect(db.exec('SELECT count(*) FROM sqlite_schema')[0]?.values[0]?.[0]).toBe(0);
      // Pages are taken from the freelist before the file grows.
      const fill = 'CREATE TABLE t (x); INSERT INTO t VALUES (zeroblob(20000));';
      const empty = new SQL.Database();
      empty.run(fill);
      const needed = pragma(empty, 'page_count') as number;
      empty.close();
      db.run(fill);
      expect(pragma(db, 'page_count')).toBe(Math.max(pages, needed));
      expect(pragma(db, 'integrity_check')).toBe('ok');
    } finally {
      db.close();
    }
  });

  it('gives the bytes of the same database made in an empty file, with too much, too little or no room', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 400 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 60 }),
        fc.constantFrom(0, 4096, 40_000, 400_000, 4_000_000),
        (rows, room) => {
          const plain = makeDatabase(SQL, steps(rows));
          const roomy = makeDatabase(SQL, steps(rows), room);
          expect(Buffer.compare(Buffer.from(roomy), Buffer.from(plain))).toBe(0);
          const db = new SQL.Database(roomy);
          try {
            expect(pragma(db, 'integrity_check')).toBe('ok');
            expect(pragma(db, 'freelist_count')).toBe(0);
            expect(db.exec('SELECT count(*) FROM notes')[0]?.values[0]?.[0]).toBe(rows.length);
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
