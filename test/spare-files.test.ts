// The watch mode's spare files (output/spare-files.ts): empty files made ahead, which a tree's
// writer writes into and renames into place (replace-file.ts replaceFileWith) instead of creating
// a file as an edit's answers wait; and what is left of them (nothing, once the session closes).

import { cpSync, existsSync, lstatSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replaceFileWith } from '../generator/output/replace-file.ts';
import { SPARE_FILES, SpareFiles } from '../generator/output/spare-files.ts';
import { leftoverOf } from '../generator/output/trash.ts';
import { TreeWriter } from '../generator/output/tree-writer.ts';
import { startWatching } from '../generator/watch/watch.ts';
import { editText } from './helpers/rebuild-steps.ts';
import { tempDir } from './helpers/temp.ts';

const SAMPLE = fileURLToPath(new URL('../content', import.meta.url));

async function filled(spares: SpareFiles): Promise<void> {
  spares.fill();
  await spares.settled();
}

describe('SpareFiles', () => {
  it('keeps as many empty files ready as it wants, each given once, and makes more as they are taken', async () => {
    const dir = join(tempDir('pepys-spares-'), 'spare');
    const spares = new SpareFiles(dir, 4);
    await filled(spares);
    expect(spares.count).toBe(4);
    expect(readdirSync(dir)).toHaveLength(4);
    const taken = [spares.take(), spares.take(), spares.take()] as string[];
    expect(new Set(taken).size).toBe(3);
    for (const path of taken) expect(lstatSync(path).size).toBe(0);
    await spares.settled();
    expect(spares.count).toBe(4);
    // What was taken is the caller's: never given again.
    const again = new Set(Array.from({ length: 4 }, () => spares.take()));
    for (const path of taken) expect(again.has(path)).toBe(false);
    spares.close();
    await spares.settled();
    expect(existsSync(dir)).toBe(false);
    expect(spares.take()).toBeNull();
  });

  it('leaves nothing when closed while it makes files, and gives none when it cannot make any', async () => {
    const root = tempDir('pepys-spares-');
    const spares = new SpareFiles(join(root, 'spare'), 50);
    spares.fill();
    spares.close();
    await spares.settled();
    expect(readdirSync(root)).toEqual([]);

    // Its directory cannot be made (a file is in the way): no spare, no error.
    writeFileSync(join(root, 'blocked'), '');
    const none = new SpareFiles(join(root, 'blocked', 'spare'), 3);
    await filled(none);
    expect(none.take()).toBeNull();
    none.close();
  });

  it('is named as a leftover of its process, for the next build to sweep', () => {
    expect(leftoverOf('/x/public', '.public-spare-12')).toEqual({ role: 'spare', pid: 12 });
  });
});

describe('replaceFileWith', () => {
  it('puts the bytes at the path through the spare file itself, its directory made if missing', async () => {
    const root = tempDir('pepys-spare-write-');
    const spares = new SpareFiles(join(root, 'spare'), 2);
    await filled(spares);
    const tree = join(root, 'tree');
    for (const path of ['a.json', 'deep/er/b.json']) {
      const spare = spares.take() as string;
      const inode = lstatSync(spare).ino;
      replaceFileWith(spare, tree, path, Buffer.from(`{"path": "${path}"}`));
      expect(readFileSync(join(tree, path), 'utf8')).toBe(`{"path": "${path}"}`);
      // The spare became the file: no file was created for it.
      expect(lstatSync(join(tree, path)).ino).toBe(inode);
      expect(existsSync(spare)).toBe(false);
    }
    spares.close();
  });

  it('writes the file as replaceFile does when the spare is gone, and names the file when that fails too', async () => {
    const root = tempDir('pepys-spare-write-');
    const spares = new SpareFiles(join(root, 'spare'), 1);
    await filled(spares);
    const spare = spares.take() as string;
    rmSync(spare);
    replaceFileWith(spare, root, 'out/c.json', '{}');
    expect(readFileSync(join(root, 'out/c.json'), 'utf8')).toBe('{}');
    // No file left where the spare was.
    expect(existsSync(spare)).toBe(false);

    await spares.settled();
    const another = spares.take() as string;
    writeFileSync(join(root, 'file'), '');
    expect(() => replaceFileWith(another, root, 'file/d.json', '{}')).toThrow(/file\/d\.json/);
    expect(existsSync(another)).toBe(false);
    spares.close();
  });

  it('is how a tree writer given spares writes', async () => {
    const root = tempDir('pepys-spare-write-');
    const spares = new SpareFiles(join(root, 'spare'), 3);
    await filled(spares);
    const ready = new Set(readdirSync(join(root, 'spare')).map((name) => lstatSync(join(root, 'spare', name)).ino));
    const tree = join(root, 'tree');
    const writer = new TreeWriter(tree, new Map(), { spare: () => spares.take() });
    writer.write('e.json', '{"e": 1}');
    expect(readFileSync(join(tree, 'e.json'), 'utf8')).toBe('{"e": 1}');
    expect(ready.has(lstatSync(join(tree, 'e.json')).ino)).toBe(true);
    expect(writer.files.get('e.json')?.size).toBe(8);
    spares.close();
  });
});

describe('the watch mode', () => {
  it('writes an edit through its spare files, and leaves none once closed', async () => {
    const content = join(tempDir('pepys-spare-watch-'), 'content');
    cpSync(SAMPLE, content, { recursive: true });
    const out = join(tempDir('pepys-spare-watch-out-'), 'public');
    const spareDir = join(dirname(out), `.public-spare-${process.pid}`);
    const watcher = await startWatching({
      contentDir: content,
      outDir: out,
      env: {},
      events: false,
      rescanMs: 0,
      onWarning: (line) => {
        throw new Error(line);
      },
    });
    try {
      // Made in the background after the first build, all of them before the edit.
      const count = () => (existsSync(spareDir) ? readdirSync(spareDir).length : 0);
      for (let i = 0; i < 1000 && count() < SPARE_FILES; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      const ready = new Set(readdirSync(spareDir).map((name) => lstatSync(join(spareDir, name)).ino));
      expect(ready.size).toBe(SPARE_FILES);
      editText(content, 'entries/1660/1660-01-01.html', 'Spare.');
      await watcher.rescan();
      // The edit's files in the tree now live, its search shards among them, are spare files.
      const live = realpathSync(out);
      const written = readdirSync(live, { recursive: true })
        .map((name) => join(live, String(name)))
        .filter((path) => ready.has(lstatSync(path).ino));
      expect(written.some((path) => path.includes('_data/search/'))).toBe(true);
    } finally {
      await watcher.close();
    }
    expect(existsSync(spareDir)).toBe(false);
  });
});
