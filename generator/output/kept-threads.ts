// Worker threads kept between jobs, so that a process that builds many times (the tests, the
// watch mode's downloads after each edit) starts a thread once, not once a build: starting one
// costs about 80 ms of CPU (Node's bootstrap of an isolate, its modules), the database's thread
// about 170 ms more (sql.js's WebAssembly) — a third of a small build's CPU (docs/performance.md).
//
// A thread is lent for one job (`take`); the job ends it cleanly (`give`: the thread waits for the
// next job; a job its thread can drop, the database's, gives it when stopped) or not (`drop`: a
// failure, a stop; the thread is terminated, never reused, since what it was doing is unknown).
// At most one thread waits idle; it is unref'd, so that it never keeps a process alive (a one-shot
// build exits at once), and terminated after a while, unless a session that will need it again
// holds it (`hold`).

import { setTimeout as later } from 'node:timers';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** A listener of a worker's events (Node's own type: its messages are whatever was sent). */
type Listener = Parameters<Worker['on']>[1];

/** A thread lent for one job. */
export interface LentThread {
  readonly worker: Worker;
  /** Listens to the thread for this job only: the listener is removed when the job ends. */
  on(event: 'message' | 'error' | 'exit', listener: Listener): void;
  /** The job ended cleanly and the thread waits for the next: kept for it. Once; then a no-op. */
  give(): void;
  /**
   * The job failed or was stopped: the thread is terminated (the job's listeners still see it
   * exit, so that nothing waits for it). A no-op after `give`.
   */
  drop(): Promise<void>;
}

/** Threads of one script, kept between jobs. */
export interface KeptThreads {
  /** The idle thread, if any (referenced again), else a new one. */
  take(): LentThread;
  /**
   * Keeps the idle thread for as long as the hold lasts, not only for the idle time: a session
   * that will need it again (the watch mode, between edits: a thread that made a database before
   * makes the next in about half the time). Returns the release.
   */
  hold(): () => void;
  /** Whether a hold lasts: the thread given back will be wanted again. */
  readonly held: boolean;
  /** Threads started so far (the tests see whether a job had one kept for it). */
  readonly started: number;
}

/**
 * Set by a process that builds once (endIdleThreadsAtOnce). A mark on the process, not a variable
 * of this module: `npm run build` loads the build apart (cli/import-apart.ts), in a bundle with
 * its own copy of this module.
 */
const ONE_SHOT = Symbol.for('pepys.one-shot-threads');
const marks = globalThis as { [ONE_SHOT]?: true };

/**
 * For a process that builds once (`npm run build` without --watch): a thread given back ends at
 * once, not after its idle time, unless a hold lasts. The database's thread holds sql.js's
 * WebAssembly memory (about 100 MB for the whole diary, never shrunk), and the build's peak came
 * after the database was made, with that memory still held: five builds of the whole diary each
 * way, 309-319 MiB against 318-358 MiB (docs/performance.md, "Memory"). Returns the undoing (the
 * tests).
 */
export function endIdleThreadsAtOnce(): () => void {
  marks[ONE_SHOT] = true;
  return () => {
    delete marks[ONE_SHOT];
  };
}

/** Threads running `script`, one kept idle for `idleMs` at most (or while held). */
export function keptThreads(script: URL, idleMs: number, options?: WorkerOptions): KeptThreads {
  let idle: { worker: Worker; forget: () => void; arm: () => void; disarm: () => void } | undefined;
  let started = 0;
  let holders = 0;

  const keep = (worker: Worker): void => {
    if (idle !== undefined || (marks[ONE_SHOT] === true && holders === 0)) {
      void worker.terminate();
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const disarm = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    };
    const gone = (): void => {
      if (idle?.worker === worker) idle = undefined;
      disarm();
      worker.off('exit', gone);
      worker.off('error', gone);
    };
    const arm = (): void => {
      disarm();
      timer = later(() => {
        gone();
        void worker.terminate();
      }, idleMs);
      timer.unref();
    };
    if (holders === 0) arm();
    // A thread that dies while idle (it should not) is forgotten, its error not thrown here.
    worker.once('exit', gone);
    worker.on('error', gone);
    worker.unref();
    idle = { worker, forget: gone, arm, disarm };
  };

  const lend = (worker: Worker): LentThread => {
    const listeners: [string, Listener][] = [];
    let over = false;
    const end = (): void => {
      over = true;
      for (const [event, listener] of listeners) worker.off(event, listener);
    };
    return {
      worker,
      on(event, listener) {
        listeners.push([event, listener]);
        worker.on(event, listener);
      },
      give() {
        if (over) return;
        end();
        keep(worker);
      },
      async drop() {
        if (over) return;
        over = true;
        await worker.terminate();
      },
    };
  };

  return {
    take() {
      const waiting = idle;
      if (waiting === undefined) {
        started++;
        return lend(new Worker(script, options));
      }
      waiting.forget();
      waiting.worker.ref();
      return lend(waiting.worker);
    },
    hold() {
      holders++;
      idle?.disarm();
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        holders--;
        if (holders === 0) idle?.arm();
      };
    },
    get held() {
      return holders > 0;
    },
    get started() {
      return started;
    },
  };
}
