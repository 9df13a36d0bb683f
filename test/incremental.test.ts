// The watch mode's rebuilds: the live tree after any sequence of edits is byte for byte what a
// full build of the same content writes; only files whose bytes changed are written; writes go
// to the tree that is not live, which then goes live by one swap of the output's symlink.

import { existsSync, lstatSync, readFileSync, readlinkSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readContent, validate } from '../generator/content/load.ts';
import { slotDir } from '../generator/output/generations.ts';
import { MARKER_FILE } from '../generator/output/guard.ts';
import { RenderMemo } from '../generator/render/render-memo.ts';
import { renderSite } from '../generator/render/render-site.ts';
import { BuildSession } from '../generator/watch/session.ts';
import { startWatching, type Watcher } from '../generator/watch/watch.ts';
import { entryFile, writeContent } from './helpers/content.ts';
import { readServed, readTree, readTreeBytes } from './helpers/files.ts';
import { checkEdits, EVERYDAY_EDITS, fullBuilds } from './helpers/incremental-edits.ts';
import { mediumSite } from './helpers/medium-site.ts';
import { tempDir } from './helpers/temp.ts';

const fullBuild = fullBuilds();

const sessions: Array<BuildSession | Watcher> = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

/** A session whose downloads are made within each rebuild (downloadsDelayMs -1), unless told. */
async function open(files: Record<string, string>, downloadsDelayMs = -1) {
  const contentDir = writeContent(files);
  const outDir = join(tempDir('pepys-watch-'), 'public');
  const session = await BuildSession.open({ contentDir, outDir, env: {}, downloadsDelayMs });
  sessions.push(session);
  return { contentDir, outDir, session };
}

describe('incremental rebuilds', () => {
  it('starts with the same tree as a full build, behind a symlink to one of two generations', async () => {
    const { contentDir, outDir } = await open(mediumSite(120, 60));
    expect(lstatSync(outDir).isSymbolicLink()).toBe(true);
    expect(readTree(outDir)).toEqual(await fullBuild(contentDir));
    // Both generations hold the site, and the marker that says a build made them (output/guard.ts).
    expect(readTree(slotDir(outDir, 'a'))).toEqual(readTree(slotDir(outDir, 'b')));
    for (const slot of ['a', 'b'] as const)
      expect(existsSync(join(slotDir(outDir, slot), MARKER_FILE)), slot).toBe(true);
  });

  it('after every kind of edit, equals a full build and rewrites exactly the files that differ', async () => {
    const { contentDir, outDir, session } = await open(mediumSite(120, 60));
    // One edit of each kind: every kind in test/heavy/incremental-edits.test.ts.
    await checkEdits(session, contentDir, outDir, fullBuild, EVERYDAY_EDITS);
  });

  it('follow a title convention changed without a title changing: the site index states it', async () => {
    // In the Gregorian calendar no date has a dual year, whatever the convention: every title
    // stays, and the site index's rules of the titles (core/index-lists.ts) change alone.
    const files = mediumSite(30, 10);
    files['site.yaml'] = `${files['site.yaml']}calendar: gregorian\n`;
    const { contentDir, outDir, session } = await open(files);
    const site = join(contentDir, 'site.yaml');
    writeFileSync(site, `${readFileSync(site, 'utf8')}titleConvention: single\n`);
    const report = await session.rebuild(['site.yaml']);
    expect(report.ok).toBe(true);
    expect(report.changed).toEqual(['_data/site-index.json']);
    expect(readTree(outDir)).toEqual(await fullBuild(contentDir));
  });

  it('writes only into the generation that is not live, then swaps the symlink', async () => {
    // The downloads, made later (not within this test), do not swap again.
    const { contentDir, outDir, session } = await open(mediumSite(120, 60), 60_000);
    const live = session.liveSlot;
    const liveDir = slotDir(outDir, live);
    const stamp = (dir: string) =>
      [...readTreeBytes(dir).keys()].map((p) => `${p}:${statSync(join(dir, p)).ino}:${statSync(join(dir, p)).mtimeMs}`);
    const liveBefore = stamp(liveDir);
    writeFileSync(join(contentDir, 'topics/12.yaml'), 'id: 12\ntitle: Changed\n');
    const report = await session.rebuild(['topics/12.yaml']);
    expect(report.changed.length).toBeGreaterThan(0);
    // The tree that was live is untouched until the grace period ends (or settle is called).
    expect(stamp(liveDir)).toEqual(liveBefore);
    expect(session.liveSlot).not.toBe(live);
    expect(readlinkSync(outDir)).toBe(`.public-gen-${session.liveSlot}`);
    expect(session.settle()).toBe(report.changed.length);
  });

  it('keeps the live site as it was when an edit makes the content invalid, and recovers', async () => {
    const { contentDir, outDir, session } = await open(mediumSite(120, 60));
    const before = readTree(outDir);
    writeFileSync(join(contentDir, 'topics/12.yaml'), 'id: twelve\ntitle: Broken\n');
    const bad = await session.rebuild(['topics/12.yaml']);
    expect(bad.ok).toBe(false);
    expect(bad.problems.some((p) => p.file === 'topics/12.yaml' && p.line === 1)).toBe(true);
    expect(readTree(outDir)).toEqual(before);
    writeFileSync(join(contentDir, 'topics/12.yaml'), 'id: 12\ntitle: Fixed\n');
    const good = await session.rebuild(['topics/12.yaml']);
    expect(good.ok).toBe(true);
    expect(readTree(outDir)).toEqual(await fullBuild(contentDir));
  });

  it('renders with a memo exactly what it renders without one', async () => {
    const files = mediumSite(120, 60);
    const contentDir = writeContent(files);
    const memo = new RenderMemo();
    const render = async () => {
      const v = validate(await readContent(contentDir));
      if (!v.ok) throw new Error('invalid');
      return { plain: renderSite(v.model), memo: renderSite(v.model, memo) };
    };
    // The memo empty, then full of this very content (every render a hit): the same files both
    // times. (Read and rendered without one once, not twice as before, and the second render
    // with it now compared too.)
    const first = await render();
    expect(first.memo).toEqual(first.plain);
    const v = validate(await readContent(contentDir));
    if (!v.ok) throw new Error('invalid');
    expect(renderSite(v.model, memo)).toEqual(first.plain);
    writeFileSync(join(contentDir, 'topics/5.yaml'), 'id: 5\ntitle: Five\ncategories: [people]\n');
    writeFileSync(
      join(contentDir, 'entries/1660/1660-02-04.html'),
      entryFile('1660-02-04', 'topics: [5]\ntitle: Saturday 4 February 1660\n'),
    );
    const r = await render();
    expect(r.memo).toEqual(r.plain);
  });
});

