// The downloads as the cold build makes them (render/downloads.ts downloadFilesInThread: the
// database on a thread of its own, the gzip on libuv's pool) against the same made on the
// caller's thread: the same files, byte for byte, in the same order, paced or not; and stopped, it
// rejects. The database's thread is sent its steps only a few ahead, and its failures reach the
// caller.

import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { readContent, validate } from '../generator/content/load.ts';
import type { Model } from '../generator/core/model.ts';
import { databaseThread, downloadFiles, downloadFilesInThread } from '../generator/render/downloads.ts';
import { makeDatabase } from '../generator/render/sqlite-steps.mjs';
import { writeContent } from './helpers/content.ts';
import { mediumSite } from './helpers/medium-site.ts';

async function modelOf(contentDir: string): Promise<Model> {
  const v = validate(await readContent(contentDir, { env: {}, readAhead: false }));
  if (!v.ok) throw new Error(v.problems[0]?.message);
  return v.model;
}

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

  it('paced (the watch mode): waits between pieces of its work here, and gives the same files', async () => {
    const model = await modelOf(writeContent(mediumSite(600, 400)));
    let paces = 0;
    const paced = await downloadFilesInThread(model, undefined, async () => {
      paces++;
      await nextTurn();
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
    const made = downloadFilesInThread(model, stop.signal, async () => {
      if (++paces === 3) stop.abort(reason);
    });
    await expect(made).rejects.toBe(reason);
    expect(paces).toBe(3);
  });

  it('rejects with the reason when stopped, and a new one still works', async () => {
    const model = await modelOf(join(import.meta.dirname, '..', 'content'));
    const stop = new AbortController();
    const made = downloadFilesInThread(model, stop.signal);
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
    const thread = databaseThread(limit);
    const weights: number[] = [];
    weights.push(await thread.step({ sql: 'CREATE TABLE t (a TEXT)' }));
    // Twenty steps of 100,000 characters: sent at once, they would be 2,000,000 in its queue.
    for (let i = 0; i < 20; i++)
      weights.push(await thread.step({ sql: 'INSERT INTO t VALUES (?)', rows: [[big(100_000)]] }));
    const bytes = await thread.end();
    expect(Math.max(...weights)).toBeLessThanOrEqual(limit);
    expect(bytes.length).toBeGreaterThan(2_000_000);
    // The same steps on this thread: the same bytes.
    const here = makeDatabase(await initSqlJs(), [
      { sql: 'CREATE TABLE t (a TEXT)' },
      ...Array.from({ length: 20 }, () => ({ sql: 'INSERT INTO t VALUES (?)', rows: [[big(100_000)]] })),
    ]);
    expect(Buffer.compare(Buffer.from(bytes), Buffer.from(here))).toBe(0);
  });

  it('a step that fails: the next step or the end rejects with SQLite’s error, nothing waits forever', async () => {
    const thread = databaseThread(1);
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
