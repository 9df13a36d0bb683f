// Puts a rendered site on disk atomically. Everything is written into a staging directory beside
// the output, which then replaces the output:
// - a plain output directory (the default) is replaced with two renames: the old tree is moved
//   aside, the new one moved in. A failure before the swap leaves the previous output exactly as
//   it was; between the two renames (microseconds) the output path does not exist.
// - an output that is a symlink to a generation (what the watch mode makes, see generations.ts)
//   is replaced with one rename of a new symlink over the old one: every reader resolves the path
//   either to the whole old tree or to the whole new one.
// The old tree is then removed in the background (see trash.ts), so that the build does not wait
// for thousands of deletions.

import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { activeSlot, otherSlot, pointAt, slotDir } from './generations.ts';
import type { OutputFile } from '../render/render-site.ts';
import { discard, sweepTrash } from './trash.ts';

export interface WriteStats {
  files: number;
  bytes: number;
}

/**
 * Writes files under `dir` (which must exist). Synchronous on purpose: on Linux, creating many
 * small files from one thread was faster than from libuv's pool (whose threads contend for the
 * same directories) in every measurement on the benchmark machine; see docs/performance.md.
 */
export function writeFiles(dir: string, files: Iterable<OutputFile>): WriteStats {
  const made = new Set<string>(['.']);
  let count = 0;
  let bytes = 0;
  for (const f of files) {
    const parent = dirname(f.path);
    if (!made.has(parent)) {
      mkdirSync(join(dir, parent), { recursive: true });
      made.add(parent);
    }
    const data = Buffer.from(f.body, 'utf8');
    writeFileSync(join(dir, f.path), data);
    count++;
    bytes += data.length;
  }
  return { files: count, bytes };
}

export function stagingDir(outDir: string, role: 'next' | 'prev'): string {
  return join(dirname(outDir), `.${basename(outDir)}-${role}-${process.pid}`);
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Writes `files` as the new content of `outDir`; the previous tree is removed in the background
 * (`removed` settles when that is done, for callers that need to know).
 */
export function writeSiteAtomically(outDir: string, files: Iterable<OutputFile>): WriteStats & { removed: Promise<void> } {
  sweepTrash(outDir);
  const next = stagingDir(outDir, 'next');
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  let stats: WriteStats;
  try {
    stats = writeFiles(next, files);
  } catch (err) {
    rmSync(next, { recursive: true, force: true });
    throw err;
  }
  if (isSymlink(outDir)) {
    // Generations: the new tree becomes the inactive slot, then the symlink is swapped.
    const slot = otherSlot(activeSlot(outDir));
    const removed = discard(slotDir(outDir, slot), outDir);
    renameSync(next, slotDir(outDir, slot));
    pointAt(outDir, slot);
    return { ...stats, removed };
  }
  const prev = stagingDir(outDir, 'prev');
  rmSync(prev, { recursive: true, force: true });
  let hadOld = true;
  try {
    renameSync(outDir, prev);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    hadOld = false;
  }
  try {
    renameSync(next, outDir);
  } catch (err) {
    if (hadOld) renameSync(prev, outDir);
    throw err;
  }
  return { ...stats, removed: hadOld ? discard(prev, outDir) : Promise.resolve() };
}
