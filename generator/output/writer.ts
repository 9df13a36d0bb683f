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
//
// A build writes through beginSite: the staging tree is made before the content is read, and its
// files are created by a thread of their own (thread-tree.ts) while the main thread goes on
// parsing and rendering; the output is checked again just before it is replaced.

import { lstatSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { generatorFingerprint, type Sources } from '../content/fingerprint.ts';
import type { OutputFile, RecordBytes } from './file.ts';
import { activeSlot, otherSlot, pointAt, slotDir } from './generations.ts';
import { checkContentDir, checkOutDir, MARKER_FILE, MARKER_TEXT, orRefuse, RefusedError } from './guard.ts';
import { changesBetween, writeManifest } from './manifest.ts';
import { liveManifest } from './rebuild.ts';
import { beginTree, bufferOf, type ThreadTree, type WriteStats, writeOne } from './thread-tree.ts';
import { discard, sweepLeftovers } from './trash.ts';

/**
 * Writes files under `dir` (which must exist), the marker first. Synchronous on purpose: on
 * Linux, creating many small files from one thread was faster than from libuv's pool (whose
 * threads contend for the same directories) in every measurement on the benchmark machine; see
 * docs/performance.md.
 */
function writeFiles(dir: string, files: Iterable<OutputFile>): WriteStats {
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
    const data = bufferOf(f.body);
    writeOne(join(dir, f.path), data);
    count++;
    bytes += data.length;
  }
  return { files: count, bytes };
}

function stagingDir(outDir: string, role: 'next' | 'prev'): string {
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
export function writeSiteAtomically(
  outDir: string,
  files: Iterable<OutputFile>,
): WriteStats & { removed: Promise<void> } {
  orRefuse(checkOutDir(outDir, undefined, outDir));
  sweepLeftovers(outDir);
  const next = makeStaging(outDir);
  let stats: WriteStats;
  try {
    stats = writeFiles(next, files);
  } catch (err) {
    rmSync(next, { recursive: true, force: true });
    throw err;
  }
  return { ...stats, removed: swapIn(outDir, next) };
}

/** A fresh, empty staging directory beside the output. */
function makeStaging(outDir: string): string {
  const next = stagingDir(outDir, 'next');
  rmSync(next, { recursive: true, force: true });
  try {
    // Not `recursive` for the staging directory itself: Node then reports EROFS as ENOENT.
    mkdirSync(dirname(next), { recursive: true });
    mkdirSync(next);
  } catch (err) {
    rmSync(next, { recursive: true, force: true });
    throw err;
  }
  return next;
}

/**
 * Makes the complete tree `next` the output; returns when the old tree's removal (in the
 * background) settles. On a failure `next` is removed and the previous output is left as it was.
 */
function swapIn(outDir: string, next: string): Promise<void> {
  if (isSymlink(outDir)) {
    // Generations: the new tree becomes the inactive slot, then the symlink is swapped.
    try {
      const slot = otherSlot(activeSlot(outDir));
      const removed = discard(slotDir(outDir, slot), outDir);
      renameSync(next, slotDir(outDir, slot));
      pointAt(outDir, slot);
      return removed;
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
  return removed;
}

/** A site being written into its staging tree by a thread of its own, not yet the output. */
export interface StagedSite {
  /**
   * Queues a file (a path relative to the tree); waits while the thread is far behind. `sha256`:
   * the body's hash (hex), when the caller has it.
   */
  add(path: string, body: OutputFile['body'], sha256?: string): void;
  /**
   * Waits for every file, checks the output again and swaps the tree in (see writeSiteAtomically);
   * its manifest records `inputs`, the fingerprint of what the tree was made of (null: unknown),
   * `sources`, the same file by file, and `basis`, the build's basis (render/basis.ts).
   */
  commit(
    inputs?: string | null,
    sources?: Sources | null,
    basis?: RecordBytes | null,
  ): Promise<WriteStats & { removed: Promise<void> }>;
  /** Stops writing and removes the staging tree: the output is left as it was. */
  abandon(): Promise<void>;
}

/**
 * Starts writing a new tree for `outDir` (refused, writing nothing, when `outDir` is not the
 * writer's to replace). The caller adds every file, then commits, or abandons on a failure.
 */
export function beginSite(outDir: string): StagedSite {
  orRefuse(checkOutDir(outDir, undefined, outDir));
  sweepLeftovers(outDir);
  const next = makeStaging(outDir);
  let tree: ThreadTree;
  try {
    tree = beginTree(next);
  } catch (err) {
    rmSync(next, { recursive: true, force: true });
    throw err;
  }
  const site: StagedSite = {
    add: (path, body, sha256) => tree.add(path, body, sha256),
    async commit(inputs = null, sources = null, basis = null) {
      let stats: WriteStats;
      try {
        const done = await tree.end();
        stats = done.stats;
        // What differs from the live tree, when its manifest holds (what a mirror fetches).
        const live = liveManifest(outDir);
        writeManifest(
          next,
          {
            inputs,
            generator: generatorFingerprint(),
            files: done.files,
            changes: live === null ? null : changesBetween(live.files, done.files),
          },
          sources,
          basis,
        );
      } catch (err) {
        rmSync(next, { recursive: true, force: true });
        throw err;
      }
      // The output may have changed while the site was built: it must still be the writer's own.
      try {
        orRefuse(checkOutDir(outDir, undefined, outDir));
      } catch (err) {
        rmSync(next, { recursive: true, force: true });
        throw err;
      }
      return { ...stats, removed: swapIn(outDir, next) };
    },
    async abandon() {
      await tree.abandon();
      rmSync(next, { recursive: true, force: true });
    },
  };
  site.add(MARKER_FILE, MARKER_TEXT);
  return site;
}
