// Parses many content files on every core: the main thread and N worker threads claim chunks of
// the same job list from one shared counter, so that each does as much as it can (a worker that
// is still starting simply claims less). YAML parsing is the main cost of a cold build, and it is
// all per file, so it splits cleanly.
//
// Results come back in job order whatever thread parsed them, so problems and duplicates are
// reported exactly as a single-threaded parse reports them. A worker that fails or never starts
// costs nothing but time: the main thread parses whatever it did not deliver.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type FileJob, type ParsedFile, parseContentFile } from './parse-file.ts';

/** Files claimed at a time: small enough to balance the threads, large enough to be cheap. */
export const CHUNK = 32;
/**
 * Content files per worker that 'auto' starts. A worker costs ≈0.2–0.3 s of CPU to start (Node,
 * tsx's hooks, the yaml package) and the benchmark machine's two cores are hyperthreads that run
 * two busy threads ≈1.4 times as fast as one, not twice: there, one worker lost time on the whole
 * diary (13,400 files, ≈1 s of parsing) and saved ≈0.7 s at 4x (43,400 files). See
 * docs/performance.md.
 */
export const FILES_PER_WORKER = 20_000;

/** A worker's state in the shared state array. */
export const IDLE = 0;
export const WORKING = 1;
export const RELEASED = 2;

export interface RunMessage {
  type: 'run';
  contentDir: string;
  jobs: FileJob[];
  defaultModified: string;
  /** Int32Array[1]: index of the next unclaimed job. */
  counter: SharedArrayBuffer;
  /** Int32Array[workers]: IDLE, WORKING or RELEASED per worker. */
  states: SharedArrayBuffer;
  slot: number;
}

export type WorkerReply =
  | { type: 'done'; chunks: Array<{ from: number; files: ParsedFile[] }> }
  | { type: 'released' };

export interface ParsePool {
  readonly workers: number;
  /**
   * Parses every job; the result at index i is the parse of jobs[i]. With `mainThread: false`
   * the calling thread leaves the work to the workers (tests use it to exercise them) and only
   * parses what they did not deliver.
   */
  run(contentDir: string, jobs: readonly FileJob[], defaultModified: string, options?: { mainThread?: boolean }): Promise<ParsedFile[]>;
  close(): Promise<void>;
}

/** The workers 'auto' starts for this many files: none for small content, never more than the cores less one. */
export function autoWorkers(files: number): number {
  return Math.max(0, Math.min(availableParallelism() - 1, Math.floor(files / FILES_PER_WORKER)));
}

/** Starts `workers` parse workers. With 0 workers, everything is parsed on the calling thread. */
export function startParsePool(workers: number): ParsePool {
  const threads: Worker[] = [];
  for (let i = 0; i < workers; i++) {
    // Worker threads do not inherit tsx's module hooks under Node 20; the .mjs registers them.
    const w = new Worker(new URL('./parse-worker.mjs', import.meta.url));
    // A failure is handled by the run that waits on it; an idle worker must not keep Node alive.
    w.on('error', () => {});
    w.unref();
    threads.push(w);
  }
  return {
    workers,
    run: (contentDir, jobs, defaultModified, options) => runJobs(threads, contentDir, jobs, defaultModified, options?.mainThread ?? true),
    close: async () => {
      await Promise.all(threads.map((w) => w.terminate()));
    },
  };
}

async function runJobs(
  threads: readonly Worker[],
  contentDir: string,
  jobs: readonly FileJob[],
  defaultModified: string,
  mainThread: boolean,
): Promise<ParsedFile[]> {
  const results = new Array<ParsedFile | undefined>(jobs.length);
  const counterBuffer = new SharedArrayBuffer(4);
  const counter = new Int32Array(counterBuffer);
  const statesBuffer = new SharedArrayBuffer(4 * Math.max(1, threads.length));
  const states = new Int32Array(statesBuffer);
  const replies = threads.map((w, slot) => {
    w.ref();
    const reply = awaitReply(w);
    const message: RunMessage = { type: 'run', contentDir, jobs: [...jobs], defaultModified, counter: counterBuffer, states: statesBuffer, slot };
    w.postMessage(message);
    return reply;
  });

  // The main thread works too, from the same counter.
  for (let from = mainThread ? Atomics.add(counter, 0, CHUNK) : jobs.length; from < jobs.length; from = Atomics.add(counter, 0, CHUNK)) {
    const to = Math.min(jobs.length, from + CHUNK);
    for (let i = from; i < to; i++) results[i] = parseContentFile(contentDir, jobs[i] as FileJob, defaultModified);
  }
  // A worker that has not started claiming by now never will: release it rather than wait for it.
  const waited = mainThread ? replies.filter((_, slot) => Atomics.compareExchange(states, slot, IDLE, RELEASED) !== IDLE) : replies;
  const settled = await Promise.all(waited);
  for (const w of threads) w.unref();
  for (const reply of settled) {
    if (reply?.type !== 'done') continue;
    for (const { from, files } of reply.chunks) {
      files.forEach((f, k) => {
        results[from + k] = f;
      });
    }
  }
  // Whatever a failed worker had claimed is parsed here; its errors, if any, surface here too.
  for (let i = 0; i < jobs.length; i++) results[i] ??= parseContentFile(contentDir, jobs[i] as FileJob, defaultModified);
  return results as ParsedFile[];
}

/** The worker's next reply, or null if it fails or exits first. */
function awaitReply(w: Worker): Promise<WorkerReply | null> {
  return new Promise((resolve) => {
    const done = (value: WorkerReply | null) => {
      w.off('message', onMessage);
      w.off('error', onFailure);
      w.off('exit', onFailure);
      resolve(value);
    };
    const onMessage = (m: WorkerReply) => done(m);
    const onFailure = () => done(null);
    w.on('message', onMessage);
    w.on('error', onFailure);
    w.on('exit', onFailure);
  });
}
