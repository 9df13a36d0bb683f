// The "incremental equals cold" family (test/edit-sequences.test.ts, and its long run in
// test/heavy/edit-sequences.test.ts): random sequences of edits (test/helpers/watch-random.ts'
// operations of every kind, valid and invalid), drawn by fast-check, applied to one content
// directory while three outputs follow it: the one-shot rebuild (`build()` again over the last
// output), a watch session on file-system events and a watch session on rescans alone
// (startWatching). After each step every output is held to a cold `build()` of the same content
// into an empty directory, made once per content (memoized by a digest of the content's files):
// the same bytes, the same answers from a local server over it, or for invalid content the same
// problems. Only public surfaces: build() and its BuildReport, startWatching/Watcher, the files
// on disk, the local server; nothing of how the incremental paths work inside.

import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect } from 'vitest';
import { type BuildReport, build } from '../../generator/build.ts';
import type { ConfigOverrides } from '../../generator/content/config.ts';
import { ContentError } from '../../generator/content/problems.ts';
import { prng } from '../../generator/core/random.ts';
import { checkTree, readManifest } from '../../generator/output/manifest.ts';
import { startWatching, type Watcher } from '../../generator/watch/watch.ts';
import { writeContent } from './content.ts';
import { readTreeBytes } from './files.ts';
import { tempDir } from './temp.ts';
import { answer, coldBuild, problemLines, type Served, samplePaths, serve } from './watch-check.ts';
import { applyOp, OP_NAMES, randomSite, repair } from './watch-random.ts';

export type Tree = Map<string, Buffer>;

/** One operation of a step: which (watch-random.ts OP_NAMES), its own seed, a pause after it. */
interface EditOp {
  op: number;
  seed: number;
  pauseMs: number;
}

/** A step: a few operations (a burst: the watchers may rebuild midway), then maybe a repair. */
export interface Step {
  ops: EditOp[];
  /** Make the content valid again afterwards (watch-random.ts repair). */
  repair: boolean;
  /** Seeds the choice of the detail pages whose answers are compared. */
  pick: number;
}

const opArb: fc.Arbitrary<EditOp> = fc.record({
  op: fc.nat({ max: OP_NAMES.length - 1 }),
  seed: fc.nat(),
  pauseMs: fc.oneof(fc.constant(0), fc.nat({ max: 20 })),
});

export const stepArb: fc.Arbitrary<Step> = fc.record({
  ops: fc.array(opArb, { minLength: 1, maxLength: 4 }),
  // One step in three: invalid content then often lasts a few steps, as it does while one types.
  repair: fc.nat({ max: 2 }).map((n) => n === 0),
  pick: fc.nat(),
});

/** The seed and path a run uses: EDIT_SEED and EDIT_PATH replay a failing run (fast-check prints both). */
export function replayParameters(): { seed: number; path?: string } {
  const seed = Number(process.env.EDIT_SEED ?? Date.now() % 2_000_000_000);
  const path = process.env.EDIT_PATH;
  return path === undefined || path === '' ? { seed } : { seed, path };
}

const overrides: ConfigOverrides = { apiOrigin: 'http://mirror.test' };

/** A digest of every file under `dir`: names, kinds, bytes and link targets (never opens a FIFO). */
export function contentDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const s = lstatSync(join(dir, path));
      if (s.isDirectory()) {
        hash.update(`d ${path}\n`);
        walk(path);
      } else if (s.isSymbolicLink()) hash.update(`l ${path} ${readlinkSync(join(dir, path))}\n`);
      else if (s.isFile())
        hash.update(
          `f ${path} ${createHash('sha256')
            .update(readFileSync(join(dir, path)))
            .digest('hex')}\n`,
        );
      else hash.update(`o ${path} ${s.mode}\n`);
    }
  };
  walk('');
  return hash.digest('hex');
}

export type ColdReference = { ok: true; tree: Tree; dir: string } | { ok: false; problems: string[] };

/**
 * Cold builds of content directories, each made once per content (by contentDigest) within a
 * test file: many steps and many runs come back to the same content (every run starts from the
 * same site; a repair often restores an earlier state).
 */
