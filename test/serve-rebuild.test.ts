// The local server follows a one-shot rebuild of the output it serves. A rebuild over its own
// output writes the other generation and swaps the output's symlink to it (output/generations.ts),
// hard-linking the files that did not change (output/link-tree.ts): when the site index is one of
// them, the index file the server looks at is the same file (inode, time, size) in the new tree.
// Found by test/edit-sequences.test.ts' random runs (47f4c2d): a server kept answering a topic's
// first title after three retitles and rebuilds.

import { writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { createApiServer } from '../generator/server/server.ts';
import { smallSite, writeContent } from './helpers/content.ts';
import { tempDir } from './helpers/temp.ts';

describe('the local server over an output rebuilt under it', () => {
  it('answers from the rebuilt generation when the site index is the same file in it', async () => {
    const contentDir = writeContent(smallSite());
    const outDir = join(tempDir('pepys-serve-rebuild-'), 'public');
    const rebuild = () => build({ contentDir, outDir, quiet: true, env: {} });
    await rebuild();
    const server: Server = createApiServer({ publicDir: outDir });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const title = async () => ((await (await fetch(`${origin}/api/v1/topics/1`)).json()) as { title: string }).title;
    try {
      expect(await title()).toBe('Jane');
      for (const name of ['Jane Birch', 'Jane Edwards', 'Jane Pepys']) {
        writeFileSync(
          join(contentDir, 'topics/1.yaml'),
          `id: 1\ntitle: ${name}\nkind: person\ncategories: [servants]\n`,
        );
        await rebuild();
        expect(await title()).toBe(name);
      }
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
