// Runs a database's steps in sql.js and gives the database's bytes: shared by the thread that
// makes the downloads' database (database-worker.mjs), which is given the steps one by one, and by
// render/downloads.ts when it makes it on the caller's thread (renderSite: the watch mode's first
// render, its downloads made at once for the tests, the tests' renders). Plain JavaScript, so
// that a worker thread can load it under any Node (Node 20 does not give worker threads the module
// hooks that run this project's TypeScript); what the steps are is decided in downloads.ts.

import { createHash } from 'node:crypto';

// A string bound as text is copied into SQLite's memory by sql.js's own JavaScript, three loops
// over its characters; the same text as bytes (TextEncoder, native) is one copy. A parameter
// written `CAST(? AS TEXT)` in a statement is bound so: the bytes as a blob, which the cast makes
// the same TEXT value (same bytes, then the column's affinity as for any text), so the database is
// the same, made faster (whole diary: the entries' rows ≈250 -> ≈70 ms, their full-text rows
// ≈500 -> ≈360 ms; docs/performance.md). A cell that is not a string or null is refused there:
// cast to text, a number would no longer be one.
export const TEXT_PARAMETER = 'CAST(? AS TEXT)';
const encoder = new TextEncoder();

/**
 * For each `?` of a statement, in order, whether it is written `CAST(? AS TEXT)`; null when none
 * is. (The statements are the project's own: no `?` in a literal.)
 * @param {string} sql @returns {boolean[] | null}
 */
export function textParameters(sql) {
  if (!sql.includes(TEXT_PARAMETER)) return null;
  const marks = [];
  for (const m of sql.matchAll(/CAST\(\? AS TEXT\)|\?/g)) marks.push(m[0] === TEXT_PARAMETER);
  return marks;
}

// The bytes of a row's text parameters, one after another: one buffer for every row, not one a
// cell (a typed array a cell, the topics' rows at thirty times the encyclopedia made millions of
// small buffers, and the build took about 6 s more). Each cell is a view of it, copied into
// SQLite's memory when it is bound, before the next row overwrites it.
let scratch = new Uint8Array(1 << 16);

/**
 * A row's cells as they are bound: each string of a text parameter as its UTF-8 bytes.
 * @param {import('./sqlite-steps.d.mts').Cell[]} row @param {boolean[]} text @param {string} sql
 */
function bound(row, text, sql) {
  let most = 0;
  for (const cell of row) if (typeof cell === 'string') most += cell.length * 3;
  if (most > scratch.length) scratch = new Uint8Array(Math.max(most, scratch.length * 2));
  let at = 0;
  /** @type {Array<import('./sqlite-steps.d.mts').Cell | Uint8Array>} */
  const cells = new Array(row.length);
  for (let i = 0; i < row.length; i++) {
    const cell = /** @type {import('./sqlite-steps.d.mts').Cell} */ (row[i]);
    if (text[i] !== true || cell === null) cells[i] = cell;
    else if (typeof cell !== 'string')
      throw new TypeError(`parameter ${i + 1} of ${sql.slice(0, 60)} is text, given ${typeof cell}`);
    // A lone surrogate (a string that is not well-formed UTF-16) is written by sql.js as its own
    // three bytes and by TextEncoder as U+FFFD's: such a string is bound as text, as before.
    else if (!cell.isWellFormed()) cells[i] = cell;
    else {
      // At most three bytes a UTF-16 unit: the room is always enough.
      const { written } = encoder.encodeInto(cell, scratch.subarray(at));
      cells[i] = scratch.subarray(at, at + written);
      at += written;
    }
  }
  return cells;
}

// SQLite's default page size, which the steps keep.
const PAGE = 4096;
// The most leaf pages a freelist trunk page lists: SQLite writes at most usable size / 4 - 8.
const LEAVES = PAGE / 4 - 8;

