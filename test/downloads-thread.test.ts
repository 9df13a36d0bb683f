// The downloads as the cold build makes them (render/downloads.ts downloadFilesInThread: the
// database and the gzip of the NDJSON on a thread of their own) against the same made on the
// caller's thread: the same files, byte for byte, in the same order, paced or not; and stopped, it
// rejects. The database's thread is sent its steps only a few ahead, and its failures reach the
// caller. Text bound from its bytes (sqlite-steps.mjs, `CAST(? AS TEXT)`) makes the database
// bound from strings would.

import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { databaseThread, GZIP } from '../generator/render/database-thread.ts';
import { downloadFiles, downloadFilesInThread } from '../generator/render/downloads.ts';
import { type DatabaseStep, makeDatabase, textParameters } from '../generator/render/sqlite-steps.mjs';
import { modelOf, writeContent } from './helpers/content.ts';
import { mediumSite } from './helpers/medium-site.ts';

describe('downloads made off the main thread', () => {
  it.each([
    ['the sample content', () => join(import.meta.dirname, '..', 'content')],
    ['a site of a few hundred records', () => writeContent(mediumSite())],
  ])('give the same files as on this thread: %s', async (_name, contentDir) => {
    const model = await modelOf(contentDir());
    const here = downloadFiles(model);
    const there = await downloadFilesInThread(model);
    expect(there.list).toEqual(here.list);
    expect(there.files.map((f) => f.path)).toEqual(here.files.map((f) => f.path));
    for (const [i, f] of there.files.entries()) {
      expect(Buffer.compare(Buffer.from(f.body), Buffer.from(here.files[i]?.body ?? [])), f.path).toBe(0);
    }
  });

  it('gzip the NDJSON at level 6, chosen by measurement (docs/performance.md), on the thread or not', async () => {
    const model = await modelOf(join(import.meta.dirname, '..', 'content'));
    const here = downloadFiles(model);
    const there = await downloadFilesInThread(model);
    const gzipped = [...here.files, ...there.files].filter((f) => f.path.endsWith('.ndjson.gz'));
    expect(gzipped).toHaveLength(6);
    for (const f of gzipped) {
      const ndjson = gunzipSync(f.body);
      expect(Buffer.compare(Buffer.from(f.body), gzipSync(ndjson, { level: 6 })), f.path).toBe(0);
    }
    // The sample's entries are enough to tell level 6 from level 9, the level before.
    const entries = gunzipSync(gzipped[0]?.body ?? new Uint8Array());
    expect(Buffer.compare(gzipSync(entries, { level: 6 }), gzipSync(entries, { level: 9 }))).not.toBe(0);
  });

  it('paced (the watch mode): waits between pieces of its work here, and gives the same files', async () => {
    const model = await modelOf(writeContent(mediumSite(600, 400)));
    let paces = 0;
    const paced = await downloadFilesInThread(model, {
      pace: async () => {
        paces++;
        await nextTurn();
      },
    });
    // Pieces of 256 rows: the 600 entries alone are three pieces of each of two inserts.
    expect(paces).toBeGreaterThan(6);
    const here = downloadFiles(model);
    expect(paced.list).toEqual(here.list);
    for (const [i, f] of paced.files.entries())
      expect(Buffer.compare(Buffer.from(f.body), Buffer.from(here.files[i]?.body ?? [])), f.path).toBe(0);
  });

  it('stopped between two pieces, rejects with the reason', async () => {
    const model = await modelOf(writeContent(mediumSite(600, 400)));
    const stop = new AbortController();
    const reason = new Error('stopped by the test');
    let paces = 0;
    const made = downloadFilesInThread(model, {
      signal: stop.signal,
      pace: async () => {
        if (++paces === 3) stop.abort(reason);
      },
    });
    await expect(made).rejects.toBe(reason);
    expect(paces).toBe(3);
  });

  it('rejects with the reason when stopped, and a new one still works', async () => {
    const model = await modelOf(join(import.meta.dirname, '..', 'content'));
    const stop = new AbortController();
    const made = downloadFilesInThread(model, { signal: stop.signal });
    const reason = new Error('stopped by the test');
    stop.abort(reason);
    await expect(made).rejects.toBe(reason);
    const again = await downloadFilesInThread(model);
    expect(again.files.length).toBe(downloadFiles(model).files.length);
  });
});