describe('the downloads in watch mode', () => {
  it('are made after a burst of edits, off the rebuild, and then equal a full build', async () => {
    const contentDir = writeContent(mediumSite(120, 60));
    const outDir = join(tempDir('pepys-watch-'), 'public');
    // The default: a while after the last rebuild (here 200 ms).
    const session = await BuildSession.open({ contentDir, outDir, env: {}, downloadsDelayMs: 200 });
    sessions.push(session);
    const downloads = (tree: Map<string, string>) => [...tree].filter(([path]) => path.startsWith('api/v1/downloads/'));
    const before = readTree(outDir);
    for (const text of ['<p>First.</p>', '<p>Second.</p>']) {
      writeFileSync(join(contentDir, 'entries/1660/1660-02-04.html'), entryFile('1660-02-04', 'topics: [4]\n', text));
      const report = await session.rebuild(['entries/1660/1660-02-04.html']);
      expect(report.ok).toBe(true);
      expect(report.fast).toBe(true);
      // The rebuild wrote the edited record's files, not the downloads: those are still the old ones.
      expect(report.changed.filter((p) => p.startsWith('api/v1/downloads/'))).toEqual([]);
      expect(downloads(readTree(outDir))).toEqual(downloads(before));
    }
    await session.downloadsSettled();
    const expected = await fullBuild(contentDir);
    expect(downloads(readTree(outDir))).not.toEqual(downloads(before));
    expect(readTree(outDir)).toEqual(expected);
  });
});

describe('the downloads in watch mode, made on other threads', () => {
  const file = 'entries/1660/1660-02-04.html';
  const edit = (contentDir: string, text: string) =>
    writeFileSync(join(contentDir, file), entryFile('1660-02-04', 'topics: [4]\n', `<p>${text}</p>`));
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('of content edited while they are made are dropped; those of the latest content go live', async () => {
    const { contentDir, outDir, session } = await open(mediumSite(120, 60), 0);
    edit(contentDir, 'First.');
    expect((await session.rebuild([file])).ok).toBe(true);
    // Their timer (0 ms) fires and their thread starts; the next edit comes while it works.
    await pause(5);
    edit(contentDir, 'Second.');
    expect((await session.rebuild([file])).ok).toBe(true);
    await session.downloadsSettled();
    expect(readTree(outDir)).toEqual(await fullBuild(contentDir));
  });

  it('stop with the session: closed while they are made, nothing more is written', async () => {
    const { contentDir, outDir, session } = await open(mediumSite(120, 60), 0);
    edit(contentDir, 'First.');
    expect((await session.rebuild([file])).ok).toBe(true);
    await pause(5);
    const before = readTree(outDir);
    session.close();
    await session.downloadsSettled();
    await pause(300);
    expect(readTree(outDir)).toEqual(before);
  });
});