/**
 * An empty database whose file is `pages` pages long, all but the first on the freelist.
 *
 * sql.js keeps the database's file in an emulated file system that grows a file by copying it
 * whole into an array an eighth bigger: writing the whole diary's database (26 MB before its
 * VACUUM) copied about eight times that, most of the database thread's time. SQLite takes the
 * pages a database grows into from its freelist before it appends: given room at once, the file
 * is not copied as it grows. The VACUUM at the end writes every page again from the rows, and
 * cuts the file to its size, so the bytes are those of a database made in an empty file.
 * @param {number} pages @returns {Uint8Array}
 */
export function roomyDatabase(pages) {
  const file = new Uint8Array(pages * PAGE);
  const view = new DataView(file.buffer);
  file.set(new TextEncoder().encode('SQLite format 3\0'));
  view.setUint16(16, PAGE);
  file.set([1, 1, 0, 64, 32, 32], 18); // rollback journal; no reserved bytes; payload fractions
  view.setUint32(24, 1); // file change counter
  view.setUint32(28, pages); // size in pages
  view.setUint32(32, pages > 1 ? 2 : 0); // first freelist trunk page
  view.setUint32(36, pages - 1); // freelist pages
  view.setUint32(44, 4); // schema format
  view.setUint32(56, 1); // UTF-8
  view.setUint32(92, 1); // version-valid-for: the change counter, so the size above is trusted
  view.setUint32(96, 3_000_000); // SQLite version number of the last writer: rewritten on commit
  // Page 1's b-tree: an empty table leaf (the schema), content area at the page's end.
  file.set([0x0d, 0, 0, 0, 0, PAGE >> 8, PAGE & 0xff, 0], 100);
  // Trunk pages, each followed by the leaves it lists.
  for (let trunk = 2; trunk <= pages; ) {
    const leaves = Math.min(LEAVES, pages - trunk);
    const next = trunk + leaves + 1;
    const at = (trunk - 1) * PAGE;
    view.setUint32(at, next <= pages ? next : 0);
    view.setUint32(at + 4, leaves);
    for (let i = 0; i < leaves; i++) view.setUint32(at + 8 + 4 * i, trunk + 1 + i);
    trunk = next;
  }
  return file;
}

// A run of steps (opened by `{ reusable: tables }`, closed by `{ reusable: null }`) whose only
// effect is the rows of those tables: the same steps give the same rows. A writer told to keep its
// database for the next (`reuse`, the watch mode: an edit after another) hashes each step of each
// run; the next writer, given that database, is sent `{ copy: tables }` in place of a run whose
// steps hash as the kept one's did (run-copies.ts decides, on the thread that makes the steps), and
// copies the tables' rows from it instead of running them (the topics' tables after an entry's
// edit, the entries' after a topic's: a third to a half of the database's work on the whole
// diary). A full-text table's rows are those of its own tables (FTS4's `_segments`, `_segdir`,
// `_docsize`, `_stat`), kept after its optimize: the optimize that follows the copy finds one
// segment and leaves it, and the VACUUM writes the database again from its tables' rows, so the
// bytes are those of the steps run (docs/performance.md, "Runs copied").

/**
 * The most text a run's steps may hold (their cells' length) to be hashed, and held back while
 * they are the last database's: a longer run is run as it comes and not hashed further, nor in the
 * next databases (thirty times the encyclopedia's topics: 63 M characters, which holding back
 * would cost as much memory as time).
 */
export const HELD_AT_MOST = 24_000_000;

/**
 * What a step weighs: its text's length, and a few bytes a cell that is not text. The measure of
 * a run that may be held (HELD_AT_MOST), and of the steps in flight to the database's thread
 * (database-thread.ts).
 * @param {import('./sqlite-steps.d.mts').SqlStep} step @returns {number}
 */
export function stepWeight(step) {
  let weight = step.sql.length;
  for (const row of step.rows ?? []) for (const cell of row) weight += typeof cell === 'string' ? cell.length : 8;
  return weight;
}

/**
 * The hash of a step of a run: its SQL, then each cell with its type and length, so that no two
 * cells run together. A cell at a time: a third of the time of hashing the rows' JSON (the whole
 * diary's searched text, 7.4 M characters: about 20 ms against 70).
 * @param {import('./sqlite-steps.d.mts').SqlStep} step @returns {string}
 */