describe("the database's thread", () => {
  const big = (n: number) => 'x'.repeat(n);

  it('is kept only a few steps ahead: what it has yet to run never weighs more than its limit', async () => {
    const limit = 300_000;
    const thread = databaseThread({ limit });
    const weights: number[] = [];
    weights.push(await thread.step({ sql: 'CREATE TABLE t (a TEXT)' }));
    // Twenty steps of 100,000 characters: sent at once, they would be 2,000,000 in its queue.
    for (let i = 0; i < 20; i++)
      weights.push(await thread.step({ sql: 'INSERT INTO t VALUES (?)', rows: [[big(100_000)]] }));
    const bytes = (await thread.end()).database;
    expect(Math.max(...weights)).toBeLessThanOrEqual(limit);
    expect(bytes.length).toBeGreaterThan(2_000_000);
    // The same steps on this thread: the same bytes.
    const here = makeDatabase(await initSqlJs(), [
      { sql: 'CREATE TABLE t (a TEXT)' },
      ...Array.from({ length: 20 }, () => ({ sql: 'INSERT INTO t VALUES (?)', rows: [[big(100_000)]] })),
    ]);
    expect(Buffer.compare(Buffer.from(bytes), Buffer.from(here))).toBe(0);
  });

  it("gzips each stream's pieces in the order given: the bytes gzipSync makes of the whole", async () => {
    // A backlog of one byte: every piece waits for its stream to drain before it is answered, and
    // the steps sent meanwhile wait their turn.
    const limit = 50_000;
    const thread = databaseThread({ limit, streams: 2, backlog: 1 });
    const pieces = Array.from({ length: 40 }, (_, i) => Buffer.from(`${i} ${'plague '.repeat(500 + i * 37)}\n`));
    const weights: number[] = [await thread.step({ sql: 'CREATE TABLE t (a TEXT)' })];
    for (const [i, piece] of pieces.entries()) {
      // A copy: the thread takes the buffer it is given.
      weights.push(await thread.append(i % 2, Buffer.from(piece)));
      if (i % 5 === 0) weights.push(await thread.step({ sql: 'INSERT INTO t VALUES (?)', rows: [[String(i)]] }));
    }
    await expect(thread.append(2, Buffer.from('x'))).rejects.toThrow(/no gzip stream 2/);
    const { database, gzipped } = await thread.end();
    expect(Math.max(...weights)).toBeLessThanOrEqual(limit);
    expect(gzipped).toHaveLength(2);
    for (const stream of [0, 1]) {
      const whole = Buffer.concat(pieces.filter((_, i) => i % 2 === stream));
      expect(Buffer.compare(gunzipSync(gzipped[stream] as Uint8Array), whole)).toBe(0);
      // Given in pieces, deflate makes the bytes it makes of the whole (the downloads' level).
      expect(Buffer.compare(Buffer.from(gzipped[stream] as Uint8Array), gzipSync(whole, GZIP))).toBe(0);
    }
    expect(database.length).toBeGreaterThan(0);
  });

  it('a step that fails: the next step or the end rejects with SQLite’s error, nothing waits forever', async () => {
    const thread = databaseThread({ limit: 1 });
    await expect(
      (async () => {
        await thread.step({ sql: 'CREATE TABLE t (a TEXT)' });
        await thread.step({ sql: 'INSERT INTO nowhere VALUES (?)', rows: [['a']] });
        for (let i = 0; i < 5; i++) await thread.step({ sql: 'INSERT INTO t VALUES (?)', rows: [['b']] });
        return thread.end();
      })(),
    ).rejects.toThrow(/no such table: nowhere/);
    thread.stop();
  });
});

describe('text bound from its bytes', () => {
  it('finds the parameters written CAST(? AS TEXT), in order', () => {
    expect(textParameters('INSERT INTO t VALUES (?, CAST(? AS TEXT), ?, CAST(? AS TEXT))')).toEqual([
      false,
      true,
      false,
      true,
    ]);
    expect(textParameters('INSERT INTO t VALUES (?, ?)')).toBeNull();
  });

  // Any string: ASCII, accents, other scripts, astral characters, lone surrogates (which sql.js
  // and TextEncoder write differently: those are bound as strings), empty, or no value.
  const text = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    // Any code point, lone surrogates included: what fast-check's 'binary' unit gives, without
    // the map of all 1,114,112 that it builds first (a second of CPU).
    fc.string({ unit: fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)), maxLength: 30 }),
    fc.constantFrom('', 'a\uD800b', '\uDC00', 'é', '𝄞 clef', 'plague\u0000'),
    fc.constant(null),
  );
  const statements = (cast: boolean): { schema: DatabaseStep; insert: string; fts: string } => {
    const p = cast ? 'CAST(? AS TEXT)' : '?';
    return {
      schema: {
        sql: `CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b TEXT NOT NULL DEFAULT '', n INTEGER);
          CREATE VIRTUAL TABLE f USING fts4 (content="", a, b, tokenize=porter);`,
      },
      insert: `INSERT INTO t (id, a, b, n) VALUES (?, ${p}, ${p}, ?)`,
      fts: `INSERT INTO f (docid, a, b) VALUES (?, ${p}, ${p})`,
    };
  };

  it('makes the same database as text bound from strings, full-text index included', async () => {
    const SQL = await initSqlJs();
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            text,
            text.map((t) => t ?? ''),
          ),
          { maxLength: 12 },
        ),
        (rows) => {
          const made = (cast: boolean) => {
            const s = statements(cast);
            return makeDatabase(SQL, [
              s.schema,
              { sql: s.insert, rows: rows.map(([a, b], i) => [i + 1, a, b, i]) },
              { sql: s.fts, rows: rows.map(([a, b], i) => [i + 1, a, b]) },
              { sql: 'VACUUM' },
            ]);
          };
          expect(Buffer.compare(Buffer.from(made(true)), Buffer.from(made(false)))).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a number given to a text parameter (cast, it would no longer be one)', async () => {
    const SQL = await initSqlJs();
    const s = statements(true);
    expect(() => makeDatabase(SQL, [s.schema, { sql: s.insert, rows: [[1, 5, 'b', 1]] }])).toThrow(
      /parameter 2 .* is text, given number/,
    );
  });
});
