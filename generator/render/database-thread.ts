// The thread that makes the downloads' database and gzips their NDJSON (database-worker.mjs),
// and the back-pressure that keeps what waits for it small: the caller sends the SQL steps and the
// NDJSON's bytes a piece at a time and waits while what the thread has yet to do weighs more than a
// limit, so that the rows waiting in its queue are a few pieces, not the whole site's text twice.
// What the steps are is decided in downloads.ts. The thread is kept between jobs (kept-threads.ts).

import { setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { keptThreads } from '../output/kept-threads.ts';
import type { RunHashes } from './run-copies.ts';
import { type DatabaseStep, stepWeight } from './sqlite-steps.mjs';

/**
 * No name, mtime 0: the same records give the same bytes (here and in downloads.ts). Level 6,
 * chosen by measurement (docs/performance.md, "The downloads' cost"): on the whole diary's NDJSON
 * (19.4 MB), level 9 took 556 ms of CPU for 3,614,020 bytes, level 6 366 ms for 3,661,840 (1.3 %
 * more); level 5 273 ms for 2.9 % more, level 1 137 ms for 18.7 % more.
 */
export const GZIP = { level: 6 };

/**
 * What the steps sent to the database's thread and not yet run there may weigh, at most (their
 * text's length, about): enough that it never waits for the next, little enough that the rows
 * waiting in its queue are a few pieces, not the whole site's text twice over.
 */
const WEIGHT_IN_FLIGHT = 2_000_000;

/** About what a step weighs in a message (a run's bounds, or its copy: nothing). */
const weightOf = (step: DatabaseStep): number => ('reusable' in step || 'copy' in step ? 0 : stepWeight(step));

/** What a job of the thread made: the database's bytes and each stream's gzip. */
interface MadeDatabase {
  database: Uint8Array;
  gzipped: Uint8Array[];
}

/** A database and gzip streams made on a thread of its own (database-worker.mjs), given their pieces one by one. */
export interface DatabaseThread {
  /**
   * Sends a step; resolves when what the thread has yet to run weighs at most the thread's limit,
   * with that weight.
   */
  step(step: DatabaseStep): Promise<number>;
  /** Sends bytes to gzip stream `stream` (0 to `streams` - 1); resolves as `step` does. */
  append(stream: number, bytes: Uint8Array): Promise<number>;
  /** No more steps: resolves with the database's bytes and each stream's gzip. */
  end(): Promise<MadeDatabase>;
  stop(): void;
  /**
   * With `keep`, the hashes of the runs of the database this job may copy runs from (`{ copy }`
   * steps, run-copies.ts): the one the thread keeps, as it answers when the job begins
   * (database-worker.mjs); else none.
   */
  readonly copyFrom: Promise<RunHashes | undefined>;
}

/** Bytes of NDJSON that may wait for the gzip of a collection, at most, before more are taken. */
const GZIP_BACKLOG = 4_000_000;

/** Bytes of NDJSON sent to the database's thread a piece (fewer pieces: fewer trips to libuv's pool). */
export const GZIP_PIECE = 1_000_000;

/**
 * How long the database's thread is kept idle after a job: long enough for the next build of a
 * process that builds many times (the tests; the watch mode, an edit after another), short enough
 * that the WebAssembly memory sql.js grew for a big site (it never shrinks: about 100 MB for the
 * whole diary) is not held for long by a process that builds no more.
 */
const IDLE_MS = 5_000;

/**
 * sql.js's WebAssembly runs as V8's baseline compiler (Liftoff) makes it, never tiered up to its
 * optimizing one (TurboFan): compiling SQLite's largest functions again took more memory and CPU
 * than the faster code saved. Measured side by side (docs/performance.md, "The downloads' cost"):
 * the whole diary's build 45-55 MB less peak RSS and no slower, a small site's build as a process
 * 0.63 s of CPU instead of 1.01 s. V8's flags are the process's, not a module's; set here, in the
 * main thread, before a database thread compiles sql.js. The process's other WebAssembly (fetch's
 * HTTP parser) is small.
 */
setFlagsFromString('--liftoff-only');

const threads = keptThreads(new URL('./database-worker.mjs', import.meta.url), IDLE_MS, { workerData: { gzip: GZIP } });

/**
 * Keeps the idle database thread until the release is called (the watch mode, for its session):
 * its next database is made in about half the time of a new thread's first (sql.js's code and
 * memory warm; docs/performance.md).
 */
export const holdDatabaseThread = (): (() => void) => threads.hold();

/** Database threads started by this process so far (the tests see that a job reused one). */
export const databaseThreadsStarted = (): number => threads.started;

/**
 * The room a held thread's spare database is given, against the last job's: an edit that adds a
 * little text still fits it (database-worker.mjs).
 */
const SPARE_ROOM = 1.05;

let sparesTaken = 0;

/** Jobs so far whose database was a spare made ahead (database-worker.mjs; the tests see it). */
export const databaseSparesTaken = (): number => sparesTaken;

let runsCopied: readonly string[] = [];

/** The runs of steps the last job copied from a kept database, by their tables (sqlite-steps.mjs `reuse`; the tests see it). */
export const databaseRunsCopied = (): readonly string[] => runsCopied;

/**
 * How many jobs of `worker` were stopped and have not yet given their last answer (`{ stopped }`):
 * the thread is lent again at once, and the next job ignores the answers that come before (a
 * worker answers in order). Counted by a listener of the thread's own, there while a job is not.
 */
const stoppedJobs = new WeakMap<Worker, { pending: number }>();
function stoppedJobsOf(worker: Worker): { pending: number } {
  let jobs = stoppedJobs.get(worker);
  if (jobs === undefined) {
    const counted = { pending: 0 };
    worker.on('message', (message: unknown) => {
      if (typeof message === 'object' && message !== null && 'stopped' in message) counted.pending--;
    });
    stoppedJobs.set(worker, counted);
    jobs = counted;
  }
  return jobs;
}

/**
 * What a message moves to the thread rather than copies: `bytes`' buffer when they are the whole
 * of it (a view of a shared one, as Node's pool of small buffers, is copied).
 */
const moved = (bytes: Uint8Array | undefined): ArrayBuffer[] =>
  bytes !== undefined && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? [bytes.buffer as ArrayBuffer]
    : [];

/** How a job of the database's thread is made (databaseThread). */
export interface DatabaseJob {
  /** What the steps in flight may weigh (WEIGHT_IN_FLIGHT). */
  limit?: number;
  /** Gzip streams (none). */
  streams?: number;
  /** Bytes of NDJSON that may wait for a stream's gzip. */
  backlog?: number;
  /** The bytes the database's file is given at once (sqlite-steps.mjs roomyDatabase; downloads.ts databaseRoom). */
  room?: number;
  /**
   * The runs of steps are hashed, and the database is kept on the thread once made, for the next
   * job with `keep` to copy from (database-worker.mjs).
   */
  keep?: boolean;
  /** The last build's database, which `{ copy }` steps copy from instead (a rebuild's); moved to the thread. */
  last?: Uint8Array;
}

/** The thread, for a job made as `job` says. */
export function databaseThread({
  limit = WEIGHT_IN_FLIGHT,
  streams = 0,
  backlog = GZIP_BACKLOG,
  room = 0,
  keep = false,
  last,
}: DatabaseJob = {}): DatabaseThread {
  const thread = threads.take();
  const { worker } = thread;
  const answersOfStopped = stoppedJobsOf(worker);
  // Set when the job is stopped: the thread then drops what it has of the job (database-worker.mjs).
  const stopFlag = new Int32Array(new SharedArrayBuffer(4));
  worker.postMessage({ begin: { streams, backlog, room, keep, last, stop: stopFlag.buffer } }, moved(last));
  let from: ((runs: RunHashes | undefined) => void) | undefined;
  // Only a job with `keep` may copy runs (from the database the thread keeps): only it is answered.
  const copyFrom = keep
    ? new Promise<RunHashes | undefined>((resolve) => {
        from = resolve;
      })
    : Promise.resolve(undefined);
  let ended = false;
  let stopping = false;
  // A session holds the thread for its next job: that job's database is made now, ahead.
  const spareAhead = () => {
    if (threads.held && room > 0) worker.postMessage({ spare: Math.ceil(room * SPARE_ROOM) });
  };
  // The weights of the messages sent and not yet done with, in order.
  const inFlight: number[] = [];
  let weight = 0;
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  let fail: ((err: Error) => void) | undefined;
  const made = new Promise<MadeDatabase>((resolve, reject) => {
    fail = (err) => {
      failure ??= err;
      from?.(undefined);
      reject(err);
      wake?.();
    };
    // null: a message was done with (database-worker.mjs); then the files, once, and the thread
    // waits for its next job.
    type Answer =
      | (MadeDatabase & { spared: boolean; copied: string[] })
      | { from: Array<[string, string[] | null]> | null }
      | { stopped: true }
      | null;
    thread.on('message', (message: Answer) => {
      // The answers of a job stopped before this one, up to its last (stoppedJobsOf).
      if (answersOfStopped.pending > 0 || (message !== null && 'stopped' in message)) return;
      if (message !== null && 'from' in message) {
        from?.(message.from === null ? undefined : new Map(message.from));
        return;
      }
      if (message !== null && 'database' in message) {
        ended = true;
        if (message.spared) sparesTaken++;
        runsCopied = message.copied;
        spareAhead();
        thread.give();
        resolve({ database: message.database, gzipped: message.gzipped });
        return;
      }
      weight -= inFlight.shift() ?? 0;
      wake?.();
    });
    thread.on('error', (err: Error) => fail?.(err));
    thread.on('exit', (code: number) =>
      fail?.(new Error(`the thread making the downloads' database stopped (exit code ${code})`)),
    );
  });
  // Awaited by end(); a failure before then is not left unhandled.
  made.catch(() => {});
  const send = async (message: DatabaseStep | { stream: number; bytes: Uint8Array }, messageWeight: number) => {
    if (failure !== undefined) throw failure;
    if ('bytes' in message) {
      const { bytes } = message;
      worker.postMessage(message, moved(bytes));
    } else worker.postMessage(message);
    inFlight.push(messageWeight);
    weight += messageWeight;
    while (weight > limit && failure === undefined)
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    wake = undefined;
    if (failure !== undefined) throw failure;
    return weight;
  };
  return {
    copyFrom,
    step: (step) => send(step, weightOf(step)),
    append: (stream, bytes) => {
      if (!Number.isInteger(stream) || stream < 0 || stream >= streams)
        return Promise.reject(new RangeError(`no gzip stream ${stream} (of ${streams})`));
      return send({ stream, bytes }, bytes.byteLength);
    },
    end: () => {
      worker.postMessage(null);
      return made;
    },
    // After the end's answer the thread is kept for the next job: stopping then does nothing.
    // Before, the thread drops the job and is kept for the next at once, whose messages it takes
    // after the drop (database-worker.mjs); after a failure the thread has ended.
    stop: () => {
      if (ended || stopping) return;
      stopping = true;
      if (failure !== undefined) {
        void thread.drop();
        return;
      }
      Atomics.store(stopFlag, 0, 1);
      worker.postMessage({ stopped: true });
      answersOfStopped.pending++;
      fail?.(new Error("the downloads' database was stopped"));
      spareAhead();
      thread.give();
    },
  };
}