export function stepHash(step) {
  const hash = createHash('sha1').update(step.sql);
  for (const row of step.rows ?? []) {
    hash.update('\n');
    for (const cell of row) {
      if (typeof cell !== 'string') hash.update(cell === null ? 'n;' : `d${cell};`);
      // Lone surrogates would all hash as U+FFFD: such a string is hashed as its JSON.
      else if (cell.isWellFormed()) hash.update(`s${cell.length};`).update(cell);
      else hash.update(`j${JSON.stringify(cell)};`);
    }
  }
  return hash.digest('base64');
}

/**
 * The statements that copy `table`'s rows (a full-text table's: those of its own tables) from the
 * attached database `kept`, each row with its rowid.
 * @param {import('sql.js').Database} db @param {string} table @returns {string[]}
 */
function copyStatements(db, table) {
  const stored = db.exec(
    `SELECT name, sql FROM kept.sqlite_master WHERE type = 'table' AND name IN (?, ?, ?, ?, ?, ?) ORDER BY name`,
    [table, ...['_segments', '_segdir', '_docsize', '_stat', '_content'].map((s) => table + s)],
  );
  const rows = /** @type {Array<[string, string]>} */ (stored[0]?.values ?? []);
  const tables = rows.filter(([, sql]) => !sql.startsWith('CREATE VIRTUAL TABLE'));
  if (tables.length === 0) throw new Error(`no table ${table} to copy in the kept database`);
  return tables.map(([name, sql]) => {
    if (/\bWITHOUT ROWID\s*;?\s*$/i.test(sql)) return `INSERT INTO main."${name}" SELECT * FROM kept."${name}"`;
    const columns = db.exec(`SELECT name FROM pragma_table_info(?, 'kept')`, [name])[0]?.values ?? [];
    const list = ['rowid', ...columns.map(([c]) => `"${c}"`)].join(', ');
    return `INSERT INTO main."${name}" (${list}) SELECT ${list} FROM kept."${name}"`;
  });
}

/**
 * The name of `db`'s file in sql.js's file system (not in its types), for another database to
 * attach it.
 * @param {import('sql.js').Database} db @returns {string}
 */
const fileOf = (db) => /** @type {{ filename: string }} */ (/** @type {unknown} */ (db)).filename;

/**
 * A new in-memory database that steps are run on one after another (`step`), then made bytes
 * (`end`, or `endKept`, which leaves it open for the next writer to copy runs from) or dropped
 * (`abandon`). A statement with rows is prepared once and kept for the steps that follow with the
 * same SQL (an insert sent in pieces); SQL without rows frees them first. Given `bytes`, the
 * database's file has room for about that many bytes at once (roomyDatabase).
 * @param {import('sql.js').SqlJsStatic} SQL @param {number} [bytes]
 */
