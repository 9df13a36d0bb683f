// kill -9 of a whole-diary build at random moments. The whole diary (the real edition through the
// importer, plus the full-scale encyclopedia fixture) is built once; then, again and again, a
// build of a different output (the other --api-origin) is started and killed with SIGKILL after a
// random delay. After every kill the output must be entirely the old tree or entirely the new one
// (file list and hashes against two reference trees), or, if the kill fell between the writer's
// two renames, absent with the old tree whole beside it for the next build to put back. At the
// end, one build runs to completion and every leftover of every killed build must be gone.
// Every build after the first is a rebuild over the previous output (output/rebuild.ts): it writes
// the files that differ into the generation that is not live and swaps the symlink, so the kills
// land in rebuilds, and the trees compared are the ones the output points at.

import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../../generator/core/random.ts';
import { importStandardEbooks } from '../../generator/import/standard-ebooks.ts';
import { leftoverOf } from '../../generator/output/trash.ts';
import { writeEncyclopediaFixture } from '../../scripts/fixture-encyclopedia.ts';
import { startCli } from '../helpers/cli.ts';
import { servedSnapshot as snapshot } from '../helpers/snapshot.ts';
import { tempDir } from '../helpers/temp.ts';

const corpus = resolve(import.meta.dirname, '../../../shared/corpus/standard-ebooks-pepys-diary');
const available = existsSync(join(corpus, 'text'));
if (!available && process.env.CI === 'true') {
  it('has the corpus in CI', () => {
    expect.fail(`CI must have ../shared beside the clone: ${corpus} is missing`);
  });
}
if (!available) console.warn(`kill-build tests skipped: ${corpus} not found`);

const TRIALS = 24;
const SEED = 0x6b696c6c;
const ORIGINS = { a: 'https://old.example', b: 'https://new.example' } as const;
type Side = keyof typeof ORIGINS;
type Tree = Map<string, string>;

function sameTree(a: Tree | null, b: Tree): boolean {
  if (a === null || a.size !== b.size) return false;
  for (const [path, what] of a) if (b.get(path) !== what) return false;
  return true;
}

/** What differs, briefly, for a failure message. */
function difference(a: Tree | null, b: Tree): string {
  if (a === null) return 'the output is missing';
  const missing = [...b.keys()].filter((p) => !a.has(p));
  const extra = [...a.keys()].filter((p) => !b.has(p));
  const changed = [...a.keys()].filter((p) => b.has(p) && a.get(p) !== b.get(p));
  return `${missing.length} missing (${missing.slice(0, 3).join(', ')}), ${extra.length} extra (${extra.slice(0, 3).join(', ')}), ${changed.length} changed (${changed.slice(0, 3).join(', ')})`;
}

