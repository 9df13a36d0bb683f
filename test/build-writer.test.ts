// The writer: a full build replaces a plain output directory with two renames and an output that
// is a symlink to a generation (after the watch mode) with one; old trees are removed in the
// background and leave nothing behind.

import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { MARKER_FILE, MARKER_TEXT, RefusedError } from '../generator/output/guard.ts';
import { writeSiteAtomically } from '../generator/output/writer.ts';
import { BuildSession } from '../generator/watch/session.ts';
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
    // One file and the marker that says the tree is the writer's own.
    expect(second.files).toBe(2);
    expect(second.bytes).toBe(1 + Buffer.byteLength(MARKER_TEXT));
    expect(readFileSync(join(out, MARKER_FILE), 'utf8')).toBe(MARKER_TEXT);
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
    expect(readdirSync(out).sort()).toEqual([MARKER_FILE, 'only.json']);
    await written.removed;
    // The other generation is still there (the next swap replaces it); no trash is left.
    expect(readdirSync(dirname(out)).sort()).toEqual(['.public-gen-a', '.public-gen-b', 'public']);
  });

  it("refuses to replace a directory it did not make, in a full build and in the watch mode's first swap", async () => {
    const contentDir = writeContent(smallSite());
    const out = outDir();
    mkdirSync(out);
    writeFileSync(join(out, 'thesis.tex'), 'years of work');
    expect(() => writeSiteAtomically(out, [{ path: 'only.json', body: '{}' }])).toThrow(RefusedError);
    await expect(BuildSession.open({ contentDir, outDir: out, env: {} })).rejects.toThrow(/did not make/);
    expect(readdirSync(out)).toEqual(['thesis.tex']);
    expect(lstatSync(out).isDirectory()).toBe(true);
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
