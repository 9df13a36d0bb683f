// The watch mode (`npm run build -- --watch`, `npm start -- --watch`): one full build into the
// generation layout, then a rebuild of what changed after every burst of file-system events in the
// content directory, and a full rescan every few seconds as a safety net (a watcher can miss
// events on a loaded machine, or not work at all on some file systems).
//
// It never dies and never goes stale: rebuilds run one after another, each failure (invalid
// content, a fault of the machine, a bug) is reported and leaves the live site as it was, and
// after any sequence of changes has settled the live output is what a cold build of the same
// content writes (test/edit-sequences.test.ts drives random sequences to hold it to that).

import { ENTRIES_DIR, TOPICS_DIR } from '../content/discover.ts';
import { formatProblem } from '../content/problems.ts';
import { describeFault } from './describe-fault.ts';
import { BuildSession, type RebuildReport, type SessionOptions } from './session.ts';
import { type TreeWatcher, watchTree } from './watch-tree.ts';

/** Events closer together than this are one change (an editor's save is often several). */
const DEBOUNCE_MS = 10;
/** Default time between two full rescans. */
const RESCAN_MS = 5000;
/** A rescan never takes more than this share of the time (it waits longer on big content). */
const RESCAN_SHARE = 20;

export interface WatchOptions extends SessionOptions {
  /** Called after every rebuild that read something new (the CLI prints it). */
  onRebuild?: (report: RebuildReport, paths: string[]) => void;
  /**
   * Milliseconds between full rescans that compare every content file with what was read; 0
   * for none. Default RESCAN_MS.
   */
  rescanMs?: number;
  /** False: no file-system events, only the rescans (polling, for file systems without events). */
  events?: boolean;
}