describe('rescans', () => {
  it('read a file written just before it was read again, and render nothing when it holds what was rendered', async () => {
    const contentDir = writeContent(mediumSite(60, 20));
    // Every file older than a second when it is read, as an archivist's are: only the edited one is
    // then recent (read-file.ts RACY_MS).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const outDir = join(tempDir('pepys-watch-'), 'public');
    const session = await BuildSession.open({ contentDir, outDir, env: {}, downloadsDelayMs: -1 });
    sessions.push(session);
    const file = 'entries/1660/1660-02-04.html';
    writeFileSync(join(contentDir, file), entryFile('1660-02-04', 'topics: [4]\n', '<p>Edited.</p>'));
    expect((await session.rebuild([file])).ok).toBe(true);
    // The configuration and the categories written again as they were, with no event to say so.
    for (const name of ['site.yaml', 'categories.yaml'])
      writeFileSync(join(contentDir, name), readFileSync(join(contentDir, name)));
    // Their signatures are not trusted (written within the last second): read again, they are the same.
    const same = await session.rebuild([], { rescan: true });
    expect(same.skipped).toBe(true);
    // Changed once more, with no event to say so: the rescan finds it.
    writeFileSync(join(contentDir, file), entryFile('1660-02-04', 'topics: [4]\n', '<p>Edited again.</p>'));
    const found = await session.rebuild([], { rescan: true });
    expect(found.ok).toBe(true);
    expect(found.skipped).toBe(false);
    // An entry's text, found by a rescan as by an event: the fast path (render/patch.ts).
    expect(found.fast).toBe(true);
    expect(readTree(outDir)).toEqual(await fullBuild(contentDir));
    // And so with the configuration (another page size) and the categories (another title).
    const site = join(contentDir, 'site.yaml');
    writeFileSync(site, readFileSync(site, 'utf8').replace('pageSize: 20', 'pageSize: 25'));
    const resized = await session.rebuild([], { rescan: true });
    expect(resized.skipped).toBe(false);
    expect(resized.fast).toBeUndefined();
    expect(readTree(outDir)).toEqual(await fullBuild(contentDir));
    const categories = join(contentDir, 'categories.yaml');
    const text = readFileSync(categories, 'utf8');
    const retitled = text.replace(/title: (.*)/, 'title: $1, retitled');
    expect(retitled).not.toBe(text);
    writeFileSync(categories, retitled);
    expect((await session.rebuild([], { rescan: true })).skipped).toBe(false);
    expect(readTree(outDir)).toEqual(await fullBuild(contentDir));
  });
});

describe('a rescan of many files', () => {
  it('lets the event loop run between slices of the files it compares (the server answers meanwhile)', async () => {
    // More files than a slice of the rescan's (content/update.ts RESCAN_SLICE, 500): 563.
    const { session } = await open(mediumSite(500, 60));
    let ticked = false;
    setImmediate(() => {
      ticked = true;
    });
    // Without a pause the whole rescan, and the rebuild after it, would end before the tick.
    await session.rebuild([], { rescan: true });
    expect(ticked).toBe(true);
  });
});

describe('watch mode', () => {
  it('rebuilds after a file changes on disk', async () => {
    const contentDir = writeContent(mediumSite(60, 20));
    const outDir = join(tempDir('pepys-watch-'), 'public');
    const seen: string[][] = [];
    const watcher = await startWatching({
      contentDir,
      outDir,
      env: {},
      downloadsDelayMs: -1,
      onRebuild: (_r, paths) => seen.push(paths),
    });
    sessions.push(watcher);
    const target = join(contentDir, 'topics/7.yaml');
    writeFileSync(`${target}.new`, 'id: 7\ntitle: Seen by the watcher\n');
    renameSync(`${target}.new`, target);
    // No timing asserted: settled() waits until the events have arrived and the rebuild is done.
    await watcher.settled();
    expect(seen.some((paths) => paths.includes('topics/7.yaml'))).toBe(true);
    expect(JSON.parse(readServed(outDir, 'api/v1/topics/7.json') as string).title).toBe('Seen by the watcher');
  });
});
