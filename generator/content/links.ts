// Symbolic links in the content directory that lead outside it. Discovery (discover.ts), the
// reading of the top-level files (read-file.ts) and the watch mode (watch/watch-tree.ts) refuse
// them alike, unless allowed.

import { lstatSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Problem } from './problems.ts';

/**
 * Symbolic links that lead outside the content directory are not followed, so that content
 * cannot publish (or quote in its errors) a file it does not hold. An archivist who keeps content
 * elsewhere on purpose allows them with PEPYS_ALLOW_OUTSIDE_LINKS=1 (docs/content-format.md).
 */
export function outsideLinksAllowed(): boolean {
  return process.env.PEPYS_ALLOW_OUTSIDE_LINKS === '1';
}

/**
 * Where the link at `root/rel` leads, when that is outside `root`; null when it leads inside, or
 * nowhere (reading it then says what is wrong).
 */
export function outsideTarget(root: string, rel: string): string | null {
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync(join(root, rel));
    realRoot = realpathSync(root);
  } catch {
    return null;
  }
  return real === realRoot || real.startsWith(realRoot + sep) ? null : real;
}

/** The problem of a link that leads outside the content directory. */
export function outsideProblem(rel: string, target: string): Problem {
  return {
    file: rel,
    line: 0,
    message: `symbolic link to ${JSON.stringify(target)}, outside the content directory (not followed; PEPYS_ALLOW_OUTSIDE_LINKS=1 allows it)`,
  };
}

/** Is there a symbolic link at `path`? */
export function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
