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
//
// Every tree written here holds a marker file (guard.ts): the writer replaces only an output that
// is missing, empty, or marked as made by it, and refuses anything else before writing a byte.
// A failure (disk full, read-only, permission denied) leaves the previous output in place: the
// error carries the path it happened at, and the staging tree is removed.

import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { activeSlot, otherSlot, pointAt, slotDir } from './generations.ts';
import { checkContentDir, checkOutDir, MARKER_FILE, MARKER_TEXT, orRefuse, RefusedError } from './guard.ts';
import type { OutputFile } from '../render/render-site.ts';
import { discard, sweepLeftovers } from './trash.ts';

export interface WriteStats {
  /** Files written, the marker included. */
  files: number;
  bytes: number;
}

/** Gives an error from a write the path it concerns (a failed write(2) has none of its own). */
function withPath(err: unknown, path: string): unknown {
  const e = err as NodeJS.ErrnoException;
  if (e !== null && typeof e === 'object' && typeof e.code === 'string' && e.path === undefined) e.path = path;
  return err;
}

/**
 * Writes files under `dir` (which must exist), the marker first. Synchronous on purpose: on
 * Linux, creating many small files from one thread was faster than from libuv's pool (whose
 * threads contend for the same directories) in every measurement on the benchmark machine; see
 * docs/performance.md.
 */
export function writeFiles(dir: string, files: Iterable<OutputFile>): WriteStats {
  const made = new Set<string>(['.']);
  let count = 1;
  let bytes = Buffer.byteLength(MARKER_TEXT);
  writeOne(join(dir, MARKER_FILE), Buffer.from(MARKER_TEXT, 'utf8'));
  for (const f of files) {
    const parent = dirname(f.path);
    if (!made.has(parent)) {
      mkdirSync(join(dir, parent), { recursive: true });
      made.add(parent);
    }
    const data = Buffer.from(f.body, 'utf8');
    writeOne(join(dir, f.path), data);
    count++;
    bytes += data.length;
  }
  return { files: count, bytes };
}

function writeOne(path: string, data: Buffer): void {
  try {
    writeFileSync(path, data);
  } catch (err) {
    throw withPath(err, path);
  }
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
 * What a build does before reading any content: refuses a content directory that is missing or
 * empty and an output that is not its own to replace (RefusedError, nothing touched), then sweeps
 * what killed builds left beside the output (trash.ts). The watch mode's callers call it too.
 */
export function prepareOutput(contentDir: string, outDir: string): void {
  orRefuse(checkContentDir(contentDir));
  orRefuse(checkOutDir(outDir, contentDir));
  sweepLeftovers(outDir);
}

/** Codes of a rename that cannot move the output: a mount point (EBUSY) or another device. */
const UNMOVABLE = new Set(['EBUSY', 'EXDEV']);

/**
 * Writes `files` as the new content of `outDir`; the previous tree is removed in the background
 * (`removed` settles when that is done, for callers that need to know). Throws RefusedError,
 * writing nothing, when `outDir` is not the writer's to replace (guard.ts).
 */
export function writeSiteAtomically(outDir: string, files: Iterable<OutputFile>): WriteStats & { removed: Promise<void> } {
  orRefuse(checkOutDir(outDir, undefined, outDir));
  sweepLeftovers(outDir);
  const next = stagingDir(outDir, 'next');
  rmSync(next, { recursive: true, force: true });
  let stats: WriteStats;
  try {
    // Not `recursive` for the staging directory itself: Node then reports EROFS as ENOENT.
    mkdirSync(dirname(next), { recursive: true });
    mkdirSync(next);
    stats = writeFiles(next, files);
  } catch (err) {
    rmSync(next, { recursive: true, force: true });
    throw err;
  }
  if (isSymlink(outDir)) {
    // Generations: the new tree becomes the inactive slot, then the symlink is swapped.
    try {
      const slot = otherSlot(activeSlot(outDir));
      const removed = discard(slotDir(outDir, slot), outDir);
      renameSync(next, slotDir(outDir, slot));
      pointAt(outDir, slot);
      return { ...stats, removed };
    } catch (err) {
      rmSync(next, { recursive: true, force: true });
      throw err;
    }
  }
  const prev = stagingDir(outDir, 'prev');
  rmSync(prev, { recursive: true, force: true });
  let hadOld = true;
  try {
    renameSync(outDir, prev);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') {
      rmSync(next, { recursive: true, force: true });
      if (code !== undefined && UNMOVABLE.has(code)) {
        throw new RefusedError(
          `${outDir} cannot be replaced by a rename (${code}: a mount point?); use a directory inside it, e.g. --out ${join(outDir, 'public')}`,
        );
      }
      throw err;
    }
    hadOld = false;
  }
  // The one moment the output path does not exist: if the process dies right here, the previous
  // tree is whole in `prev` and the next build puts it back (trash.ts).
  try {
    renameSync(next, outDir);
  } catch (err) {
    if (hadOld) renameSync(prev, outDir);
    rmSync(next, { recursive: true, force: true });
    throw err;
  }
  let removed: Promise<void> = Promise.resolve();
  if (hadOld) {
    try {
      removed = discard(prev, outDir);
    } catch {
      // The new output is live; the old tree stays as a leftover that the next build sweeps.
    }
  }
  return { ...stats, removed };
}
