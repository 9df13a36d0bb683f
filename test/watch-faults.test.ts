// The watch mode under the mistakes and faults users meet: a broken site.yaml, directories
// deleted and made again, renamed, replaced whole; editors' atomic saves, sed -i, mass deletes;
// a fault while writing; missed events. It never dies, says what is wrong while the content is
// broken (serving the last good site), and once things settle its output is a cold build's.

import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigOverrides } from '../generator/content/config.ts';
import { otherSlot, slotDir } from '../generator/output/generations.ts';
import type { RebuildReport } from '../generator/watch/session.ts';
import { describeRebuild, startWatching, type Watcher, type WatchOptions } from '../generator/watch/watch.ts';
import { entryFile, smallSite, writeContent } from './helpers/content.ts';
import { readServed, readTree } from './helpers/files.ts';
import { tempDir } from './helpers/temp.ts';
import { answer, coldBuild, differing, problemLines, type Served, samplePaths, serve } from './helpers/watch-check.ts';

const overrides: ConfigOverrides = { apiOrigin: 'http://mirror.test' };
const open: Array<Watcher | Served> = [];
afterEach(async () => {
  for (const x of open.splice(0)) await ('session' in x ? x.close() : x.stop());
});

interface Session {
  contentDir: string;
  outDir: string;
  /** Where cold builds of the session's content go: one tree, replaced by each (fewer files to clean up). */
  coldOut: string;
  watcher: Watcher;
  reports: RebuildReport[];
  warnings: string[];
}

async function watch(files: Record<string, string>, options: Partial<WatchOptions> = {}): Promise<Session> {
  const contentDir = writeContent(files);
  const outDir = join(tempDir('pepys-watch-'), 'public');
  const reports: RebuildReport[] = [];
  const warnings: string[] = [];
  const watcher = await startWatching({
    contentDir,
    outDir,
    overrides,
    env: {},
    rescanMs: 0,
    downloadsDelayMs: -1,
    onRebuild: (r) => reports.push(r),
    onWarning: (l) => warnings.push(l),
    ...options,
  });
  open.push(watcher);
  return { contentDir, outDir, coldOut: join(tempDir('pepys-cold-'), 'public'), watcher, reports, warnings };
}

/** Once settled, the live output is what a cold build of the same content writes. */
async function expectCold(s: Session, what: string): Promise<void> {
  await s.watcher.settled();
  const cold = await coldBuild(s.contentDir, overrides, s.coldOut);
  if (!cold.ok) throw new Error(`${what}: the content should be valid here:\n${cold.problems.join('\n')}`);
  expect(differing(readTree(s.outDir), cold.tree), what).toEqual([]);
}

/** Waits (up to the test's timeout) until `check` holds, looking again after every rebuild. */
async function eventually(s: Session, check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) {
    await new Promise((r) => setTimeout(r, 25));
    await s.watcher.idle();
  }
}

const site = (): Record<string, string> => ({
  ...smallSite(),
  'topics/3.yaml': 'id: 3\ntitle: Three\ncategories: [people]\n',
  'entries/1661/1661-01-21.html': entryFile('1661-01-21', 'topics: [3]\n'),
  'entries/1661/1661-01-22.html': entryFile('1661-01-22'),
});

