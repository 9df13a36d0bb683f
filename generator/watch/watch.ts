// The watch mode (`npm run build -- --watch`): one full build into the generation layout, then a
// rebuild of what changed after every burst of file-system events in the content directory.

import { formatProblem } from '../content/problems.ts';
import { BuildSession, type RebuildReport, type SessionOptions } from './session.ts';
import { watchTree } from './watch-tree.ts';

/** Events closer together than this are one change (an editor's save is often several). */
export const DEBOUNCE_MS = 10;

export interface WatchOptions extends SessionOptions {
  /** Called after every rebuild (the CLI prints it). */
  onRebuild?: (report: RebuildReport, paths: string[]) => void;
}

export interface Watcher {
  session: BuildSession;
  /** Settles when every rebuild asked for so far is done. */
  idle(): Promise<void>;
  close(): void;
}

export async function startWatching(options: WatchOptions): Promise<Watcher> {
  const session = await BuildSession.open(options);
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();

  const flush = () => {
    timer = null;
    const paths = [...pending];
    pending = new Set();
    // Rebuilds run one after another; events that arrive meanwhile make the next one.
    running = running.then(async () => {
      const report = await session.rebuild(paths);
      options.onRebuild?.(report, paths);
    });
  };

  const watcher = watchTree(options.contentDir, (path) => {
    pending.add(path);
    if (timer === null) timer = setTimeout(flush, DEBOUNCE_MS);
  });

  return {
    session,
    idle: async () => {
      while (timer !== null || pending.size > 0) await new Promise((r) => setTimeout(r, DEBOUNCE_MS));
      await running;
    },
    close: () => {
      watcher.close();
      if (timer !== null) clearTimeout(timer);
      session.close();
    },
  };
}

/** One line per rebuild, or the problems that kept the site as it was. */
export function describeRebuild(report: RebuildReport, paths: readonly string[], contentDir: string, outDir: string): string {
  const what = paths.length === 1 ? paths[0] : `${paths.length} paths`;
  if (!report.ok) {
    const n = report.problems.length;
    return `${what}: ${n} problem${n === 1 ? '' : 's'}; ${outDir} was left as it was:\n` +
      report.problems.map((p) => '  ' + formatProblem(p, contentDir)).join('\n');
  }
  const n = report.changed.length;
  return `${what}: rebuilt in ${report.timings.total.toFixed(0)} ms, ${n} file${n === 1 ? '' : 's'} changed`;
}