export interface Watcher {
  session: BuildSession;
  /** Settles when every rebuild asked for so far is done. */
  idle(): Promise<void>;
  /**
   * Settles once the watcher is idle and no event has arrived for `quietMs`: every change made
   * before the call has then been seen and built (or reported as a problem).
   */
  settled(quietMs?: number): Promise<void>;
  /** Lists and compares every content file now (what the periodic rescan does), then settles. */
  rescan(): Promise<void>;
  /** The last rebuild that read something new, if any. */
  readonly lastReport: RebuildReport | null;
  /**
   * Stops watching; settles when a rebuild under way has finished. With `finish`, it first waits
   * for the downloads of the last valid content (made in the background after an edit), so that
   * the record a build leaves is written too and the next build finds nothing to do.
   */
  close(options?: { finish?: boolean }): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** One turn of the event loop through its I/O phase: events already queued are delivered first. */
const ioTurn = () => new Promise<void>((r) => setImmediate(r));

/** The directories whose content the site is made of: the root, entries/ and topics/. */
function isContentDir(rel: string): boolean {
  const top = rel.split('/')[0];
  return rel === '' || top === ENTRIES_DIR || top === TOPICS_DIR;
}

/** Starts watching. Throws ContentError if the content is invalid at the start (nothing is written). */
export async function startWatching(options: WatchOptions): Promise<Watcher> {
  const warn = options.onWarning ?? ((line: string) => process.stderr.write(`${line}\n`));
  const session = await BuildSession.open({ ...options, onWarning: warn });
  let pending = new Set<string>();
  let rescanWanted = false;
  let timer: NodeJS.Timeout | null = null;
  let rescanTimer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let closed = false;
  let lastReport: RebuildReport | null = null;
  let tree: TreeWatcher | null = null;
  const rescanMs = options.rescanMs ?? RESCAN_MS;

  const rebuild = async (paths: string[], full: boolean) => {
    if (closed) return;
    const started = performance.now();
    try {
      // The rescan also checks the watchers themselves against the tree.
      if (full) tree?.reconcile();
      const report = await session.rebuild(paths, { rescan: full });
      if (!report.skipped) {
        lastReport = report;
        // A rescan that changed nothing the user can see (it re-reads recently written files
        // to be sure of them) is not worth a line.
        const quiet = paths.length === 0 && (report.ok ? report.changed.length === 0 : report.sameProblems);
        if (!quiet) options.onRebuild?.(report, paths);
      }
    } catch (err) {
      // session.rebuild never throws; a failing onRebuild (a closed stdout) must not stop the watch.
      warn(`watch: ${describeFault(err)}`);
    } finally {
      if (full) armRescan(performance.now() - started);
    }
  };

  const flush = () => {
    timer = null;
    const paths = [...pending];
    const full = rescanWanted;
    pending = new Set();
    rescanWanted = false;
    // Rebuilds run one after another; events that arrive meanwhile make the next one.
    running = running.then(() => rebuild(paths, full));
  };

  const schedule = () => {
    if (timer === null && !closed) timer = setTimeout(flush, DEBOUNCE_MS);
  };

  function armRescan(lastMs: number): void {
    if (rescanTimer !== null) clearTimeout(rescanTimer);
    rescanTimer = null;
    if (closed || rescanMs <= 0) return;
    rescanTimer = setTimeout(
      () => {
        rescanTimer = null;
        rescanWanted = true;
        schedule();
      },
      Math.max(rescanMs, lastMs * RESCAN_SHARE),
    );
    rescanTimer.unref();
  }

  if (options.events !== false) {
    tree = watchTree(
      options.contentDir,
      (path) => {
        pending.add(path);
        schedule();
      },
      { include: isContentDir, onWarning: warn },
    );
  }
  armRescan(0);

  const isIdle = () => timer === null && pending.size === 0 && !rescanWanted;
  const idle = async () => {
    for (;;) {
      if (!isIdle()) {
        await sleep(DEBOUNCE_MS);
        continue;
      }
      const current = running;
      await current;
      if (current === running && isIdle()) return;
    }
  };

  return {
    session,
    idle,
    settled: async (quietMs = 50) => {
      for (;;) {
        await idle();
        const seen = tree?.events ?? 0;
        await sleep(quietMs);
        await ioTurn();
        if ((tree?.events ?? 0) === seen && isIdle()) return;
      }
    },
    rescan: async () => {
      if (closed) return;
      rescanWanted = true;
      schedule();
      await idle();
    },
    get lastReport() {
      return lastReport;
    },
    close: async (closing = {}) => {
      closed = true;
      tree?.close();
      if (timer !== null) clearTimeout(timer);
      if (rescanTimer !== null) clearTimeout(rescanTimer);
      timer = null;
      rescanTimer = null;
      pending = new Set();
      rescanWanted = false;
      await running;
      if (closing.finish === true) await session.downloadsSettled();
      // What a build leaves beside its tree, if the session had not written it yet (session.ts).
      await session.record();
      session.close();
    },
  };
}

/** One line per rebuild, or the problems that kept the site as it was (one line each). */
export function describeRebuild(
  report: RebuildReport,
  paths: readonly string[],
  contentDir: string,
  outDir: string,
): string {
  const what = paths.length === 0 ? 'rescan' : paths.length === 1 ? paths[0] : `${paths.length} paths`;
  if (report.error !== null)
    return `${what}: rebuild failed: ${report.error}; ${outDir} was left as it was (tried again at the next change)`;
  if (!report.ok) {
    const n = report.problems.length;
    const head = `${what}: ${n} problem${n === 1 ? '' : 's'}; ${outDir} was left as it was`;
    if (report.sameProblems) return `${head} (the same as before)`;
    return `${head}:\n${report.problems.map((p) => `  ${formatProblem(p, contentDir)}`).join('\n')}`;
  }
  const n = report.changed.length;
  return `${what}: rebuilt in ${report.timings.total.toFixed(0)} ms, ${n} file${n === 1 ? '' : 's'} changed`;
}
