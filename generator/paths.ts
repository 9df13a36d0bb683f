// What is at a path, asked without an exception for "nothing there" or "cannot be looked at": the
// one place for the stat-or-null checks of the content, output, watch and verify modules. Node
// only.

import { lstatSync, type Stats, statSync } from 'node:fs';

/** The path's stats, following symlinks; null when there is nothing (or nothing reachable). */
function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** The path's own stats (a symlink is itself); null when there is nothing there. */
export function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

export function isDirectory(path: string): boolean {
  return statOrNull(path)?.isDirectory() === true;
}

export function isFile(path: string): boolean {
  return statOrNull(path)?.isFile() === true;
}