describe.skipIf(!available)('kill -9 of a whole-diary build at random moments', () => {
  const root = tempDir('pepys-kill-');
  const contentDir = join(root, 'content');
  const site = join(root, 'site');
  const out = join(site, 'public');
  const refs = {} as Record<Side, Tree>;

  const buildArgs = (dir: string, side: Side) => ['--content', contentDir, '--out', dir, '--api-origin', ORIGINS[side]];
  /** The progress line printed when the build starts rendering and writing the new tree. */
  const WRITING = /rendering and writing/;

  /** Runs a build to its end; returns its wall time and the time from its writing step to its end. */
  async function timedBuild(dir: string, side: Side): Promise<{ total: number; writing: number }> {
    const started = performance.now();
    const run = startCli('build', buildArgs(dir, side));
    await run.waitFor('stderr', WRITING, 300_000);
    const writingAt = performance.now();
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    return { total: performance.now() - started, writing: performance.now() - writingAt };
  }

  let estimate = { total: 0, writing: 0 };

  beforeAll(async () => {
    importStandardEbooks(corpus, contentDir);
    writeEncyclopediaFixture(contentDir);
    for (const side of ['a', 'b'] as const) {
      const dir = join(root, `ref-${side}`, 'public');
      await timedBuild(dir, side);
      refs[side] = snapshot(dir) as Tree;
    }
    // The old output, built the way every trial builds: over an existing output.
    await timedBuild(out, 'b');
    estimate = await timedBuild(out, 'a');
    expect(sameTree(snapshot(out), refs.a)).toBe(true);
  }, 300_000);

  it(`leaves the whole old tree or the whole new one after each of ${TRIALS} kills; the next build sweeps every leftover`, async () => {
    const rand = prng(SEED);
    let state: Side = 'a';
    const outcomes = { old: 0, new: 0, betweenRenames: 0, finishedFirst: 0 };
    const kinds = { anyMoment: 0, whileWriting: 0, aroundTheSwap: 0 };
    const landed = { beforeWriting: 0, whileWriting: 0 };
    const leftoverNames = new Set<string>();
    for (let trial = 0; trial < TRIALS; trial++) {
      const target: Side = state === 'a' ? 'b' : 'a';
      const started = performance.now();
      const build = startCli('build', buildArgs(out, target));
      let writingAt: number | null = null;
      const writing = build.waitFor('stderr', WRITING, 300_000).then(
        () => {
          writingAt = performance.now();
        },
        () => undefined,
      );
      // A third of the kills fall at any moment of a build's life (starting Node, reading,
      // rendering, writing, swapping, a little after); a third while it writes the new tree; a
      // third around the moment it should swap, measured from its last whole build, so that the
      // swap is hit whatever the machine's pace. Delays from prng.
      let delay: number;
      if (trial % 3 === 0) {
        kinds.anyMoment++;
        delay = rand(Math.round(estimate.total * 1.1));
      } else if (trial % 3 === 1) {
        kinds.whileWriting++;
        delay = rand(Math.round(estimate.writing));
        await writing;
      } else {
        kinds.aroundTheSwap++;
        delay = Math.round(estimate.writing * 0.8) + rand(Math.round(estimate.writing * 0.4));
        await writing;
      }
      await new Promise((r) => setTimeout(r, delay));
      build.child.kill('SIGKILL');
      const r = await build.done;
      await writing;
      const ended = performance.now();
      if (r.code === 0) {
        outcomes.finishedFirst++;
        // The machine's pace changes (other work comes and goes): the latest whole build sets it.
        if (writingAt !== null) estimate = { total: ended - started, writing: ended - writingAt };
      } else {
        expect(r.signal, `trial ${trial}: ${r.stderr}`).toBe('SIGKILL');
        if (writingAt === null) landed.beforeWriting++;
        else landed.whileWriting++;
      }
      const pid = build.child.pid as number;
      for (const name of readdirSync(site)) if (leftoverOf(out, name)?.pid === pid) leftoverNames.add(name);

      const now = snapshot(out);
      if (sameTree(now, refs[state])) outcomes.old++;
      else if (sameTree(now, refs[target])) {
        outcomes.new++;
        state = target;
      } else if (now === null) {
        // Killed between the two renames: the old tree must be whole beside the output.
        expect(sameTree(snapshot(join(site, `.public-prev-${pid}`)), refs[state]), `trial ${trial}, ${delay} ms`).toBe(
          true,
        );
        outcomes.betweenRenames++;
      } else {
        expect.fail(
          `trial ${trial}, killed after ${delay} ms: the output is neither tree (against the old one: ${difference(now, refs[state])})`,
        );
      }
    }
    console.log(
      `kill -9 trials: ${TRIALS} (seed ${SEED}; ${JSON.stringify(kinds)}; a build took ${Math.round(estimate.total)} ms, ` +
        `${Math.round(estimate.writing)} ms of it writing): ${JSON.stringify(outcomes)}; kills that landed: ${JSON.stringify(landed)}; ` +
        `leftovers seen: ${leftoverNames.size}`,
    );
    expect(outcomes.old + outcomes.new + outcomes.betweenRenames).toBe(TRIALS);

    // The next build, run to the end, sweeps everything the killed ones left.
    const target: Side = state === 'a' ? 'b' : 'a';
    await timedBuild(out, target);
    expect(sameTree(snapshot(out), refs[target])).toBe(true);
    // What stays: the output and its two generations (output/rebuild.ts).
    const layout = ['.public-gen-a', '.public-gen-b', 'public'];
    let names: string[] = [];
    for (let i = 0; i < 600; i++) {
      names = readdirSync(site).sort();
      if (names.every((n) => layout.includes(n))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(names.filter((n) => !layout.includes(n))).toEqual([]);
    expect(names).toContain('public');
  }, 900_000);
});
