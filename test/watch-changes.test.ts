// The watch mode's first manifest lists what changed since the output it started over, as a
// build's does (output/writer.ts), instead of "unknown" (null): a mirror that follows the list
// (docs/verify.md, `changes`) then fetches what an edit made while nothing watched changed, not
// every file again.

import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { readManifest } from '../generator/output/manifest.ts';
import { startWatching } from '../generator/watch/watch.ts';
import { writeContent } from './helpers/content.ts';
import { editText, rebuildSite } from './helpers/rebuild-steps.ts';
import { tempDir } from './helpers/temp.ts';

const changesOf = (out: string) => readManifest(realpathSync(out))?.changes;

describe('the watch mode’s first manifest', () => {
  it('lists the changes since the output it started over, as a build does', async () => {
    const content = writeContent(rebuildSite());
    const dir = tempDir('pepys-watch-changes-');
    const [built, watched] = [join(dir, 'built'), join(dir, 'watched')];
    for (const out of [built, watched]) await build({ contentDir: content, outDir: out, quiet: true, env: {} });
    // An edit made while nothing watched.
    editText(content, 'entries/1660/1660-01-02.html', 'Edited before the session.');
    expect((await build({ contentDir: content, outDir: built, quiet: true, env: {} })).mode).toBe('rebuild');
    const expected = changesOf(built);
    // The pack of January's first half of 1660 (core/packs.ts).
    expect(expected?.changed).toContain('_data/records/entries/1660/0.pack');

    const watcher = await startWatching({ contentDir: content, outDir: watched, env: {}, events: false, rescanMs: 0 });
    try {
      // The output's downloads are served until the session's own are made (first-trees.ts).
      await watcher.session.downloadsSettled();
      expect(await watcher.session.record()).toBe(true);
      // Before, null: the first manifest of a session knew nothing of the output before it.
      expect(changesOf(watched)).toEqual(expected);
    } finally {
      await watcher.close();
    }
  });
});
