// The build's threads are kept between builds of one process (output/kept-threads.ts): the
// database's thread (render/database-thread.ts) and the writer's (output/writer.ts). A build on a
// kept thread must give the bytes a new thread gives, whatever the thread did before: a bigger
// site, a job stopped (the thread drops it) or failed (whose thread is then never used again).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { writeThreadsStarted } from '../generator/output/thread-tree.ts';
import { beginSite } from '../generator/output/writer.ts';
import {
  databaseSparesTaken,
  databaseThread,
  databaseThreadsStarted,
  holdDatabaseThread,
} from '../generator/render/database-thread.ts';
import { downloadFiles, downloadFilesInThread } from '../generator/render/downloads.ts';
import { modelOf, smallSite, writeContent } from './helpers/content.ts';
import { downloadsBytes, readTreeBytes } from './helpers/files.ts';
import { mediumSite } from './helpers/medium-site.ts';
import { tempDir } from './helpers/temp.ts';

const SAMPLE = join(import.meta.dirname, '..', 'content');

function expectSameBytes(got: Map<string, Buffer>, expected: Map<string, Buffer>): void {
  expect([...got.keys()]).toEqual([...expected.keys()]);
  for (const [path, bytes] of got) expect(Buffer.compare(bytes, expected.get(path) as Buffer), path).toBe(0);
}

describe("the downloads' database thread, kept between jobs", () => {
  it('gives the same bytes on a kept thread, after a bigger site, a stopped job and a failed one', async () => {
    const sample = await modelOf(SAMPLE);
    const medium = await modelOf(writeContent(mediumSite(600, 400)));
    // Made on this thread: what a new thread gives too (downloads-thread.test.ts).
    const expected = downloadsBytes(downloadFiles(sample));
    expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected);

    // The next job is given the thread the last one ended on.
    let started = databaseThreadsStarted();
    expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected);
    expectSameBytes(downloadsBytes(await downloadFilesInThread(medium)), downloadsBytes(downloadFiles(medium)));
    expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected);
    expect(databaseThreadsStarted()).toBe(started);

    // Stopped half-way: its thread drops the job and makes the next one's bytes, whole.
    const stop = new AbortController();
    const reason = new Error('stopped by the test');
    let paces = 0;
    await expect(
      downloadFilesInThread(medium, {
        signal: stop.signal,
        pace: async () => {
          if (++paces === 3) stop.abort(reason);
        },
      }),
    ).rejects.toBe(reason);
    started = databaseThreadsStarted();
    expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected);
    expect(databaseThreadsStarted()).toBe(started);
    // Stopped with all its work sent, or with some queued, the next job is sent at once: the
    // thread takes it after dropping the stopped one, and what the stopped one answered meanwhile
    // is not taken for the next one's.
    for (const queued of [0, 40]) {
      const stopped = databaseThread({ limit: 1e9 });
      await stopped.step({ sql: 'CREATE TABLE t (a TEXT)' });
      for (let i = 0; i < queued; i++)
        await stopped.step({ sql: 'INSERT INTO t VALUES (?)', rows: [['x'.repeat(1e5)]] });
      const answer = stopped.end();
      // This thread sleeps while that one answers (a small database: well within the time), so
      // that its answers wait in this thread's queue when the next job starts.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      stopped.stop();
      await expect(answer).rejects.toThrow(/stopped/);
      expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected);
      expect(databaseThreadsStarted()).toBe(started);
    }

    // Failed (SQLite's error): neither is its thread.
    const failing = databaseThread({ limit: 1 });
    await expect(
      (async () => {
        await failing.step({ sql: 'CREATE TABLE t (a TEXT)' });
        await failing.step({ sql: 'INSERT INTO nowhere VALUES (?)', rows: [['a']] });
        return failing.end();
      })(),
    ).rejects.toThrow(/no such table: nowhere/);
    failing.stop();
    started = databaseThreadsStarted();
    expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected);
    expect(databaseThreadsStarted()).toBe(started + 1);
    // Stopped once its answer came, a job leaves its thread kept.
    started = databaseThreadsStarted();
    const thread = databaseThread();
    await thread.step({ sql: 'CREATE TABLE t (a TEXT)' });
    await thread.end();
    thread.stop();
    expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected);
    expect(databaseThreadsStarted()).toBe(started);
  });

  it('held, makes the next database ahead and gives the same bytes in it, or none when it does not fit', async () => {
    const sample = await modelOf(SAMPLE);
    const small = await modelOf(writeContent(smallSite()));
    const expected = { sample: downloadsBytes(downloadFiles(sample)), small: downloadsBytes(downloadFiles(small)) };
    // Not held: no database is made ahead.
    let taken = databaseSparesTaken();
    expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected.sample);
    expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected.sample);
    expect(databaseSparesTaken()).toBe(taken);

    const release = holdDatabaseThread();
    try {
      // The first held job leaves a spare the size of its own database; the next takes it.
      expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected.sample);
      taken = databaseSparesTaken();
      expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected.sample);
      expect(databaseSparesTaken()).toBe(taken + 1);
      // More than twice the room a small site needs: dropped, and a database of its room made.
      expectSameBytes(downloadsBytes(await downloadFilesInThread(small)), expected.small);
      expect(databaseSparesTaken()).toBe(taken + 1);
      // The small site's spare is too small for the sample: not taken either.
      expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected.sample);
      expect(databaseSparesTaken()).toBe(taken + 1);
      expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected.sample);
      expect(databaseSparesTaken()).toBe(taken + 2);
    } finally {
      release();
    }
    // Released: the last held job's spare is taken by the next, which leaves none.
    expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected.sample);
    expect(databaseSparesTaken()).toBe(taken + 3);
    expectSameBytes(downloadsBytes(await downloadFilesInThread(sample)), expected.sample);
    expect(databaseSparesTaken()).toBe(taken + 3);
  });
});

describe("the build's threads, kept between builds", () => {
  it('a second build writes the same files on the threads the first left, and after a failed or abandoned write', async () => {
    const outs = [1, 2, 3, 4].map(() => join(tempDir(), 'out'));
    const built = async (out: string) => {
      await build({ contentDir: SAMPLE, outDir: out, quiet: true, full: true });
      return readTreeBytes(out);
    };
    const first = await built(outs[0] as string);
    const writers = writeThreadsStarted();
    const databases = databaseThreadsStarted();
    expectSameBytes(await built(outs[1] as string), first);
    expect([writeThreadsStarted(), databaseThreadsStarted()]).toEqual([writers, databases]);

    // A write abandoned half-way, then one whose thread failed (a file where a directory goes).
    const abandoned = beginSite(join(tempDir(), 'out'));
    abandoned.add('a.json', '{}');
    await abandoned.abandon();
    expectSameBytes(await built(outs[2] as string), first);
    expect(writeThreadsStarted()).toBe(writers + 1);
    const failed = beginSite(join(tempDir(), 'out'));
    failed.add('a', 'a file');
    failed.add('a/b.json', '{}');
    await expect(failed.commit()).rejects.toThrow(/ENOTDIR|EEXIST/);
    expectSameBytes(await built(outs[3] as string), first);
    expect(writeThreadsStarted()).toBe(writers + 2);
  });
});
