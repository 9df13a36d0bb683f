// Watches a directory tree for changes: one non-recursive watcher per directory. Node 20's
// recursive fs.watch on Linux misses files replaced by rename (how sed -i and many editors save),
// while a directory's own watcher reports every name created, renamed, changed or removed in it.
// Directories whose name starts with a dot are not content (see content/update.ts) and are skipped.

import { type FSWatcher, readdirSync, statSync, watch } from 'node:fs';
import { join } from 'node:path';

export interface TreeWatcher {
  close(): void;
}

/** Calls `onChange` with the path (relative to `root`, `/`-separated) of every name that changes. */
export function watchTree(root: string, onChange: (path: string) => void): TreeWatcher {
  const watchers = new Map<string, FSWatcher>();

  const add = (rel: string) => {
    if (watchers.has(rel)) return;
    let w: FSWatcher;
    try {
      w = watch(rel === '' ? root : join(root, rel), (_event, name) => {
        if (name === null) return;
        const path = rel === '' ? name : `${rel}/${name}`;
        onChange(path);
        if (!name.startsWith('.') && isDirectory(join(root, path))) addTree(path);
      });
    } catch {
      return; // Gone already.
    }
    // A removed directory's watcher ends with an error; forget it.
    w.on('error', () => {
      w.close();
      watchers.delete(rel);
    });
    watchers.set(rel, w);
  };

  const addTree = (rel: string) => {
    add(rel);
    let names: import('node:fs').Dirent[];
    try {
      names = readdirSync(rel === '' ? root : join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) if (d.isDirectory() && !d.name.startsWith('.')) addTree(rel === '' ? d.name : `${rel}/${d.name}`);
  };

  addTree('');
  return {
    close: () => {
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
