// The downloads as the cold build makes them (render/downloads.ts downloadFilesInThread: the
// database on a thread of its own, the gzip on libuv's pool) against the same made on the
// caller's thread: the same files, byte for byte, in the same order, paced or not; and stopped, it
// rejects.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContent, validate } from '../generator/content/load.ts';
import type { Model } from '../generator/core/model.ts';
import { downloadFiles, downloadFilesInThread } from '../generator/render/downloads.ts';
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
      await new Promise((resolve) => setImmediate(resolve));
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