export class ColdBuilds {
  // Promises, so that tests running at once (it.concurrent) share one build of the same content.
  private readonly made = new Map<string, Promise<ColdReference>>();
  private readonly servers = new Map<string, Promise<Served>>();
  private readonly answers = new Map<string, string>();
  private readonly overrides: ConfigOverrides;
  builds = 0;
  hits = 0;

  constructor(options: { overrides?: ConfigOverrides } = {}) {
    this.overrides = options.overrides ?? {};
    afterAll(() => this.close());
  }

  async of(contentDir: string): Promise<ColdReference> {
    const digest = contentDigest(contentDir);
    const known = this.made.get(digest);
    if (known !== undefined) {
      this.hits++;
      return known;
    }
    this.builds++;
    const reference = coldBuild(contentDir, this.overrides).then(
      (cold): ColdReference =>
        cold.ok
          ? { ok: true, tree: readTreeBytes(cold.outDir), dir: cold.outDir }
          : { ok: false, problems: cold.problems },
    );
    this.made.set(digest, reference);
    return reference;
  }

  /** What a local server over the cold build answers for `path` (each asked once). */
  async answer(reference: ColdReference & { ok: true }, path: string): Promise<string> {
    const key = `${reference.dir}\n${path}`;
    const known = this.answers.get(key);
    if (known !== undefined) return known;
    let server = this.servers.get(reference.dir);
    if (server === undefined) {
      server = serve(reference.dir);
      this.servers.set(reference.dir, server);
    }
    const text = await answer((await server).origin, path);
    this.answers.set(key, text);
    return text;
  }

  async close(): Promise<void> {
    for (const server of this.servers.values()) await (await server).stop();
    this.servers.clear();
  }
}

/** Paths whose bytes differ between two trees, sorted: changed or added in `b`, and gone from it. */
export function differ(a: Tree, b: Tree): { written: string[]; removed: string[] } {
  const written = [...b].filter(([p, bytes]) => !a.get(p)?.equals(bytes)).map(([p]) => p);
  const removed = [...a.keys()].filter((p) => !b.has(p));
  return { written: written.sort(), removed: removed.sort() };
}

/** Every path that differs between two trees (for a short failure message). */
export const differing = (a: Tree, b: Tree): string[] => {
  const d = differ(a, b);
  return [...d.written, ...d.removed].sort();
};

/** Each file's inode and modification time under `dir` (followed if it is a link). */
export function identities(dir: string): Map<string, string> {
  const root = realpathSync(dir);
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const d of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = rel === '' ? d.name : `${rel}/${d.name}`;
      if (d.isDirectory()) walk(path);
      else {
        const s = lstatSync(join(root, path));
        out.set(path, `${s.ino} ${s.mtimeMs}`);
      }
    }
  };
  walk('');
  return out;
}

/**
 * The generation directories beside the output `outDir` (`.public-gen-a`, `-b`: the layout on
 * disk, docs/ and output/generations.ts), the live one first; [] while it is a plain directory.
 */
export function generations(outDir: string): { live: string | null; other: string | null } {
  let target: string;
  try {
    target = readlinkSync(outDir);
  } catch {
    return { live: null, other: null };
  }
  const prefix = `.${basename(outDir)}-gen-`;
  const siblings = readdirSync(dirname(outDir)).filter((n) => n.startsWith(prefix) && n !== basename(target));
  const other = siblings[0];
  return {
    live: join(dirname(outDir), basename(target)),
    other: other === undefined ? null : join(dirname(outDir), other),
  };
}

export interface FamilyOptions {
  /** Which outputs follow the edits. */
  rebuild: boolean;
  watchEvents: boolean;
  watchRescans: boolean;
  /**
   * Compare what a local server answers over each output with one over the cold build: one server
   * over each output for the whole sequence, which must follow every swap of generations (a
   * server kept its first generation over a rebuilt output whose site index did not change until
   * eca9a7f: this family found it).
   */
  answers: boolean;
}

export interface FamilyCount {
  runs: number;
  steps: number;
  operations: number;
  invalid: number;
  rebuilds: Record<BuildReport['mode'], number>;
}

