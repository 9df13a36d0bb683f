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
// files are created by a thread of their own (write-worker.mjs) while the main thread goes on
// parsing and rendering; the output is checked again just before it is replaced.

import { lstatSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { generatorFingerprint, type Sources } from '../content/fingerprint.ts';
import type { OutputFile, RecordBytes } from './file.ts';
import { activeSlot, otherSlot, pointAt, slotDir } from './generations.ts';
import { checkContentDir, checkOutDir, MARKER_FILE, MARKER_TEXT, orRefuse, RefusedError } from './guard.ts';
import { keptThreads, type LentThread } from './kept-threads.ts';
import { changesBetween, type FileFacts, factsOf, hashBytes, writeManifest } from './manifest.ts';
import { liveManifest } from './rebuild.ts';
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

function bufferOf(body: OutputFile['body']): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.length);
}

function writeOne(path: string, data: Buffer): void {
  try {
    writeFileSync(path, data);
  } catch (err) {
    throw withPath(err, path);
  }
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

/**
 * Bytes of the ring through which files go to the writer thread (write-worker.mjs): what the main
 * thread may be ahead of it by. A power of two, so that positions wrap with the 32-bit counters.
 */
const RING_BYTES = 8 * 1024 * 1024;
const PRODUCED = 0;
const CONSUMED = 1;
/** Set by the writer thread while it waits for a record: only then is it woken. */
const SLEEPING = 2;
const WRAP = -1;
const END = -2;
/** A thread that takes nothing from a full ring for this long has stopped. */
const STALL_MS = 60_000;
/** Records are made visible to the thread this many bytes at a time: each publication may wake it. */
const PUBLISH_BYTES = 64 * 1024;

/**
 * How long the writer thread is kept idle after a build, for the next build of the same process
 * (the tests, the watch mode): a few seconds; it holds little (each job's ring is its own).
 */
const IDLE_MS = 5_000;

const writeThreads = keptThreads(new URL('./write-worker.mjs', import.meta.url), IDLE_MS);

/** Writer threads started by this process so far (the tests see that a build reused one). */
export const writeThreadsStarted = (): number => writeThreads.started;

type WorkerFailure = { code?: string; syscall?: string; message: string; path: string };
type WorkerRow = [path: string, hash: string, size: number, ino: number, mtimeMs: number];

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
  const ring = new SharedArrayBuffer(RING_BYTES);
  const control = new Int32Array(new SharedArrayBuffer(12));
  const bytes8 = new Uint8Array(ring);
  const words = new Int32Array(ring);
  const encoder = new TextEncoder();
  let thread: LentThread;
  try {
    // A thread kept from an earlier build, or a new one (kept-threads.ts); this build is its job.
    thread = writeThreads.take();
    thread.worker.postMessage({ dir: next, ring, control: control.buffer });
  } catch (err) {
    rmSync(next, { recursive: true, force: true });
    throw err;
  }
  // The reply to END, or why there is none: the thread failed or exited first.
  const reply = new Promise<{ files: number; bytes: number; rows: WorkerRow[]; error: WorkerFailure | null }>(
    (resolve, reject) => {
      thread.on('message', resolve);
      thread.on('error', reject);
      thread.on('exit', (code: number) => reject(new Error(`the thread writing ${next} stopped (exit code ${code})`)));
    },
  );
  // Not a failure of its own until someone waits for it (commit); abandon ignores it.
  reply.catch(() => {});
  // Files too large for the ring are written here, in this thread (none of the diary's are).
  const local: WriteStats = { files: 0, bytes: 0 };
  const localFacts = new Map<string, FileFacts>();
  /** Bytes written into the ring (mod 2^32), and of them those the thread may see (PRODUCED). */
  let written = 0;
  let published = 0;
  let open = true;

  /** Lets the thread see every record written so far, waking it if it waits for one. */
  const publish = (): void => {
    if (published === written) return;
    published = written;
    Atomics.store(control, PRODUCED, published);
    if (Atomics.load(control, SLEEPING) === 1) Atomics.notify(control, PRODUCED);
  };
  /** Waits until `size` bytes of the ring are free. */
  const room = (size: number): void => {
    let waited = 0;
    for (;;) {
      const consumed = Atomics.load(control, CONSUMED);
      if (RING_BYTES - ((written - consumed) >>> 0) >= size) return;
      // The thread can only free what it sees.
      publish();
      if (Atomics.wait(control, CONSUMED, consumed, 1000) === 'timed-out') waited += 1000;
      if (waited >= STALL_MS) {
        open = false;
        throw new Error(`the thread writing ${next} stopped taking files`);
      }
      if (Atomics.load(control, CONSUMED) !== consumed) waited = 0;
    }
  };
  const advance = (size: number): void => {
    written = (written + size) | 0;
    if ((written - published) >>> 0 >= PUBLISH_BYTES) publish();
  };
  /** A record of `size` bytes at most goes here: wraps to the start when the end is too near. */
  const place = (size: number): number => {
    const at = (written >>> 0) % RING_BYTES;
    if (RING_BYTES - at >= size) {
      room(size);
      return at;
    }
    room(RING_BYTES - at + size);
    words[at >> 2] = WRAP;
    advance(RING_BYTES - at);
    return 0;
  };

  const site: StagedSite = {
    add(path, body, sha256) {
      if (!open) throw new Error(`${next} is no longer being written`);
      // UTF-8 needs at most 3 bytes for each UTF-16 unit. A few large files (the database) are
      // written here.
      const most = (8 + 3 * path.length + (typeof body === 'string' ? 3 : 1) * body.length + 3) & ~3;
      if (most > RING_BYTES / 2) {
        const data = bufferOf(body);
        mkdirSync(join(next, dirname(path)), { recursive: true });
        writeOne(join(next, path), data);
        localFacts.set(path, factsOf(sha256 ?? hashBytes(data), statSync(join(next, path))));
        local.files++;
        local.bytes += data.length;
        return;
      }
      const at = place(most);
      const p = encoder.encodeInto(path, bytes8.subarray(at + 8)).written;
      let b = body.length;
      if (typeof body === 'string') b = encoder.encodeInto(body, bytes8.subarray(at + 8 + p)).written;
      else bytes8.set(body, at + 8 + p);
      words[at >> 2] = p;
      words[(at >> 2) + 1] = b;
      advance((8 + p + b + 3) & ~3);
    },
    async commit(inputs = null, sources = null, basis = null) {
      let stats: WriteStats;
      try {
        if (!open) throw new Error(`${next} is no longer being written`);
        open = false;
        words[place(4) >> 2] = END;
        advance(4);
        publish();
        const r = await reply;
        if (r.error !== null) throw workerError(r.error);
        // Its job done cleanly, the thread waits for the next build's; one that failed is dropped.
        thread.give();
        stats = { files: r.files + local.files, bytes: r.bytes + local.bytes };
        const files = new Map<string, FileFacts>();
        for (const [path, hash, size, ino, mtimeMs] of r.rows) files.set(path, { hash, size, ino, mtimeMs });
        for (const [path, f] of localFacts) files.set(path, f);
        // What differs from the live tree, when its manifest holds (what a mirror fetches).
        const live = liveManifest(outDir);
        writeManifest(
          next,
          {
            inputs,
            generator: generatorFingerprint(),
            files,
            changes: live === null ? null : changesBetween(live.files, files),
          },
          sources,
          basis,
        );
      } catch (err) {
        await thread.drop();
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
      open = false;
      await thread.drop();
      rmSync(next, { recursive: true, force: true });
    },
  };
  site.add(MARKER_FILE, MARKER_TEXT);
  return site;
}

/** The writer thread's failure as the file system's error it was, named by its file. */
function workerError(f: WorkerFailure): Error {
  const err = new Error(f.message) as NodeJS.ErrnoException;
  if (f.code !== undefined) err.code = f.code;
  if (f.syscall !== undefined) err.syscall = f.syscall;
  err.path = f.path;
  return err;
}
