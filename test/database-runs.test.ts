// A database copies a table's rows from the last one made when the table's steps are the same
// (render/run-copies.ts decides; render/sqlite-steps.mjs copies): each table's inserts are a run of
// steps, hashed step by step. Whatever the edits, each database must be byte for byte the one its
// steps make in a new database, and a run must be copied exactly when its steps are the last
// database's: a table of each kind (an integer key, a text key with its own rowid, WITHOUT ROWID, a
// contentless full-text table), a run that differs only at its end or only in its length.

import fc from 'fast-check';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { databaseRunsCopied, databaseThread, holdDatabaseThread } from '../generator/render/database-thread.ts';
import { copyingRuns } from '../generator/render/run-copies.ts';
import {
  type DatabaseStep,
  databaseWriter,
  type KeptDatabase,
  makeDatabase,
  type SqlStep,
} from '../generator/render/sqlite-steps.mjs';

const SQL = await initSqlJs();

const TABLES = ['notes', 'notes_fts', 'words', 'tags'] as const;
type Table = (typeof TABLES)[number];
type Rows = Record<Table, SqlStep['rows'] & object>;

const INSERTS: Record<Table, string> = {
  notes: 'INSERT INTO notes (id, title, body) VALUES (?, CAST(? AS TEXT), ?)',
  notes_fts: 'INSERT INTO notes_fts (docid, title, body) VALUES (?, CAST(? AS TEXT), CAST(? AS TEXT))',
  words: 'INSERT INTO words (word, count) VALUES (CAST(? AS TEXT), ?)',
  tags: 'INSERT INTO tags (note, tag) VALUES (?, CAST(? AS TEXT))',
};

/** Steps like the downloads' own: each table's inserts a run, in pieces of two rows. */
function steps(rows: Rows): DatabaseStep[] {
  const runs = TABLES.flatMap((table): DatabaseStep[] => {
    const pieces: DatabaseStep[] = [];
    for (let i = 0; i < rows[table].length; i += 2)
      pieces.push({ sql: INSERTS[table], rows: rows[table].slice(i, i + 2) });
    return [{ reusable: [table] }, ...pieces, { reusable: null }];
  });
  return [
    { sql: 'PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;' },
    {
      sql: `CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT);
        CREATE TABLE words (word TEXT PRIMARY KEY, count INTEGER);
        CREATE TABLE tags (note INTEGER, tag TEXT, PRIMARY KEY (note, tag)) WITHOUT ROWID;
        CREATE VIRTUAL TABLE notes_fts USING fts4 (content="", title, body, tokenize=porter);`,
    },
    { sql: 'BEGIN' },
    ...runs,
    { sql: 'COMMIT' },
    { sql: "INSERT INTO notes_fts (notes_fts) VALUES ('optimize')" },
    { sql: 'VACUUM' },
  ];
}

const text = fc.oneof(
  fc.constantFrom('the king', 'a fire in the city', 'plague', 'my wife and I', 'so to bed'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);
const notes = fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: 40 }), text, fc.option(text)), {
  maxLength: 7,
  selector: ([id]) => id,
});
const words = fc.uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 9 })), {
  maxLength: 7,
  selector: ([w]) => w,
});
const tags = fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: 9 }), fc.constantFrom('a', 'b', 'c')), {
  maxLength: 7,
  selector: ([n, t]) => `${n} ${t}`,
});
type Change<R> = { set: R[] } | { edit: number; text: string } | { drop: true } | null;
/** A table's change from the last job: new rows, one row's text changed, the last row dropped, or none (null). */
const change = <R>(rows: fc.Arbitrary<R[]>): fc.Arbitrary<Change<R>> =>
  fc.oneof(
    fc.constant(null),
    rows.map((set) => ({ set })),
    fc.record({ edit: fc.nat(), text }),
    fc.constant({ drop: true as const }),
  );
const job = fc.record({ notes: change(notes), words: change(words), tags: change(tags) });

let edits = 0;
/**
 * The rows after `c`: an edit adds to the text cell `at` of one row (the last row's when past the
 * end), with a mark of its own, so that no key is made twice.
 */