export const newCount = (): FamilyCount => ({
  runs: 0,
  steps: 0,
  operations: 0,
  invalid: 0,
  rebuilds: { full: 0, rebuild: 0, unchanged: 0 },
});

/** The line a family's file prints when it ends: the seed that replays it, and what it ran. */
export function familySummary(label: string, seed: number, count: FamilyCount, colds: ColdBuilds): string {
  return (
    `${label}: seed ${seed} (EDIT_SEED=${seed} replays it); ${count.runs} runs, ${count.steps} steps ` +
    `(${count.invalid} of invalid content), ${count.operations} operations; rebuilds ${JSON.stringify(count.rebuilds)}; ` +
    `${colds.builds} cold builds made, ${colds.hits} reused\n`
  );
}

interface Followed {
  name: string;
  outDir: string;
  served: Served | null;
  watcher?: Watcher;
  rescans?: boolean;
}

/**
 * Applies `steps` to a fresh copy of the random site (watch-random.ts randomSite) and holds every
 * output to the cold build after each step; throws (an expect) naming the step on any mismatch.
 */
export async function runSequence(
  steps: readonly Step[],
  colds: ColdBuilds,
  options: FamilyOptions,
  count: FamilyCount,
): Promise<void> {
  const contentDir = writeContent(randomSite());
  const followed: Followed[] = [];
  const done: string[] = [];
  const where = (label: string) => `${label}, after: ${done.slice(-12).join('; ')}`;
  count.runs++;
  try {
    const start = await colds.of(contentDir);
    if (!start.ok) throw new Error(`the random site is invalid: ${start.problems.join('\n')}`);
    if (options.rebuild) {
      const outDir = join(tempDir('pepys-rebuild-'), 'public');
      // The build: a cold build into an empty directory, the same bytes as the reference.
      const first = await build({ contentDir, outDir, quiet: true, overrides, env: {} });
      expect(first.mode).toBe('full');
      expect(differing(readTreeBytes(outDir), start.tree), 'a cold build, again').toEqual([]);
      // One server for the whole sequence: it must follow each rebuild's swap (see FamilyOptions.answers).
      followed.push({ name: 'rebuild', outDir, served: options.answers ? await serve(outDir) : null });
    }
    for (const [name, events] of [
      ['watch (events)', options.watchEvents],
      ['watch (rescans only)', options.watchRescans],
    ] as const) {
      if (!events) continue;
      const rescans = name.includes('rescans');
      const outDir = join(tempDir('pepys-watch-'), 'public');
      const watcher = await startWatching({
        contentDir,
        outDir,
        overrides,
        env: {},
        onWarning: () => {},
        downloadsDelayMs: -1,
        rescanMs: 0,
        ...(rescans ? { events: false } : {}),
      });
      followed.push({ name, outDir, watcher, rescans, served: options.answers ? await serve(outDir) : null });
      expect(differing(readTreeBytes(outDir), start.tree), `${name}: its first build`).toEqual([]);
    }
    let lastBuilt = contentDigest(contentDir);

    for (const [i, step] of steps.entries()) {
      for (const op of step.ops) {
        done.push(applyOp(contentDir, op.op, prng(op.seed)));
        count.operations++;
        if (op.pauseMs > 0) await new Promise((r) => setTimeout(r, op.pauseMs));
      }
      if (step.repair) done.push(`repair (${await repair(contentDir)} files removed)`);
      count.steps++;
      const label = `step ${i}`;
      const reference = await colds.of(contentDir);
      if (!reference.ok) count.invalid++;
      const digest = contentDigest(contentDir);
      for (const f of followed) {
        const what = where(`${label}, ${f.name}`);
        if (f.watcher === undefined) {
          await checkRebuild(contentDir, f.outDir, reference, digest === lastBuilt, what, count);
        } else {
          if (f.rescans) await f.watcher.rescan();
          await f.watcher.settled();
          if (!reference.ok) {
            const report = f.watcher.lastReport;
            expect(report?.ok, `${what}: the session reports the content invalid`).toBe(false);
            expect(problemLines(report?.problems ?? []), `${what}: its problems`).toEqual(reference.problems);
          } else expect(differing(readTreeBytes(f.outDir), reference.tree), `${what}: differs from cold`).toEqual([]);
        }
        if (reference.ok && f.served !== null) {
          const rand = prng(step.pick);
          for (const path of samplePaths(reference.tree, rand))
            expect(await answer(f.served.origin, path), `${what}: ${path}`).toBe(await colds.answer(reference, path));
        }
      }
      if (reference.ok) lastBuilt = digest;
    }
  } finally {
    for (const f of followed) {
      await f.watcher?.close();
      await f.served?.stop();
    }
  }
}

