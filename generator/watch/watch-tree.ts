// Watches a directory tree for changes: one non-recursive watcher per directory. Node 20's
// recursive fs.watch on Linux misses files replaced by rename (how sed -i and many editors save),
// while a directory's own watcher reports every name created, renamed, changed or removed in it.
// Directories whose name starts with a dot are not content (see content/discover.ts) and are
// skipped; links to directories are followed, a link back to a directory containing it is not.
//
// A watcher follows its directory's inode, not its name: a directory that is removed and made
// again (even with the same inode number, which Linux reuses at once), renamed, or replaced with
// a whole new tree leaves its watcher deaf or watching the wrong place. So whenever an event names
// a directory, or a name that was a watched directory, the watchers of that subtree are all made
// anew from what is on disk; and reconcile() (which the watch mode runs with its periodic rescan)
// compares every watcher with the tree as a safety net. Nothing here throws: a directory that
// cannot be watched (the system's limit of watches reached, say) is reported once, and its
// changes are left to the periodic rescan.

import { type FSWatcher, watch } from 'node:fs';
import { basename, join } from 'node:path';
import { directoryId, MAX_DIR_DEPTH, readDirectory } from '../content/discover.ts';
import { outsideLinksAllowed, outsideTarget } from '../content/links.ts';
import { describeError } from '../content/read-file.ts';

export interface TreeWatcher {
  /**
   * Compares every watched directory with the tree on disk, and watches anew what is missing,
   * moved or replaced. Returns the directories newly watched.
   */
  reconcile(): string[];
  /** Number of events seen so far: a count that stops moving means the file system is quiet. */
  readonly events: number;
  /** Number of directories watched. */
  readonly watching: number;
  close(): void;
}

export interface WatchTreeOptions {
  /** Whether a directory (relative, `/`-separated; '' is the root) is worth watching. Default: all. */
  include?: (rel: string) => boolean;
  /** A directory that cannot be watched (said once per cause). Default: stderr. */
  onWarning?: (line: string) => void;
}

/** Calls `onChange` with the path (relative to `root`, `/`-separated) of every name that changes. */
export function watchTree(root: string, onChange: (path: string) => void, options: WatchTreeOptions = {}): TreeWatcher {
  const include = options.include ?? (() => true);
  const warn = options.onWarning ?? ((line: string) => process.stderr.write(`${line}\n`));
  const watched = new Map<string, { watcher: FSWatcher; id: string }>();
  const warned = new Set<string>();
  let events = 0;
  let closed = false;

  const abs = (rel: string) => (rel === '' ? root : join(root, rel));
  const under = (rel: string, key: string) => rel === '' || key === rel || key.startsWith(`${rel}/`);
  const child = (rel: string, name: string) => (rel === '' ? name : `${rel}/${name}`);

  const report = (path: string) => {
    try {
      onChange(path);
    } catch (err) {
      warn(`watching ${root}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const unwatch = (rel: string) => {
    for (const [key, entry] of watched) {
      if (under(rel, key)) {
        entry.watcher.close();
        watched.delete(key);
      }
    }
  };

  const watchOne = (rel: string, id: string): boolean => {
    let watcher: FSWatcher;
    try {
      watcher = watch(abs(rel), (_event, name) => onEvent(rel, name));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && !warned.has(code)) {
        warned.add(code);
        warn(`cannot watch ${abs(rel)}: ${describeError(err)}; changes there are found by the periodic rescan`);
      }
      return false;
    }
    // A watch that breaks is dropped and its directory reported: the rescan then lists it again.
    watcher.on('error', () => {
      watcher.close();
      if (watched.get(rel)?.watcher === watcher) watched.delete(rel);
      if (!closed) report(rel);
    });
    watched.set(rel, { watcher, id });
    return true;
  };

  /** Ids of the directories that contain `rel` (the root first), for cutting loops. */
  const ancestorsOf = (rel: string): string[] => {
    const ids: string[] = [];
    if (rel === '') return ids;
    const parts = rel.split('/');
    for (let i = 0; i < parts.length; i++) {
      const id = directoryId(abs(parts.slice(0, i).join('/')));
      if (id !== null) ids.push(id);
    }
    return ids;
  };

  /** Visits every directory to watch under `rel` (itself included) with its id. */
  const walk = (rel: string, ancestors: readonly string[], visit: (rel: string, id: string) => void) => {
    if (!include(rel) || ancestors.length > MAX_DIR_DEPTH) return;
    const id = directoryId(abs(rel));
    if (id === null || ancestors.includes(id)) return;
    visit(rel, id);
    const names = readDirectory(root, rel, null);
    if (names === null) return;
    for (const d of names) {
      if (d.name.startsWith('.') || !(d.isDirectory() || d.isSymbolicLink())) continue;
      // Never watched: a link outside the content directory (the build does not follow it).
      if (d.isSymbolicLink() && !outsideLinksAllowed() && outsideTarget(root, child(rel, d.name)) !== null) continue;
      walk(child(rel, d.name), [...ancestors, id], visit);
    }
  };

  /** Makes every watcher of the subtree at `rel` anew. */
  const resync = (rel: string) => {
    unwatch(rel);
    walk(rel, ancestorsOf(rel), (dir, id) => {
      if (!watched.has(dir)) watchOne(dir, id);
    });
  };

  function onEvent(rel: string, name: string | null): void {
    if (closed) return;
    events++;
    try {
      if (name === null) {
        // Something changed here, unnamed: look at the whole directory again.
        resync(rel);
        report(rel);
        return;
      }
      const path = child(rel, name);
      // The root's own removal or move: the root is watched anew if it is back (else by reconcile).
      if (rel === '' && name === basename(root) && directoryId(root) !== watched.get('')?.id) resync('');
      else if (!name.startsWith('.') && include(path)) {
        let wasWatched = false;
        for (const key of watched.keys()) {
          if (under(path, key)) {
            wasWatched = true;
            break;
          }
        }
        // A name that is, or was, a watched directory: removed, made again, moved or replaced.
        if (wasWatched || directoryId(abs(path)) !== null) resync(path);
      }
      report(path);
    } catch (err) {
      warn(`watching ${root}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  walk('', [], (rel, id) => watchOne(rel, id));

  return {
    reconcile: () => {
      if (closed) return [];
      const found = new Map<string, string>();
      walk('', [], (rel, id) => found.set(rel, id));
      for (const [key, entry] of watched) {
        if (found.get(key) !== entry.id) {
          entry.watcher.close();
          watched.delete(key);
        }
      }
      const added: string[] = [];
      for (const [rel, id] of found) if (!watched.has(rel) && watchOne(rel, id)) added.push(rel);
      return added;
    },
    get events() {
      return events;
    },
    get watching() {
      return watched.size;
    },
    close: () => {
      closed = true;
      for (const entry of watched.values()) entry.watcher.close();
      watched.clear();
    },
  };
}
