// The writer: a full build replaces a plain output directory with two renames and an output that
// is a symlink to a generation (after the watch mode) with one; old trees are removed in the
// background and leave nothing behind.

import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { BuildSession } from '../generator/watch/session.ts';
import { writeSiteAtomically } from '../generator/output/writer.ts';
import { smallSite, writeContent } from './helpers/content.ts';
import { tempDir } from './helpers/temp.ts';

const outDir = () => join(tempDir('pepys-out-'), 'public');

describe('atomic writer', () => {
  it('replaces a plain output directory and removes the old tree in the background', async () => {
    const out = outDir();
    writeSiteAtomically(out, [{ path: 'a/one.json', body: '1' }]);
    const second = writeSiteAtomically(out, [{ path: 'b/two.json', body: '2' }]);
    expect(existsSync(join(out, 'a/one.json'))).toBe(false);
    expect(readFileSync(join(out, 'b/two.json'), 'utf8')).toBe('2');
    expect(second).toMatchObject({ files: 1, bytes: 1 });
    await second.removed;
    expect(readdirSync(dirname(out))).toEqual(['public']);
  });

  it('swaps the symlink when the output is a generation, keeping it a symlink', async () => {
    const contentDir = writeContent(smallSite());
    const out = outDir();
    const session = await BuildSession.open({ contentDir, outDir: out, env: {} });
    session.close();
    const before = readlinkSync(out);
    const written = writeSiteAtomically(out, [{ path: 'only.json', body: '{}' }]);
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    expect(readlinkSync(out)).not.toBe(before);
    expect(readdirSync(out)).toEqual(['only.json']);
    await written.removed;
    // The other generation is still there (the next swap replaces it); no trash is left.
    expect(readdirSync(dirname(out)).sort()).toEqual(['.public-gen-a', '.public-gen-b', 'public']);
  });

  it('a build into a generation layout writes the same files as into a plain directory', async () => {
    const contentDir = writeContent(smallSite());
    const plain = outDir();
    await build({ contentDir, outDir: plain, quiet: true, env: {} });
    const layered = outDir();
    (await BuildSession.open({ contentDir, outDir: layered, env: {} })).close();
    await build({ contentDir, outDir: layered, quiet: true, env: {} });
    const list = (dir: string) => readdirSync(dir, { recursive: true }).map(String).sort();
    expect(list(layered)).toEqual(list(plain));
  });
});