function changed(last: readonly SqlRow[], c: Change<SqlRow>, at: number): SqlRow[] {
  if (c === null) return [...last];
  if ('set' in c) return c.set;
  if ('drop' in c) return last.slice(0, -1);
  if (last.length === 0) return [];
  const i = Math.min(c.edit, last.length - 1);
  return last.map((row, k) =>
    k === i ? row.map((cell, n) => (n === at && typeof cell === 'string' ? `${cell}${c.text}~${++edits}` : cell)) : row,
  );
}
type SqlRow = Array<string | number | null>;

describe("the database's runs copied from the last one", () => {
  it('give the bytes of a new database, and are copied exactly when their steps are the same', () => {
    fc.assert(
      // A limit on a run's text, or none: a run past it is not copied, in that database nor the next.
      fc.property(fc.array(job, { minLength: 1, maxLength: 6 }), fc.option(fc.nat(400)), (jobs, most) => {
        let last: Rows = { notes: [], notes_fts: [], words: [], tags: [] };
        let lastSteps: DatabaseStep[] | undefined;
        let kept: KeptDatabase | undefined;
        try {
          for (const j of jobs) {
            const notesNow = changed(last.notes, j.notes as Change<SqlRow>, 1);
            const rows: Rows = {
              notes: notesNow,
              // A note's full-text row: its id, title and body (no null).
              notes_fts: notesNow.map(([id, t, b]) => [id as number, t as string, (b as string | null) ?? '']),
              words: changed(last.words, j.words as Change<SqlRow>, 0),
              tags: changed(last.tags, j.tags as Change<SqlRow>, 1),
            };
            const all = steps(rows);
            const writer = databaseWriter(SQL);
            writer.reuse(kept, most ?? undefined);
            for (const step of copyingRuns(all, kept?.runs, most ?? undefined)) writer.step(step);
            const made = writer.endKept();
            kept?.close();
            kept = made.kept;
            expect(Buffer.from(made.bytes).equals(Buffer.from(makeDatabase(SQL, all)))).toBe(true);
            // A run is copied when the last database's steps of that table were the same.
            const same = TABLES.filter(
              (t) => lastSteps !== undefined && JSON.stringify(rows[t]) === JSON.stringify(last[t]),
            );
            if (most === null) expect(writer.copied).toEqual(same);
            else expect(same).toEqual(expect.arrayContaining([...writer.copied]));
            last = rows;
            lastSteps = all;
          }
        } finally {
          kept?.close();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('are told by the thread which database it keeps: a job stopped after its end leaves its own', async () => {
    const release = holdDatabaseThread();
    const rows = (n: number): Rows => ({
      notes: [[1, `note ${n}`, null]],
      notes_fts: [[1, `note ${n}`, '']],
      words: [[`w${n}`, n]],
      tags: [[1, 'a']],
    });
    const run = async (made: Rows, copying: boolean) => {
      const thread = databaseThread({ keep: true });
      const from = await thread.copyFrom;
      for (const step of copying ? copyingRuns(steps(made), from) : steps(made)) await thread.step(step);
      return { thread, from, answer: thread.end() };
    };
    try {
      await (await run(rows(1), false)).answer;
      // Stopped once the thread has answered (this thread sleeps meanwhile), before the answer is
      // read here: the thread keeps that job's database, not the first one's.
      const second = await run(rows(2), false);
      expect(second.from?.get('words')).toHaveLength(1);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
      second.thread.stop();
      await expect(second.answer).rejects.toThrow(/stopped/);
      // The next job is told the stopped one's runs, and copies what is the same as its steps.
      const third = await run(rows(2), true);
      const { database } = await third.answer;
      // (Should the thread not have ended the stopped job within that second, a machine very
      // busy, it dropped it and keeps the first: then only the tags are the same.)
      const keptSecond = JSON.stringify([...(third.from ?? [])]) !== JSON.stringify([...(second.from ?? [])]);
      expect(databaseRunsCopied()).toEqual(keptSecond ? ['notes', 'notes_fts', 'words', 'tags'] : ['tags']);
      expect(Buffer.from(database).equals(Buffer.from(makeDatabase(SQL, steps(rows(2)))))).toBe(true);
    } finally {
      release();
    }
  });
});