describe('watch mode, faults', () => {
  it('survives a syntax error in site.yaml, reports it with every other problem, keeps serving, and rebuilds once fixed', async () => {
    const s = await watch(site());
    const server = await serve(s.outDir);
    open.push(server);
    const before = readTree(s.outDir);
    const paths = samplePaths(before, () => 0);
    const answers = await Promise.all(paths.map((p) => answer(server.origin, p)));
    const goodSite = readFileSync(join(s.contentDir, 'site.yaml'), 'utf8');
    writeFileSync(join(s.contentDir, 'site.yaml'), 'apiOrigin: [unclosed\n');
    writeFileSync(join(s.contentDir, 'entries/1661/1661-01-22.html'), entryFile('1661-01-22', 'topics: [99]\n'));
    await s.watcher.settled();
    const cold = await coldBuild(s.contentDir, overrides);
    expect(cold.ok).toBe(false);
    const report = s.watcher.lastReport;
    expect(report?.ok).toBe(false);
    expect(problemLines(report?.problems ?? [])).toEqual(cold.ok ? [] : cold.problems);
    expect(problemLines(report?.problems ?? [])).toContain('content/entries/1661/1661-01-22.html:3: unknown topic 99');
    expect(problemLines(report?.problems ?? []).some((l) => l.startsWith('content/site.yaml:'))).toBe(true);
    // One line per problem, under one line saying the site was left as it was.
    const text = describeRebuild(
      { ...(report as RebuildReport), sameProblems: false },
      ['site.yaml'],
      'content',
      'public',
    );
    expect(text.split('\n')).toEqual([
      `site.yaml: ${report?.problems.length} problems; public was left as it was:`,
      ...problemLines(report?.problems ?? []).map((l) => `  ${l}`),
    ]);
    // The last good site, served as it was.
    expect(differing(readTree(s.outDir), before)).toEqual([]);
    expect(await Promise.all(paths.map((p) => answer(server.origin, p)))).toEqual(answers);
    // Touching a broken file again says it in one line.
    writeFileSync(join(s.contentDir, 'site.yaml'), 'apiOrigin: [unclosed\n');
    await s.watcher.settled();
    expect(s.watcher.lastReport?.sameProblems).toBe(true);
    expect(describeRebuild(s.watcher.lastReport as RebuildReport, ['site.yaml'], 'content', 'public')).toMatch(
      /public was left as it was \(the same as before\)$/,
    );
    writeFileSync(join(s.contentDir, 'site.yaml'), goodSite.replace('\n', '\npageSize: 2\n'));
    writeFileSync(join(s.contentDir, 'entries/1661/1661-01-22.html'), entryFile('1661-01-22', 'topics: [1]\n'));
    await expectCold(s, 'fixed');
    expect(s.watcher.lastReport?.ok).toBe(true);
  });

  it('keeps watching directories that are deleted and made again, renamed, or replaced with a whole new tree', async () => {
    const s = await watch(site());
    const dir1661 = join(s.contentDir, 'entries/1661');
    rmSync(dir1661, { recursive: true });
    await expectCold(s, 'a year deleted');
    mkdirSync(dir1661);
    writeFileSync(join(dir1661, '1661-02-01.html'), entryFile('1661-02-01'));
    await expectCold(s, 'made again');
    // A file of the new directory: only a watcher of the new directory sees this.
    writeFileSync(
      join(dir1661, '1661-02-01.html'),
      entryFile('1661-02-01', 'topics: [2]\n', '<p>Edited in the new directory.</p>'),
    );
    await expectCold(s, 'edited in the new directory');

    // Deleted and made again at once (Linux gives the new directory the same inode number).
    rmSync(dir1661, { recursive: true });
    mkdirSync(dir1661);
    writeFileSync(join(dir1661, '1661-02-02.html'), entryFile('1661-02-02'));
    await expectCold(s, 'deleted and made again at once');
    writeFileSync(join(dir1661, '1661-02-03.html'), entryFile('1661-02-03'));
    await expectCold(s, 'a file added to it afterwards');

    renameSync(dir1661, join(s.contentDir, 'entries/year-1661'));
    await expectCold(s, 'a year renamed');
    writeFileSync(join(s.contentDir, 'entries/year-1661/1661-02-04.html'), entryFile('1661-02-04'));
    await expectCold(s, 'a file added to the renamed directory');

    // The whole entries/ tree replaced, as a deploy script or a git checkout would.
    const staged = join(s.contentDir, 'entries.new');
    mkdirSync(join(staged, '1662'), { recursive: true });
    writeFileSync(join(staged, '1662/1662-03-01.html'), entryFile('1662-03-01', 'topics: [1]\n'));
    renameSync(join(s.contentDir, 'entries'), join(s.contentDir, 'entries.old'));
    renameSync(staged, join(s.contentDir, 'entries'));
    rmSync(join(s.contentDir, 'entries.old'), { recursive: true });
    await expectCold(s, 'entries/ replaced');
    writeFileSync(join(s.contentDir, 'entries/1662/1662-03-02.html'), entryFile('1662-03-02'));
    mkdirSync(join(s.contentDir, 'entries/1663/deeper'), { recursive: true });
    writeFileSync(join(s.contentDir, 'entries/1663/deeper/1663-01-01.html'), entryFile('1663-01-01'));
    await expectCold(s, 'files added to the new tree');
    writeFileSync(join(s.contentDir, 'entries/1663/deeper/1663-01-02.html'), entryFile('1663-01-02'));
    await expectCold(s, 'a file added to a new nested directory');
    expect(s.warnings).toEqual([]);
  });

  it("follows atomic saves, vim's backup dance, sed -i, renames and mass deletes", async () => {
    const s = await watch(site());
    const file = join(s.contentDir, 'topics/3.yaml');
    writeFileSync(`${file}.tmp`, 'id: 3\ntitle: Saved atomically\ncategories: [people]\n');
    renameSync(`${file}.tmp`, file);
    await expectCold(s, 'write a temporary file, rename it over');
    // vim: the file becomes the backup, the new text is written under the name, the backup goes.
    renameSync(file, `${file}~`);
    writeFileSync(file, 'id: 3\ntitle: Saved by vim\ncategories: [people]\n');
    unlinkSync(`${file}~`);
    await expectCold(s, 'vim');
    expect(spawnSync('sed', ['-i', 's/Saved by vim/Saved by sed/', file]).status).toBe(0);
    await expectCold(s, 'sed -i');
    renameSync(join(s.contentDir, 'entries/1661/1661-01-22.html'), join(s.contentDir, 'entries/1660/moved.html'));
    await expectCold(s, 'a file renamed into another directory');
    for (const f of ['1661-01-20.html', '1661-01-21.html']) rmSync(join(s.contentDir, 'entries/1661', f));
    rmSync(join(s.contentDir, 'topics/3.yaml'));
    await expectCold(s, 'mass delete');
  });

  it('reports a fault while writing the output, keeps the live site, and recovers at the next change', async () => {
    const s = await watch(site());
    const before = readTree(s.outDir);
    // A directory where the next rebuild must write a file, in the tree it writes into.
    const target = slotDir(s.outDir, otherSlot(s.watcher.session.liveSlot));
    s.watcher.session.settle();
    // (The page of 1661's entries: a new entry of that year changes it.)
    const blocker = join(target, 'api/v1/entries/years/1661/pages/1.json');
    rmSync(blocker);
    mkdirSync(blocker);
    writeFileSync(join(s.contentDir, 'entries/1661/1661-05-01.html'), entryFile('1661-05-01'));
    await s.watcher.settled();
    const failed = s.watcher.lastReport;
    expect(failed?.ok).toBe(false);
    expect(failed?.error).toMatch(
      /\/api\/v1\/entries\/years\/1661\/pages\/1\.json: illegal operation on a directory \(EISDIR\)$/,
    );
    expect(describeRebuild(failed as RebuildReport, ['x'], 'content', 'public')).toMatch(
      /^x: rebuild failed: .*; public was left as it was/,
    );
    expect(differing(readTree(s.outDir), before)).toEqual([]);
    rmSync(blocker, { recursive: true });
    // The failed rebuild had read the new file already: the next rebuild writes it, even if
    // nothing else changed (here: an editor's temporary file, which is not content).
    writeFileSync(join(s.contentDir, 'entries/1661/.scratch.swp'), 'x');
    await expectCold(s, 'after the fault is gone');
  });

  it('is not stopped by an onRebuild that throws', async () => {
    let calls = 0;
    const s = await watch(site(), {
      onRebuild: () => {
        calls++;
        throw new Error('stdout is closed');
      },
    });
    writeFileSync(join(s.contentDir, 'topics/3.yaml'), 'id: 3\ntitle: Once\n');
    await s.watcher.settled();
    writeFileSync(join(s.contentDir, 'topics/3.yaml'), 'id: 3\ntitle: Twice\n');
    await expectCold(s, 'after a throwing callback');
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(s.warnings.some((w) => w.includes('stdout is closed'))).toBe(true);
  });

  it('finds changes without any event by its periodic rescan (polling), the content directory replaced whole included', async () => {
    const s = await watch(site(), { events: false, rescanMs: 50 });
    writeFileSync(join(s.contentDir, 'topics/3.yaml'), 'id: 3\ntitle: Polled\n');
    await eventually(s, () => (readServed(s.outDir, 'api/v1/topics/3.json') as string).includes('Polled'));
    await expectCold(s, 'polled');
    await s.watcher.close();

    // With events and the rescan: the content directory itself moved away and put back as a copy.
    const t = await watch(site(), { rescanMs: 50 });
    const old = `${t.contentDir}.old`;
    renameSync(t.contentDir, old);
    cpSync(old, t.contentDir, { recursive: true });
    rmSync(old, { recursive: true });
    writeFileSync(join(t.contentDir, 'topics/3.yaml'), 'id: 3\ntitle: In the new directory\n');
    await eventually(t, () =>
      (readServed(t.outDir, 'api/v1/topics/3.json') as string).includes('In the new directory'),
    );
    writeFileSync(join(t.contentDir, 'topics/2.yaml'), 'id: 2\ntitle: Seen by an event again\n');
    await eventually(t, () =>
      (readServed(t.outDir, 'api/v1/topics/2.json') as string).includes('Seen by an event again'),
    );
    await expectCold(t, 'content directory replaced');
  });

  it('survives a file created and deleted every few milliseconds, and settles on a cold build', async () => {
    const s = await watch(site());
    const file = join(s.contentDir, 'entries/1660/1660-02-01.html');
    const until = Date.now() + 1000;
    let n = 0;
    while (Date.now() < until) {
      writeFileSync(file, entryFile('1660-02-01', '', `<p>Version ${n++}.</p>`));
      await new Promise((r) => setTimeout(r, n % 3));
      rmSync(file, { force: true });
      await new Promise((r) => setTimeout(r, n % 2));
    }
    await expectCold(s, `after ${n} creations and deletions`);
  });
});
