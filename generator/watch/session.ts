// A build that stays in memory (the watch mode): after some content files change, it re-reads
// only those, validates the whole model again (cheap: no parsing), renders again with a memo
// (only records whose inputs changed are rendered), and writes only the files whose bytes
// changed, into the inactive generation, which then goes live with one rename (generations.ts).
//
// Each generation's content is known here (path → body), so that "changed" is decided in memory,
// without reading the disk. After a swap, the tree that was live is brought up to date too, but
// only after a grace period (readers that resolved it just before the swap finish undisturbed)
// or at the start of the next rebuild, whichever comes first.

import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type ContentState, type LoadOptions, readContent, validate } from '../content/load.ts';
import { ContentError, type Problem } from '../content/problems.ts';
import { updateContent } from '../content/update.ts';
import { activeSlot, otherSlot, pointAt, type Slot, slotDir } from '../output/generations.ts';
import { RenderMemo } from '../render/render-memo.ts';
import { type OutputFile, renderSite } from '../render/render-site.ts';
import { discard } from '../output/trash.ts';
import { writeFiles } from '../output/writer.ts';

/** How long a tree that just went out of service is left alone before it is updated in place. */
export const GRACE_MS = 1000;

export interface SessionOptions extends LoadOptions {
  contentDir: string;
  outDir: string;
}

export interface RebuildReport {
  ok: boolean;
  /** Every content problem, when not ok (the live site is then left as it was). */
  problems: Problem[];
  /** Files in the new generation. */
  files: number;
  /** Files whose bytes differ from the generation that was live: written (or removed). */
  changed: string[];
  /** Files written to bring the other tree up to date first (the previous rebuild's changes). */
  caughtUp: number;
  /** Milliseconds: re-reading and parsing, validating, rendering, writing and swapping. */
  timings: { load: number; validate: number; render: number; write: number; total: number };
}

type Tree = Map<string, string>;

