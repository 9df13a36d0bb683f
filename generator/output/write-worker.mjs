// The thread that creates a build's files (writer.ts, beginSite): the main thread renders and
// this one writes, so that the two overlap. Creating ~14,000 small files is system time that a
// second core spends while the first reads, parses and renders.
//
// Plain JavaScript, so that the thread starts in a few milliseconds under any Node (Node 20 does
// not give worker threads the module hooks that run this project's TypeScript).
//
// A job is a message `{ dir, ring, control }` (a staging tree, and its ring and counters, new for
// each job); the thread answers it when it ends and waits for the next (kept-threads.ts).
// The files come through a ring of shared memory (the job's `ring`), not messages: the main
// thread encodes each path and body straight into it and this thread writes the body from there,
// so no file is copied or converted on the way. Records are 4-byte aligned:
//   Int32 path length, Int32 body length, path bytes (UTF-8), body bytes (a text's UTF-8, or the bytes given)
// or a lone Int32: WRAP (the next record is at the start of the ring) or END (reply and stop).
// `control` holds two byte counters that only grow (mod 2^32): PRODUCED by the main thread,
// CONSUMED by this one; each waits on the other's with Atomics.wait. This thread says when it
// sleeps (SLEEPING), so that the main thread wakes it only then: a wake-up is a system call, and
// there is one record per file. After the first failure
// nothing more is written, but the ring is still drained, so that the main thread never waits
// for a thread that stopped; the failure is the reply (and the thread is not used again).

import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parentPort } from 'node:worker_threads';

const PRODUCED = 0;
const CONSUMED = 1;
const SLEEPING = 2;
const WRAP = -1;
const END = -2;

/**
 * Writes the files of one job until its END; its reply.
 * @param {{ dir: string, ring: SharedArrayBuffer, control: SharedArrayBuffer }} job
 */
function writeAll({ dir, ring, control: controlBuffer }) {
  const control = new Int32Array(controlBuffer);
  const bytes8 = new Uint8Array(ring);
  const words = new Int32Array(ring);
  const capacity = ring.byteLength;

  const made = new Set();
  let files = 0;
  let bytes = 0;
  /**
   * [path, sha256, size, inode, mtimeMs] of every file written.
   * @type {Array<[string, string, number, number, number]>}
   */
  const rows = [];
  /**
   * The first failure: what the main thread rethrows, named by the file it was writing.
   * @type {{ code: unknown, syscall: unknown, message: string, path: unknown } | null}
   */
  let failure = null;

  /** @param {string} path @param {Uint8Array} body */
  function writeOne(path, body) {
    const target = join(dir, path);
    const parent = dirname(target);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    // 'w': create or truncate, as writeFileSync does.
    const fd = openSync(target, 'w');
    try {
      let done = 0;
      while (done < body.length) done += writeSync(fd, body, done, body.length - done);
      // What the tree's manifest records of it (manifest.ts): the hash of its bytes, its facts.
      const s = fstatSync(fd);
      rows.push([path, createHash('sha256').update(body).digest('hex'), s.size, s.ino, s.mtimeMs]);
    } finally {
      closeSync(fd);
    }
    files++;
    bytes += body.length;
  }

  let consumed = Atomics.load(control, CONSUMED);
  for (;;) {
    const produced = Atomics.load(control, PRODUCED);
    if (produced === consumed) {
      // Said before the last look, so that a record published after it is never slept through.
      Atomics.store(control, SLEEPING, 1);
      if (Atomics.load(control, PRODUCED) === produced) Atomics.wait(control, PRODUCED, produced);
      Atomics.store(control, SLEEPING, 0);
      continue;
    }
    const at = (consumed >>> 0) % capacity;
    // A record is two lengths, then its path and body (writer.ts): always there once published.
    const pathLength = /** @type {number} */ (words[at >> 2]);
    if (pathLength === END) break;
    let size;
    if (pathLength === WRAP) size = capacity - at;
    else {
      const bodyLength = /** @type {number} */ (words[(at >> 2) + 1]);
      const path = Buffer.from(ring, at + 8, pathLength).toString('utf8');
      if (failure === null) {
        try {
          writeOne(path, bytes8.subarray(at + 8 + pathLength, at + 8 + pathLength + bodyLength));
        } catch (caught) {
          // Named as Node names it (the directory, when making it failed), else by the file.
          const err = /** @type {NodeJS.ErrnoException | undefined} */ (caught);
          failure = {
            code: err?.code,
            syscall: err?.syscall,
            message: String(err?.message ?? err),
            path: err?.path ?? join(dir, path),
          };
        }
      }
      size = (8 + pathLength + bodyLength + 3) & ~3;
    }
    consumed = (consumed + size) | 0;
    Atomics.store(control, CONSUMED, consumed);
    Atomics.notify(control, CONSUMED);
  }
  return { files, bytes, rows, error: failure };
}

// Jobs, one after another: the thread stays until the main thread stops it, so that its 'exit'
// never overtakes a reply.
const port = parentPort;
if (port === null) throw new Error('write-worker.mjs runs as a worker thread');
port.on('message', (job) => port.postMessage(writeAll(job)));
