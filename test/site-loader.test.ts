// The local server's view of the output (server/site.ts siteLoader): a new generation whenever the
// output is another tree, and the site index parsed again only when its bytes changed.

import { cpSync, readFileSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { SITE_INDEX_FILE } from '../generator/core/files.ts';
import { type Site, siteLoader } from '../generator/server/site.ts';
import { smallSite, writeContent } from './helpers/content.ts';
import { tempDir } from './helpers/temp.ts';

let root: string;

beforeAll(async () => {
  const contentDir = writeContent(smallSite());
  const outDir = join(tempDir('pepys-site-loader-'), 'public');
  await build({ contentDir, outDir, quiet: true, env: {} });
  root = tempDir('pepys-site-loader-trees-');
  // a and b for the first test (which damages a), c and d for the second.
  for (const tree of ['a', 'b', 'c', 'd']) {
    cpSync(realpathSync(outDir), join(root, tree), { recursive: true });
    writeFileSync(join(root, tree, 'which.txt'), tree);
  }
});

/** Points `root/live` at a tree, replacing the link in one rename as a swap does. */
function pointAt(tree: string): void {
  symlinkSync(tree, join(root, 'live.new'));
  renameSync(join(root, 'live.new'), join(root, 'live'));
}

function loaded(loader: ReturnType<typeof siteLoader>): Site {
  const site = loader.fresh();
  if (!site.ok) throw new Error(site.error.detail);
  return site.value;
}

async function text(site: Site, file: string): Promise<string> {
  const bytes = await site.read(file);
  if (bytes === null) throw new Error(`${file}: not found`);
  return new TextDecoder().decode(bytes);
}

describe('siteLoader', () => {
  it('gives a swapped-in tree a generation of its own, over the same parsed index when its bytes are the same', async () => {
    pointAt('a');
    const loader = siteLoader(join(root, 'live'));
    const first = loaded(loader);
    expect(await text(first, 'which.txt')).toBe('a');
    // The same tree, nothing changed: the same generation.
    expect(loaded(loader)).toBe(first);

    pointAt('b');
    const second = loaded(loader);
    expect(second).not.toBe(first);
    expect(await text(second, 'which.txt')).toBe('b');
    expect(second.index).toBe(first.index);

    // Other bytes in the index: parsed again.
    const indexPath = join(root, 'b', SITE_INDEX_FILE);
    const json = JSON.parse(readFileSync(indexPath, 'utf8')) as { name: string };
    writeFileSync(indexPath, JSON.stringify({ ...json, name: 'Another diary' }));
    const third = loaded(loader);
    expect(third).not.toBe(second);
    expect(third.index).not.toBe(second.index);
    expect(third.index.name).toBe('Another diary');

    // Back to the first tree: its own index and files again.
    pointAt('a');
    const fourth = loaded(loader);
    expect(fourth.index.name).toBe(first.index.name);
    expect(await text(fourth, 'which.txt')).toBe('a');

    // A damaged index is never taken for the last good one.
    writeFileSync(join(root, 'a', SITE_INDEX_FILE), '{"version": 1');
    const damaged = loader.fresh();
    expect(damaged.ok).toBe(false);
    if (!damaged.ok) expect(damaged.error.status).toBe(503);
  });

  it('looks at the output once a turn, and again in the same turn once told of a swap', async () => {
    pointAt('c');
    const loader = siteLoader(join(root, 'live'));
    const first = loader.current();
    if (!first.ok) throw new Error(first.error.detail);
    expect(await text(first.value, 'which.txt')).toBe('c');
    // Swapped in this turn: what the turn found stands (requests sent before the swap)…
    pointAt('d');
    expect(loader.current()).toBe(first);
    // …until the process that swapped says so (the watch mode's server: server.ts outputReplaced).
    loader.forget();
    const second = loader.current();
    if (!second.ok) throw new Error(second.error.detail);
    expect(second.value).not.toBe(first.value);
    expect(await text(second.value, 'which.txt')).toBe('d');
  });
});