/**
 * `build()` over the output of the last one: the cold build's bytes, or for invalid content a
 * refusal naming the cold load's problems and the live tree untouched; what it writes and removes
 * is exactly what differs from the generation it writes into; nothing touched when nothing
 * changed; both generations as their records say; the live record's changes what differs from
 * the tree before it (what a mirror fetches).
 */
async function checkRebuild(
  contentDir: string,
  outDir: string,
  reference: ColdReference,
  sameAsLast: boolean,
  what: string,
  count: FamilyCount,
): Promise<void> {
  const before = readTreeBytes(outDir);
  const ids = identities(outDir);
  const { other } = generations(outDir);
  // The tree the rebuild writes into: the other generation, or (the first time) a copy of the live one.
  const held = other === null ? before : readTreeBytes(other);
  const run = build({ contentDir, outDir, quiet: true, overrides, env: {} });
  if (!reference.ok) {
    const err = await run.then(
      (report) => report,
      (e: unknown) => e,
    );
    expect(err, `${what}: refused`).toBeInstanceOf(ContentError);
    expect(problemLines((err as ContentError).problems), `${what}: its problems`).toEqual(reference.problems);
    expect(differing(readTreeBytes(outDir), before), `${what}: the live tree kept`).toEqual([]);
    expect(identities(outDir), `${what}: no live file touched`).toEqual(ids);
    return;
  }
  const report = await run;
  count.rebuilds[report.mode]++;
  const now = readTreeBytes(outDir);
  expect(differing(now, reference.tree), `${what}: differs from cold`).toEqual([]);
  if (sameAsLast || report.mode === 'unchanged') {
    // Unchanged content (even if written again since, or broken and repaired): nothing to do.
    if (sameAsLast) expect(report.mode, what).toBe('unchanged');
    expect(report.written, what).toBe(0);
    expect(report.deleted, what).toBe(0);
    expect(identities(outDir), `${what}: no file touched`).toEqual(ids);
    return;
  }
  expect(report.mode, what).toBe('rebuild');
  const expected = differ(held, now);
  expect(report.written, `${what}: files written`).toBe(expected.written.length);
  expect(report.deleted, `${what}: files removed`).toBe(expected.removed.length);
  const gens = generations(outDir);
  // A rebuild that writes nothing (a folder renamed: other inputs, the same tree) may leave a
  // first build's plain directory as it is, its record renewed.
  if (gens.live === null)
    expect(expected.written.length + expected.removed.length, `${what}: a plain directory`).toBe(0);
  for (const dir of gens.live === null ? [outDir] : [gens.live, gens.other]) {
    expect(dir, what).not.toBeNull();
    const m = readManifest(dir as string);
    expect(m !== null && checkTree(dir as string, m), `${what}: ${dir} as its record says`).toBe(true);
  }
  // Every file that differs from the tree before it is in the live record's changes (what a
  // mirror fetches; that they are exactly those is test/helpers/rebuild-steps.ts' example: a
  // rebuild whose tree is the live one's may list what it caught up in the other generation).
  const changes = readManifest(realpathSync(outDir))?.changes;
  const since = differ(before, now);
  const recorded = new Set(changes === null || changes === undefined ? [] : [...changes.added, ...changes.changed]);
  expect(
    since.written.filter((p) => !recorded.has(p)),
    `${what}: changes not recorded`,
  ).toEqual([]);
  const removed = new Set(changes?.removed ?? []);
  expect(
    since.removed.filter((p) => !removed.has(p)),
    `${what}: removals not recorded`,
  ).toEqual([]);
}