/** Writes one file so that no reader ever opens it half-written: a temporary file, then rename. */
function replaceFile(dir: string, path: string, body: string): void {
  const target = join(dir, path);
  const temp = `${target}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, body);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(temp, body);
  }
  renameSync(temp, target);
}

/** Calls `visit` with the path and body of every file of a site, each path once. */
type Files = (visit: (path: string, body: string) => void) => void;

const ofOutput = (files: readonly OutputFile[]): Files => (visit) => {
  for (const f of files) visit(f.path, f.body);
};
const ofTree = (tree: Tree): Files => (visit) => tree.forEach((body, path) => visit(path, body));

/**
 * Makes the tree in `dir`, whose content `tree` describes, hold `files`, and updates `tree` to
 * match, in place: a long session does not churn a new map of every path per rebuild. Returns
 * the paths that differed.
 */
function applyFiles(dir: string, tree: Tree, files: Files): string[] {
  const changed: string[] = [];
  let count = 0;
  files((path, body) => {
    count++;
    if (tree.get(path) !== body) {
      replaceFile(dir, path, body);
      tree.set(path, body);
      changed.push(path);
    }
  });
  // Every path of `files` is in the tree now: more paths than that means some are gone.
  if (tree.size > count) {
    const wanted = new Set<string>();
    files((path) => wanted.add(path));
    for (const path of [...tree.keys()]) {
      if (!wanted.has(path)) {
        rmSync(join(dir, path), { force: true });
        tree.delete(path);
        changed.push(path);
      }
    }
  }
  return changed;
}

export class BuildSession {
  private state: ContentState;
  private readonly memo: RenderMemo;
  private live: Slot;
  private readonly trees: Record<Slot, Tree>;
  private catchUp: NodeJS.Timeout | null = null;

  private constructor(
    private readonly options: SessionOptions,
    state: ContentState,
    memo: RenderMemo,
    live: Slot,
    tree: Tree,
  ) {
    this.state = state;
    this.memo = memo;
    this.live = live;
    this.trees = { a: tree, b: new Map(tree) } as Record<Slot, Tree>;
  }

  /**
   * Reads and validates everything, writes both generations in full and points the output at
   * one. Throws ContentError (leaving the output as it was) if the content is invalid.
   */
  static async open(options: SessionOptions): Promise<BuildSession> {
    const state = await readContent(options.contentDir, options);
    const v = validate(state);
    if (!v.ok) throw new ContentError(v.problems, options.contentDir);
    const memo = new RenderMemo();
    const files = renderSite(v.model, memo);
    memo.sweep();
    const { outDir } = options;
    // The slot not live now is written first and goes live; the other is then rewritten in full.
    const live = otherSlot(activeSlot(outDir));
    for (const slot of [live, otherSlot(live)]) {
      const staging = `${slotDir(outDir, slot)}-${process.pid}`;
      rmSync(staging, { recursive: true, force: true });
      mkdirSync(staging, { recursive: true });
      writeFiles(staging, files);
      void discard(slotDir(outDir, slot), outDir);
      renameSync(staging, slotDir(outDir, slot));
      if (slot === live) pointAt(outDir, live);
    }
    const session = new BuildSession(options, state, memo, live, new Map(files.map((f) => [f.path, f.body])));
    // A rebuild with nothing changed warms up the code of rebuilds (memo hits, diffing), so that
    // the first edit is as fast as the ones after it.
    await session.rebuild([]);
    return session;
  }

  /** The generation that is live. */
  get liveSlot(): Slot {
    return this.live;
  }

  /** Rebuilds after the content files at these paths (relative to the content dir) changed. */
  async rebuild(changedPaths: Iterable<string>): Promise<RebuildReport> {
    const t0 = performance.now();
    const caughtUp = this.finishCatchUp();
    this.state = await updateContent(this.state, changedPaths, this.options);
    const t1 = performance.now();
    const v = validate(this.state);
    const t2 = performance.now();
    if (!v.ok) {
      const timings = { load: t1 - t0, validate: t2 - t1, render: 0, write: 0, total: t2 - t0 };
      return { ok: false, problems: v.problems, files: this.trees[this.live].size, changed: [], caughtUp, timings };
    }
    const files = renderSite(v.model, this.memo);
    this.memo.sweep();
    const t3 = performance.now();
    const target = otherSlot(this.live);
    // The inactive tree equals the live one (the catch-up saw to it): what differs from it is
    // exactly what differs from the live site.
    const changed = applyFiles(slotDir(this.options.outDir, target), this.trees[target], ofOutput(files));
    if (changed.length > 0) {
      pointAt(this.options.outDir, target);
      this.live = target;
      this.scheduleCatchUp();
    }
    const t4 = performance.now();
    return {
      ok: true, problems: [], files: files.length, changed, caughtUp,
      timings: { load: t1 - t0, validate: t2 - t1, render: t3 - t2, write: t4 - t3, total: t4 - t0 },
    };
  }

  /** Brings the other tree up to date now instead of after the grace period. */
  settle(): number {
    return this.finishCatchUp();
  }

  /** Stops the pending catch-up timer (the trees stay as they are). */
  close(): void {
    if (this.catchUp !== null) clearTimeout(this.catchUp);
    this.catchUp = null;
  }

  private scheduleCatchUp(): void {
    if (this.catchUp !== null) clearTimeout(this.catchUp);
    this.catchUp = setTimeout(() => this.finishCatchUp(), GRACE_MS);
    this.catchUp.unref();
  }

  /** Brings the inactive tree up to the live one; returns the number of files it rewrote. */
  private finishCatchUp(): number {
    if (this.catchUp === null) return 0;
    clearTimeout(this.catchUp);
    this.catchUp = null;
    const stale = otherSlot(this.live);
    return applyFiles(slotDir(this.options.outDir, stale), this.trees[stale], ofTree(this.trees[this.live])).length;
  }
}
