// A tree of files written by a thread of its own (write-worker.mjs) while the caller goes on: the
// caller puts each file's path and body into a ring of shared memory, the thread creates the file,
// hashes it and notes its facts (manifest.ts FileFacts), given back at the end. The build's
// staging tree is written so (writer.ts beginSite), and the watch mode's first tree
// (watch/first-trees.ts). The tree must be new: the thread writes each file in place, never
// through a rename, so it must not hold a file another tree shares (a hard link).

import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OutputFile } from './file.ts';
import { keptThreads, type LentThread } from './kept-threads.ts';
import { type FileFacts, factsOf, hashBytes } from './manifest.ts';

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

export function bufferOf(body: OutputFile['body']): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.length);
}

export function writeOne(path: string, data: Buffer): void {
  try {
    writeFileSync(path, data);
  } catch (err) {
    throw withPath(err, path);
  }
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

/** A tree being written by the writer's thread. */
export interface ThreadTree {
  /**
   * Queues a file (a path relative to the tree); waits while the thread is far behind. `sha256`:
   * the body's hash (hex), when the caller has it.
   */
  add(path: string, body: OutputFile['body'], sha256?: string): void;
  /** Waits for every file: what the tree holds, file by file, and what was written; or the thread's failure. */
  end(): Promise<{ files: Map<string, FileFacts>; stats: WriteStats }>;
  /** Stops writing (the caller removes the tree). */
  abandon(): Promise<void>;
}

type WorkerFailure = { code?: string; syscall?: string; message: string; path: string };
type WorkerRow = [path: string, hash: string, size: number, ino: number, mtimeMs: number];

/** Starts writing the files of a tree into `dir`, which exists and is new. */
export function beginTree(dir: string): ThreadTree {
  const ring = new SharedArrayBuffer(RING_BYTES);
  const control = new Int32Array(new SharedArrayBuffer(12));
  const bytes8 = new Uint8Array(ring);
  const words = new Int32Array(ring);
  const encoder = new TextEncoder();
  // A thread kept from an earlier build, or a new one (kept-threads.ts); this tree is its job.
  const thread: LentThread = writeThreads.take();
  thread.worker.postMessage({ dir, ring, control: control.buffer });
  // The reply to END, or why there is none: the thread failed or exited first.
  const reply = new Promise<{ files: number; bytes: number; rows: WorkerRow[]; error: WorkerFailure | null }>(
    (resolve, reject) => {
      thread.on('message', resolve);
      thread.on('error', reject);
      thread.on('exit', (code: number) => reject(new Error(`the thread writing ${dir} stopped (exit code ${code})`)));
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
        throw new Error(`the thread writing ${dir} stopped taking files`);
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

  return {
    add(path, body, sha256) {
      if (!open) throw new Error(`${dir} is no longer being written`);
      // UTF-8 needs at most 3 bytes for each UTF-16 unit. A few large files (the database) are
      // written here.
      const most = (8 + 3 * path.length + (typeof body === 'string' ? 3 : 1) * body.length + 3) & ~3;
      if (most > RING_BYTES / 2) {
        const data = bufferOf(body);
        mkdirSync(join(dir, dirname(path)), { recursive: true });
        writeOne(join(dir, path), data);
        localFacts.set(path, factsOf(sha256 ?? hashBytes(data), statSync(join(dir, path))));
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
    async end() {
      try {
        if (!open) throw new Error(`${dir} is no longer being written`);
        open = false;
        words[place(4) >> 2] = END;
        advance(4);
        publish();
        const r = await reply;
        if (r.error !== null) throw workerError(r.error);
        // Its job done cleanly, the thread waits for the next build's; one that failed is dropped.
        thread.give();
        const files = new Map<string, FileFacts>();
        for (const [path, hash, size, ino, mtimeMs] of r.rows) files.set(path, { hash, size, ino, mtimeMs });
        for (const [path, f] of localFacts) files.set(path, f);
        return { files, stats: { files: r.files + local.files, bytes: r.bytes + local.bytes } };
      } catch (err) {
        await thread.drop();
        throw err;
      }
    },
    async abandon() {
      open = false;
      await thread.drop();
    },
  };
}

/** The writer thread's failure as the file system's error it was, named by its file. */
function workerError(f: WorkerFailure): Error {
  const err = new Error(f.message) as NodeJS.ErrnoException;
  if (f.code !== undefined) err.code = f.code;
  if (f.syscall !== undefined) err.syscall = f.syscall;
  err.path = f.path;
  return err;
}
