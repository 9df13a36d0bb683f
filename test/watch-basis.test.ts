// The watch mode leaves behind what a build leaves (docs/pipeline.md): the live tree's manifest,
// its sources and its saved basis, written once the session has settled. So `npm run build`
// after a watch session finds nothing to do when the content is the same, and patches the next
// edit from the basis the session saved (render/basis.ts) instead of rendering everything: the
// bytes of a cold build either way. A session stopped before its downloads are current leaves
// no manifest that claims them: the build then renders everything, as a cold build.

import { readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { build } from '../generator/build.ts';
import { BASIS_FILE, checkTree, readManifest } from '../generator/output/manifest.ts';
import { startWatching, type Watcher } from '../generator/watch/watch.ts';
import { startCli } from './helpers/cli.ts';
import { writeContent } from './helpers/content.ts';
import { ColdBuilds, differing } from './helpers/edit-sequences.ts';
import { readTreeBytes } from './helpers/files.ts';
import { editText, rebuildSite } from './helpers/rebuild-steps.ts';
import { tempDir } from './helpers/temp.ts';

vi.setConfig({ testTimeout: 60_000 });

const colds = new ColdBuilds();

/** The files of `out` that differ from a cold build of `content`. */
async function notCold(content: string, out: string): Promise<string[]> {
  const reference = await colds.of(content);
  if (!reference.ok) throw new Error(reference.problems.join('\n'));
  return differing(readTreeBytes(out), reference.tree);
}

/** A session on rescans alone (each step driven by the test), its downloads made `downloadsDelayMs` after a rebuild. */
function watch(contentDir: string, outDir: string, downloadsDelayMs: number): Promise<Watcher> {
  return startWatching({
    contentDir,
    outDir,
    env: {},
    events: false,
    rescanMs: 0,
    downloadsDelayMs,
    onWarning: () => {},
  });
}

const rebuild = (contentDir: string, outDir: string) => build({ contentDir, outDir, quiet: true, env: {} });

/** `npm run build -- --watch` on a new small site, once it watches (the caller stops it). */
async function watchingCli() {
  const content = writeContent(rebuildSite());
  const out = join(tempDir('pepys-watch-basis-'), 'public');
  const cli = startCli('build', ['--content', content, '--out', out, '--watch']);
  try {
    await cli.waitFor('stdout', /watching/);
  } catch (err) {
    cli.child.kill('SIGKILL');
    throw err;
  }
  return { content, out, cli };
}

describe('what the watch mode leaves behind', () => {
  it('a build after a session has nothing to do, and patches the next edit from the basis the session saved', async () => {
    const content = writeContent(rebuildSite());
    const out = join(tempDir('pepys-watch-basis-'), 'public');
    const watcher = await watch(content, out, 20);
    editText(content, 'entries/1660/1660-01-01.html', 'Watched.');
    await watcher.rescan();
    await watcher.session.downloadsSettled();
    expect(watcher.lastReport?.changed.length ?? 0).toBeGreaterThan(0);
    await watcher.close();

    // The live tree's manifest holds, records what it was made of and the basis beside it.
    const live = realpathSync(out);
    const manifest = readManifest(live);
    expect(manifest).not.toBeNull();
    expect(manifest?.inputs).toEqual(expect.any(String));
    expect(manifest?.basis).toEqual(expect.any(String));
    expect(checkTree(live, manifest as NonNullable<typeof manifest>)).toBe(true);
    expect(await notCold(content, out)).toEqual([]);
    // The same basis, byte for byte, as a cold build of the same content saves.
    const reference = await colds.of(content);
    if (!reference.ok) throw new Error('the content is valid');
    expect(readFileSync(join(live, BASIS_FILE)).equals(readFileSync(join(reference.dir, BASIS_FILE)))).toBe(true);
    // The records were written ahead beside the output (live-record.ts) and nothing of that is left.
    expect(readdirSync(dirname(out)).filter((name) => name.includes('-record-'))).toEqual([]);

    expect((await rebuild(content, out)).mode).toBe('unchanged');

    editText(content, 'entries/1660/1660-01-03.html', 'Built.');
    const report = await rebuild(content, out);
    expect(report.mode).toBe('rebuild');
    expect(report.patched).toBe(true);
    expect(await notCold(content, out)).toEqual([]);
  });

  it('a session stopped before its downloads are current leaves no manifest claiming them: the build renders everything', async () => {
    const content = writeContent(rebuildSite());
    const out = join(tempDir('pepys-watch-basis-'), 'public');
    // The downloads are never made again within the test: the live tree's are of the first content.
    const watcher = await watch(content, out, 3_600_000);
    editText(content, 'entries/1660/1660-01-02.html', 'Unsettled.');
    await watcher.rescan();
    await watcher.close();
    const live = realpathSync(out);
    const manifest = readManifest(live);
    expect(manifest === null || !checkTree(live, manifest)).toBe(true);
    const report = await rebuild(content, out);
    expect(report.mode).not.toBe('unchanged');
    expect(report.patched).not.toBe(true);
    expect(await notCold(content, out)).toEqual([]);
  });

  it('an edit after the manifest was recorded is the next one’s to record: never an old manifest on a new tree', async () => {
    const content = writeContent(rebuildSite());
    const out = join(tempDir('pepys-watch-basis-'), 'public');
    const watcher = await watch(content, out, -1);
    for (const [file, text] of [
      ['entries/1660/1660-01-01.html', 'First.'],
      ['entries/1660/1660-01-04.html', 'Second.'],
      ['topics/2.yaml', null],
    ] as const) {
      if (text === null) {
        const path = join(content, file);
        writeFileSync(path, readFileSync(path, 'utf8').replace('Axe Yard', 'Axe Yard, Westminster'));
      } else editText(content, file, text);
      await watcher.rescan();
      expect(await watcher.session.record()).toBe(true);
      const live = realpathSync(out);
      const manifest = readManifest(live);
      expect(manifest !== null && checkTree(live, manifest)).toBe(true);
      expect((await rebuild(content, out)).mode).toBe('unchanged');
    }
    await watcher.close();
    expect(await notCold(content, out)).toEqual([]);
  });

  it('Ctrl-C right after an edit waits for its downloads and record: the next build has nothing to do', async () => {
    const { content, out, cli } = await watchingCli();
    try {
      editText(content, 'entries/1660/1660-01-05.html', 'Stopped.');
      // The edit's rebuild is live; its downloads follow a quarter of a second later.
      await cli.waitFor('stdout', /1660-01-05\.html: rebuilt/);
      cli.child.kill('SIGINT');
      const result = await cli.done;
      expect(result.code, result.stderr).toBe(0);
      // Before, the process ended at once, before the downloads and the record: the next build
      // found no manifest and rendered the site again.
      expect((await rebuild(content, out)).mode).toBe('unchanged');
      expect(await notCold(content, out)).toEqual([]);
    } finally {
      cli.child.kill('SIGKILL');
    }
  });

  it('a session killed at any moment (SIGKILL) leaves an output the next build gets right: a cold build’s bytes', async () => {
    const { content, out, cli } = await watchingCli();
    try {
      editText(content, 'entries/1660/1660-01-05.html', 'Killed.');
      // Anywhere from the edit's rebuild to the downloads made again (250 ms later, then ~0.2 s) and the
      // manifest recorded after them.
      const delayMs = Math.floor(Math.random() * 1600);
      await new Promise((r) => setTimeout(r, delayMs));
      cli.child.kill('SIGKILL');
      await cli.done;
      const report = await rebuild(content, out);
      expect(await notCold(content, out), `killed ${delayMs} ms after the edit (${report.mode})`).toEqual([]);
    } finally {
      cli.child.kill('SIGKILL');
    }
  });
});