export function databaseWriter(SQL, bytes = 0) {
  const pages = Math.ceil(bytes / PAGE);
  const db = pages > 1 ? new SQL.Database(roomyDatabase(pages)) : new SQL.Database();
  /** @type {Map<string, { statement: import('sql.js').Statement, text: boolean[] | null }>} */
  const statements = new Map();
  const free = () => {
    for (const { statement } of statements.values()) statement.free();
    statements.clear();
  };
  /** @param {import('./sqlite-steps.d.mts').SqlStep} step */
  const run = (step) => {
    if (step.rows === undefined) {
      free();
      db.run(step.sql);
      return;
    }
    let prepared = statements.get(step.sql);
    if (prepared === undefined) {
      prepared = { statement: db.prepare(step.sql), text: textParameters(step.sql) };
      statements.set(step.sql, prepared);
    }
    const { statement, text } = prepared;
    for (const row of step.rows) statement.run(text === null ? row : bound(row, text, step.sql));
  };

  /** Whether runs are hashed (`reuse` was called), and the database they may be copied from. */
  let hashing = false;
  /** The most text a run may hold to be hashed (HELD_AT_MOST but in the tests). */
  let longest = HELD_AT_MOST;
  /** @type {import('./sqlite-steps.d.mts').KeptDatabase | undefined} */
  let from;
  /** This database's runs: each one's steps' hashes (null: too long to hash), by its tables. */
  const runs = new Map();
  /**
   * The run under way: its steps' hashes so far (null: not hashed), and their weight.
   * @type {{ key: string, hashes: string[] | null, weight: number } | null}
   */
  let current = null;
  /** The runs copied, by their tables. @type {string[]} */
  const copied = [];
  const detach = () => {
    if (copied.length > 0) db.run('DETACH kept');
  };
  /** @param {readonly string[] | null} tables */
  const mark = (tables) => {
    if (tables !== null) {
      if (current !== null) throw new Error('a run of steps began within another');
      const key = tables.join(' ');
      // A run the last database did not hash (too long) is not hashed now either.
      current = { key, hashes: hashing && from?.runs.get(key) !== null ? [] : null, weight: 0 };
      return;
    }
    if (current === null) throw new Error('a run of steps ended that had not begun');
    if (hashing) runs.set(current.key, current.hashes);
    current = null;
  };
  /** @param {readonly string[]} tables */
  const copy = (tables) => {
    if (current !== null) throw new Error('a run of steps was copied within another');
    const key = tables.join(' ');
    const hashes = from?.runs.get(key) ?? null;
    if (from === undefined || (hashing && hashes === null)) throw new Error(`no run of ${key} to copy`);
    free();
    // Attached until the end: SQLite detaches no database within a transaction.
    if (copied.length === 0) db.run(`ATTACH '${from.file}' AS kept`);
    for (const table of tables) for (const sql of copyStatements(db, table)) db.run(sql);
    copied.push(key);
    if (hashing) runs.set(key, hashes);
  };
  return {
    /** @param {import('./sqlite-steps.d.mts').DatabaseStep} step */
    step(step) {
      if ('reusable' in step) return mark(step.reusable);
      if ('copy' in step) return copy(step.copy);
      if (current !== null && current.hashes !== null) {
        current.weight += stepWeight(step);
        if (current.weight > longest) current.hashes = null;
        else current.hashes.push(step.hash ?? stepHash(step));
      }
      run(step);
    },
    /** @param {import('./sqlite-steps.d.mts').KeptDatabase} kept */
    copyFrom(kept) {
      from = kept;
    },
    /** @param {import('./sqlite-steps.d.mts').KeptDatabase | undefined} kept @param {number} [most] */
    reuse(kept, most = HELD_AT_MOST) {
      hashing = true;
      from = kept;
      longest = most;
    },
    get copied() {
      return copied;
    },
    end() {
      try {
        free();
        detach();
        return db.export();
      } finally {
        db.close();
      }
    },
    endKept() {
      if (!hashing) throw new Error('a database is kept only when its runs were hashed (reuse)');
      free();
      detach();
      const bytes = db.export();
      return { bytes, kept: { file: fileOf(db), runs, close: () => db.close() } };
    },
    abandon() {
      free();
      db.close();
    },
  };
}

/**
 * A database's bytes (the last build's, read back) opened for a writer to copy tables from
 * (`copyFrom`); its runs are not known.
 * @param {import('sql.js').SqlJsStatic} SQL @param {Uint8Array} bytes
 * @returns {import('./sqlite-steps.d.mts').KeptDatabase}
 */
export function openedDatabase(SQL, bytes) {
  const db = new SQL.Database(bytes);
  return { file: fileOf(db), runs: new Map(), close: () => db.close() };
}

/**
 * A new in-memory database, each step run on it in order; its bytes.
 * @param {import('sql.js').SqlJsStatic} SQL @param {Iterable<import('./sqlite-steps.d.mts').DatabaseStep>} steps
 * @param {number} [bytes]
 */
export function makeDatabase(SQL, steps, bytes = 0) {
  const writer = databaseWriter(SQL, bytes);
  try {
    for (const step of steps) writer.step(step);
  } catch (err) {
    writer.abandon();
    throw err;
  }
  return writer.end();
}
