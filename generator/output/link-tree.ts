// A tree of hard links to another tree's files: instant, and no file is copied. Safe because the
// writers never change a file in place (they write a new one and rename it over the old), so the
// two trees share a file only until one of them replaces it.

import { copyFileSync, linkSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Codes of a link that this file system will not make (another device, no links, too many). */
const UNLINKABLE = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK']);

/**
 * Makes `to` (which must not exist) a tree of hard links to the files of `from`. Where a link
 * cannot be made, `otherwise` says what to do: `copy` the file, or `stop` and return false.
 */
export function linkTree(from: string, to: string, otherwise: 'copy' | 'stop'): boolean {
  mkdirSync(to);
  for (const d of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, d.name);
    const target = join(to, d.name);
    if (d.isDirectory()) {
      if (!linkTree(source, target, otherwise)) return false;
    } else if (d.isFile()) {
      try {
        linkSync(source, target);
      } catch (err) {
        if (!UNLINKABLE.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
        if (otherwise === 'stop') return false;
        copyFileSync(source, target);
      }
    }
  }
  return true;
}
