// The mirror that follows edits (npm start -- --watch): the server answers from each rebuild.

import { realpathSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../generator/server/server.ts';
import { startWatching, type Watcher } from '../generator/watch/watch.ts';
import { entryFile, smallSite, writeContent } from './helpers/content.ts';
import { tempDir } from './helpers/temp.ts';

describe('serving while watching', () => {
  const contentDir = writeContent(smallSite());
  const publicDir = join(tempDir('pepys-watch-'), 'public');
  const server = createApiServer({ publicDir });
  let watcher: Watcher | null = null;
  /** The live trees the session reported, by the tree the output is just after each report. */
  const swaps: string[] = [];
  afterAll(async () => {
    await watcher?.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('answers from the new generation after an edit, lists and details alike', async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    watcher = await startWatching({
      contentDir,
      outDir: publicDir,
      overrides: { apiOrigin: origin },
      env: {},
      onLive: () => {
        swaps.push(realpathSync(publicDir));
        server.outputReplaced();
      },
    });
    // The first build's tree went live before the session had a listener: no report.
    expect(swaps).toEqual([]);
    const firstTree = realpathSync(publicDir);
    const get = async (path: string) => (await fetch(origin + path)).json() as Promise<Record<string, unknown>>;
    expect((await get('/api/v1/entries/1660-01-02')).title).toBe('Monday 2 January 1659/60');

    writeFileSync(
      join(contentDir, 'entries/1660/1660-01-02.html'),
      entryFile('1660-01-02', 'title: Monday 2 January 1660\ntopics: [1]\n'),
    );
    writeFileSync(join(contentDir, 'entries/1660/1660-01-03.html'), entryFile('1660-01-03'));
    // The watcher sees the events a moment after the writes: settled() waits for them and the rebuild.
    await watcher.settled();
    expect((await get('/api/v1/entries')).totalResults).toBe(4);
    const list = await get('/api/v1/entries?start=1660-01-02&end=1660-01-03');
    expect((list.results as Array<{ title: string }>).map((r) => r.title)).toEqual([
      'Monday 2 January 1660',
      'Tuesday 3 January 1659/60',
    ]);
    expect((await get('/api/v1/entries/1660-01-02')).topics).toEqual([`${origin}/api/v1/topics/1`]);
    expect((await get('/api/v1/topics/2')).entries).toEqual([`${origin}/api/v1/entries/1660-01-01`]);
    // The edits' rebuild made the other tree live, and said so once it was: the server looks again
    // at once. Nothing changed since: no other report.
    expect(swaps.length).toBeGreaterThanOrEqual(1);
    expect(swaps[0]).not.toBe(firstTree);
    expect(swaps.at(-1)).toBe(realpathSync(publicDir));
    const reported = swaps.length;
    await watcher.rescan();
    expect(swaps.length).toBe(reported);
  });
});
