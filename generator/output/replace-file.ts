// Writing one file of a tree that others may be reading: never in place (a reader, or a hard-link
// snapshot of the tree, would see it change), always a new file renamed over the old one.

import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OutputFile } from './file.ts';

/**
 * Writes one file so that no reader ever opens it half-written: a temporary file, then rename.
 * On a failure the temporary file is removed: the tree holds the old file or the new one.
 */
export function replaceFile(dir: string, path: string, body: OutputFile['body']): void {
  const target = join(dir, path);
  const temp = `${target}.${process.pid}.tmp`;
  try {
    try {
      writeFileSync(temp, body);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(temp, body);
    }
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    // Named by the file it was to become, not by its temporary name.
    const e = err as NodeJS.ErrnoException & { dest?: string };
    if (e !== null && typeof e === 'object' && typeof e.code === 'string') {
      e.path = target;
      delete e.dest;
    }
    throw err;
  }
}
