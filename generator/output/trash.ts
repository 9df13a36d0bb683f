// Old output trees are removed in the background. Deleting ~14,000 files takes longer than
// writing them on some file systems (and on the benchmark machine, creating files right after
// deleting thousands is slow for a while), so a build renames the old tree to a trash name beside
// the output, which is instant, and leaves the deletion to a detached process that outlives it.
// Leftovers of an interrupted deletion are swept by the next build.

import { spawn } from 'node:child_process';
import { readdirSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let counter = 0;

function trashPrefix(outDir: string): string {
  return `.${basename(outDir)}-trash-`;
}

/** Removes a directory tree in a detached process; settles when it is gone (or could not be). */
function removeInBackground(path: string): Promise<void> {
  return new Promise((resolve) => {
    const [command, args] =
      process.platform === 'win32'
        ? [process.execPath, ['-e', 'require("fs").rmSync(process.argv[1], { recursive: true, force: true })', path]]
        : ['rm', ['-rf', path]];
    const child = spawn(command as string, args as string[], { detached: true, stdio: 'ignore' });
    child.on('error', () => resolve());
    child.on('exit', () => resolve());
    child.unref();
  });
}

/**
 * Moves `path` (if it exists) out of the way at once, under a trash name beside `outDir`, and
 * removes it in the background.
 */
export function discard(path: string, outDir: string): Promise<void> {
  const trash = join(dirname(outDir), `${trashPrefix(outDir)}${process.pid}-${Date.now()}-${counter++}`);
  try {
    renameSync(path, trash);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return Promise.resolve();
    throw err;
  }
  return removeInBackground(trash);
}

/** Starts the removal of trash that an earlier, interrupted build left beside `outDir`. */
export function sweepTrash(outDir: string): void {
  let names: string[];
  try {
    names = readdirSync(dirname(outDir));
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(trashPrefix(outDir))) void removeInBackground(join(dirname(outDir), name));
  }
}
