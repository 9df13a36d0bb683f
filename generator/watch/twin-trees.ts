// The watch mode's two generations of the output (output/generations.ts), each known in memory
// (path → body), so that "changed" is decided without reading the disk. A rebuild writes what
// differs into the inactive tree, which then goes live with one rename; the tree that was live is
// brought up to date too, but only after a grace period (readers that resolved it just before the
// swap finish undisturbed) or at the start of the next rebuild, whichever comes first. The
// in-memory trees are updated file by file, only after each file was written, so that after a
// fault the next rebuild starts from what is really on disk.

import { rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { SITE_INDEX_FILE } from '../core/files.ts';
import type { OutputFile } from '../output/file.ts';
import { otherSlot, pointAt, type Slot, slotDir } from '../output/generations.ts';
import { replaceFile } from '../output/replace-file.ts';
import { sameBody } from '../render/render-site.ts';
import { describeFault } from './describe-fault.ts';

/** How long a tree that just went out of service is left alone before it is updated in place. */
const GRACE_MS = 1000;

export type Tree = Map<string, OutputFile['body']>;

/** Calls `visit` with the path and body of every file of a site, each path once. */
type Files = (visit: (path: string, body: OutputFile['body']) => void) => void;

export const ofOutput =
  (files: readonly OutputFile[]): Files =>
  (visit) => {
    for (const f of files) visit(f.path, f.body);
  };
const ofTree =
  (tree: Tree): Files =>
  (visit) => {
    for (const [path, body] of tree) visit(path, body);
  };

/** Writes those of `files` whose bytes differ from `tree`'s into `dir`; returns their paths. */
export function applySome(dir: string, tree: Tree, files: readonly OutputFile[]): string[] {
  const changed: string[] = [];
  for (const { path, body } of files) {
    if (sameBody(tree.get(path), body)) continue;
    replaceFile(dir, path, body);
    tree.set(path, body);
    changed.push(path);
  }
  return changed;
}

/**
 * Makes the tree in `dir`, whose content `tree` describes, hold `files`, and updates `tree` to
 * match, in place: a long session does not churn a new map of every path per rebuild. Returns
 * the paths that differed.
 */
export function applyFiles(dir: string, tree: Tree, files: Files): string[] {
  const changed: string[] = [];
  let count = 0;
  files((path, body) => {
    count++;
    if (!sameBody(tree.get(path), body)) {
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

/** Both generations of an output, the live one and the other, with what each holds. */
export class TwinTrees {
  private live: Slot;
  private readonly trees: Record<Slot, Tree>;
  private catchUp: NodeJS.Timeout | null = null;
  /** The tree that is not live lacks the changes of the last swap (the catch-up is pending). */
  private behind = false;
  /** The tree that is not live was partly written by a rebuild that failed: swap it even if the next rebuild writes nothing. */
  private diverged = false;
  /** The last time (s) given to a site index at a swap: strictly increasing. */
  private lastStamp = 0;
  private readonly outDir: string;
  private readonly warn: (line: string) => void;

  /** Both trees in `outDir` hold `tree`, and `live` is live. */
  constructor(outDir: string, live: Slot, tree: Tree, warn: (line: string) => void) {
    this.outDir = outDir;
    this.warn = warn;
    this.live = live;
    this.trees = { a: tree, b: new Map(tree) } as Record<Slot, Tree>;
  }

  /** The generation that is live. */
  get liveSlot(): Slot {
    return this.live;
  }

  /** What the live tree holds. */
  get liveTree(): Tree {
    return this.trees[this.live];
  }

  /** Stops the pending catch-up (the trees stay as they are). */
  close(): void {
    if (this.catchUp !== null) clearTimeout(this.catchUp);
    this.catchUp = null;
  }

  /**
   * Brings the inactive tree up to the new site with `apply` (given its directory and what it
   * holds; it returns the paths it changed), and makes that tree live if anything changed, or if
   * an earlier attempt may have left it different from the live one. Returns the changed paths.
   * The inactive tree equals the live one (the catch-up saw to it): what differs from it is
   * exactly what differs from the live site.
   */
  goLive(apply: (dir: string, tree: Tree) => string[]): string[] {
    const target = otherSlot(this.live);
    const targetDir = slotDir(this.outDir, target);
    const diverged = this.diverged;
    this.diverged = true;
    const changed = apply(targetDir, this.trees[target]);
    if (changed.length > 0 || diverged) {
      if (!changed.includes(SITE_INDEX_FILE)) this.restamp(targetDir);
      pointAt(this.outDir, target);
      this.live = target;
      this.behind = true;
      this.scheduleCatchUp();
    }
    this.diverged = false;
    return changed;
  }

  /**
   * Gives the site index of the tree about to go live a new modification time when its bytes did
   * not change: the local server keys what it has loaded of a generation on the index's identity,
   * and a tree that goes live again after being brought up to date in place must not look like
   * the one it loaded before.
   */
  private restamp(dir: string): void {
    const stamp = Math.max(Date.now() / 1000, this.lastStamp + 0.001);
    this.lastStamp = stamp;
    try {
      utimesSync(join(dir, SITE_INDEX_FILE), stamp, stamp);
    } catch {
      // No index there: nothing to mistake for an earlier one.
    }
  }

  private scheduleCatchUp(): void {
    if (this.catchUp !== null) clearTimeout(this.catchUp);
    this.catchUp = setTimeout(() => {
      try {
        this.finishCatchUp();
      } catch (err) {
        // Retried at the start of the next rebuild.
        this.warn(`bringing ${slotDir(this.outDir, otherSlot(this.live))} up to date failed: ${describeFault(err)}`);
      }
    }, GRACE_MS);
    this.catchUp.unref();
  }

  /** Brings the inactive tree up to the live one; returns the number of files it rewrote. */
  finishCatchUp(): number {
    if (this.catchUp !== null) clearTimeout(this.catchUp);
    this.catchUp = null;
    if (!this.behind) return 0;
    const stale = otherSlot(this.live);
    const n = applyFiles(slotDir(this.outDir, stale), this.trees[stale], ofTree(this.trees[this.live])).length;
    this.behind = false;
    return n;
  }
}
