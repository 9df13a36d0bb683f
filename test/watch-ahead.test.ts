// What the watch mode writes ahead so that the server keeps answering: the downloads' large files
// are written beside the output a slice at a time and renamed into the tree that goes live
// (twin-trees.ts writeAhead, applySome), and the tree that was live gets them as hard links at its
// catch-up instead of a second write (applyFiles). The bytes stay a cold build's.

import { cpSync, existsSync, lstatSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import type { OutputFile } from '../generator/output/file.ts';
import { otherSlot, slotDir } from '../generator/output/generations.ts';
import { applySome, TwinTrees } from '../generator/watch/twin-trees.ts';
import { startWatching } from '../generator/watch/watch.ts';
import { ColdBuilds, differing } from './helpers/edit-sequences.ts';
import { readTreeBytes } from './helpers/files.ts';
import { editText } from './helpers/rebuild-steps.ts';
import { tempDir } from './helpers/temp.ts';

vi.setConfig({ testTimeout: 60_000 });

const SAMPLE = fileURLToPath(new URL('../content', import.meta.url));
const DATABASE = 'api/v1/downloads/diary.sqlite';
const beside = (out: string) => readdirSync(dirname(out)).filter((n) => /-(downloads|record)-\d+$/.test(n));

describe('the downloads written ahead', () => {
  it('go live as a cold build has them, edit after edit, and leave nothing beside the output', async () => {
    const content = join(tempDir('pepys-ahead-'), 'content');
    cpSync(SAMPLE, content, { recursive: true });
    const out = join(tempDir('pepys-ahead-out-'), 'public');
    const watcher = await startWatching({
      contentDir: content,
      outDir: out,
      env: {},
      events: false,
      rescanMs: 0,
      downloadsDelayMs: 0,
      onWarning: (line) => {
        throw new Error(line);
      },
    });
    const colds = new ColdBuilds();
    try {
      // The sample's database (about 330 KB) is past the size written ahead.
      expect(lstatSync(join(out, DATABASE)).size).toBeGreaterThan(64 * 1024);
      for (const [i, file] of ['entries/1660/1660-01-01.html', 'entries/1660/1660-01-02.html'].entries()) {
        const before = readFileSync(join(out, DATABASE));
        editText(content, file, `Ahead ${i}.`);
        await watcher.rescan();
        await watcher.session.downloadsSettled();
        expect(readFileSync(join(out, DATABASE)).equals(before), 'the database changed').toBe(false);
        const reference = await colds.of(content);
        if (!reference.ok) throw new Error(reference.problems.join('\n'));
        expect(differing(readTreeBytes(out), reference.tree)).toEqual([]);
        expect(beside(out)).toEqual([]);
      }
    } finally {
      await watcher.close();
    }
    expect(beside(out)).toEqual([]);
  });
});

describe('a session started over an output it trusts', () => {
  const inodes = (dir: string): Map<string, number> =>
    new Map([...readTreeBytes(dir).keys()].map((path) => [path, lstatSync(join(dir, path)).ino]));

  const started = async () => {
    const content = join(tempDir('pepys-again-'), 'content');
    cpSync(SAMPLE, content, { recursive: true });
    const out = join(tempDir('pepys-again-out-'), 'public');
    const options = { contentDir: content, outDir: out, env: {}, events: false, rescanMs: 0, downloadsDelayMs: 0 };
    await (await startWatching(options)).close();
    return { content, out, options, before: inodes(realpathSync(out)) };
  };

  it('started again over the same content, writes nothing but its marker, in either tree', async () => {
    const { out, options, before } = await started();
    const watcher = await startWatching(options);
    try {
      await watcher.session.downloadsSettled();
      const after = inodes(realpathSync(out));
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      expect([...after].filter(([path, ino]) => before.get(path) !== ino).map(([path]) => path)).toEqual([
        '.pepys-output',
      ]);
      // The other tree is made of links to this one.
      const other = inodes(slotDir(out, otherSlot(watcher.session.liveSlot)));
      expect([...after].filter(([path, ino]) => other.get(path) !== ino)).toEqual([]);
    } finally {
      await watcher.close();
    }
  });

  it('links the files whose bytes are the same and writes the others: a cold build of the content', async () => {
    const { content, out, options, before } = await started();
    // Changed while no session runs: its pack, the lists and search files it is in, the downloads;
    // and an entry removed, the only one of its month (its month's list, its pack go).
    editText(content, 'entries/1660/1660-01-01.html', 'Started again.');
    rmSync(join(content, 'entries/1669/1669-02-23.html'));
    const watcher = await startWatching(options);
    try {
      // The output's downloads are served until the session's own are made, then those go live.
      await watcher.session.downloadsSettled();
      const after = inodes(realpathSync(out));
      const kept = [...after].filter(([path, ino]) => before.get(path) === ino).map(([path]) => path);
      const written = [...after.keys()].filter((path) => !kept.includes(path));
      expect(written).toContain('_data/records/entries/1660/0.pack');
      expect(written).toContain(DATABASE);
      expect(kept).toContain('_data/records/entries/1660/1.pack');
      expect(kept.length).toBeGreaterThan(after.size / 2);
      expect(before.has('api/v1/entries/months/1669-02/pages/1.json')).toBe(true);
      expect(existsSync(join(out, 'api/v1/entries/months/1669-02'))).toBe(false);
      const reference = await new ColdBuilds().of(content);
      if (!reference.ok) throw new Error(reference.problems.join('\n'));
      expect(differing(readTreeBytes(out), reference.tree)).toEqual([]);
    } finally {
      await watcher.close();
    }
  });
});

describe('TwinTrees', () => {
  const site = (db: Uint8Array): OutputFile[] => [
    { path: 'api/v1/index.json', body: '{}' },
    { path: DATABASE, body: db },
  ];
  const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

  it('renames what it wrote ahead into the tree going live, and links it into the other at its catch-up', async () => {
    const out = join(tempDir('pepys-twins-'), 'public');
    const twins = await TwinTrees.write(out, 'a', site(bytes(100_000, 1)), () => {}, null);
    const next = bytes(3_000_000, 2);
    const ahead = await twins.writeAhead([{ path: DATABASE, body: next }], () => true);
    expect([...ahead.keys()]).toEqual([DATABASE]);
    const temp = ahead.get(DATABASE)?.temp as string;
    const ino = lstatSync(temp).ino;
    const changed = twins.goLive((gen) => applySome(gen, site(next), ahead));
    twins.discardAhead(ahead);
    expect(changed).toEqual([DATABASE]);
    const live = realpathSync(out);
    expect(lstatSync(join(live, DATABASE)).ino).toBe(ino);
    expect(readFileSync(join(live, DATABASE)).equals(next)).toBe(true);
    expect(beside(out)).toEqual([]);

    twins.finishCatchUp();
    const other = slotDir(out, otherSlot(twins.liveSlot));
    expect(lstatSync(join(other, DATABASE)).ino).toBe(ino);
    twins.close();
  });

  it('makes the tree not live of hard links to the one it wrote, which a write into either leaves as it was', async () => {
    const out = join(tempDir('pepys-twins-'), 'public');
    const page = (n: number): OutputFile => ({ path: 'api/v1/index.json', body: `{"n":${n}}` });
    // The files given later (the downloads) are written after the others, into the same tree.
    const later = Promise.resolve([{ path: DATABASE, body: bytes(1000, 7) }]);
    const twins = await TwinTrees.write(out, 'a', [page(1)], () => {}, null, later);
    const first = realpathSync(out);
    const other = slotDir(out, otherSlot(twins.liveSlot));
    for (const path of [page(1).path, DATABASE])
      expect(lstatSync(join(other, path)).ino).toBe(lstatSync(join(first, path)).ino);
    expect(readFileSync(join(first, DATABASE)).equals(bytes(1000, 7))).toBe(true);
    // An edit goes into the tree not live, as a new file renamed over the link: the tree that was
    // live keeps its bytes until its catch-up.
    twins.goLive((gen) => applySome(gen, [page(2), { path: DATABASE, body: bytes(1000, 7) }]));
    expect(realpathSync(out)).toBe(realpathSync(other));
    expect(readFileSync(join(out, page(2).path), 'utf8')).toBe('{"n":2}');
    expect(readFileSync(join(first, page(1).path), 'utf8')).toBe('{"n":1}');
    twins.finishCatchUp();
    expect(readFileSync(join(first, page(2).path), 'utf8')).toBe('{"n":2}');
    twins.close();
  });

  it('writes nothing when the files it waits for fail: no output, nothing beside it', async () => {
    const out = join(tempDir('pepys-twins-'), 'public');
    const later = Promise.reject(new Error('no downloads'));
    const many = Array.from({ length: 400 }, (_, i): OutputFile => ({ path: `api/v1/p/${i}.json`, body: `${i}` }));
    await expect(TwinTrees.write(out, 'a', many, () => {}, null, later)).rejects.toThrow('no downloads');
    expect(readdirSync(dirname(out))).toEqual([]);
  });

  it('writes at the catch-up a file the live tree no longer holds as it wrote it (replaced by hand)', async () => {
    const out = join(tempDir('pepys-twins-'), 'public');
    const twins = await TwinTrees.write(out, 'a', site(bytes(100_000, 1)), () => {}, null);
    const next = bytes(200_000, 3);
    twins.goLive((gen) => applySome(gen, site(next)));
    const live = realpathSync(out);
    // Replaced by hand (a new file, the same bytes): not the file the tree's facts name.
    writeFileSync(join(live, `${DATABASE}.x`), next);
    cpSync(join(live, `${DATABASE}.x`), join(live, DATABASE));
    twins.finishCatchUp();
    const other = slotDir(out, otherSlot(twins.liveSlot));
    expect(lstatSync(join(other, DATABASE)).ino).not.toBe(lstatSync(join(live, DATABASE)).ino);
    expect(readFileSync(join(other, DATABASE)).equals(next)).toBe(true);
    twins.close();
  });
});
