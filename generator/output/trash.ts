// Old output trees are removed in the background. Deleting ~14,000 files takes longer than
// writing them on some file systems (and on the benchmark machine, creating files right after
// deleting thousands is slow for a while), so a build renames the old tree to a trash name beside
// the output, which is instant, and leaves the deletion to a detached process that outlives it.
//
// Every name a build (or the watch mode) puts beside the output ends in the pid of the process
// that made it: `.public-next-<pid>`, `-prev-<pid>`, `-link-<pid>`, `-gen-a-<pid>`, `-snap-<pid>` (a server's),
// `-record-<pid>` and `-downloads-<pid>` (what the watch mode writes ahead), `-spare-<pid>` (its
// spare files: spare-files.ts), `-trash-<pid>-…`. A build killed with SIGKILL leaves them behind; the next build sweeps those
// whose process is gone, and never those of a process that is still running (it may be a build
// at work). One of them is worth more than the others: a build killed between its two renames
// (writer.ts) leaves no output at all and the previous tree whole in `-prev-<pid>`, which the
// sweep puts back first.

import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { lstatOrNull } from '../paths.ts';

let counter = 0;
const removing = new Set<string>();

function trashPrefix(outDir: string): string {
  return `.${basename(outDir)}-trash-`;
}

/** Removes a directory tree in a detached process; settles when it is gone (or could not be). */
function removeInBackground(path: string): Promise<void> {
  return new Promise((resolve) => {
    const [command, args] =
      process.platform === 'win32'
        ? [process.execPath, ['-e', 'require("fs").rmSync(process.argv[1], { recursive: true, force: true })', path]]
        : // A tree someone made read-only (chmod a-w) cannot be emptied as it is: it is ours (a
          // build made it) and going anyway, so its owner's write bit is given back, then retried.
          ['sh', ['-c', 'rm -rf -- "$1" 2>/dev/null || { chmod -R u+w -- "$1"; rm -rf -- "$1"; }', 'sh', path]];
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

/** Whether a process with this pid exists (a zombie counts; EPERM means it exists, not ours). */
export function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A process killed but not yet reaped by its parent (a zombie) still answers signal 0: it will
  // never write again, so its names and locks are free. Linux says so in /proc; elsewhere a
  // process that answers is taken as alive.
  if (!HAS_PROC) return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false; // gone since the signal
  }
}

const HAS_PROC = existsSync('/proc/self/stat');

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `.<out>-<role>-<pid>` (and trash's `-<time>-<n>` after the pid): role and pid, or null. */
export function leftoverOf(outDir: string, name: string): { role: string; pid: number } | null {
  const base = escapeRegExp(basename(outDir));
  const m = new RegExp(
    `^\\.${base}-(?:(next|prev|link|snap|record|downloads|spare|gen-[ab])-(\\d+)|(trash)-(\\d+)-\\d+-\\d+)$`,
  ).exec(name);
  if (m === null) return null;
  return { role: (m[1] ?? m[3]) as string, pid: Number(m[2] ?? m[4]) };
}

export interface Sweep {
  /** The leftover put back as the output (a build killed between its two renames), if any. */
  restored: string | null;
  /** Leftovers whose removal was started. */
  removed: string[];
  /** Settles when those removals are done. */
  done: Promise<void>;
}

/**
 * Sweeps what builds that are no longer running left beside `outDir`: puts a previous tree back
 * when the output is missing, then starts the removal of the rest. One listing of the output's
 * parent directory; the deletions run in the background.
 */
export function sweepLeftovers(outDir: string): Sweep {
  const parent = dirname(outDir);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return { restored: null, removed: [], done: Promise.resolve() };
  }
  const dead = names
    .map((name) => ({ name, of: leftoverOf(outDir, name) }))
    .filter((x): x is { name: string; of: { role: string; pid: number } } => x.of !== null && !isAlive(x.of.pid));
  let restored: string | null = null;
  let outMissing = false;
  try {
    lstatSync(outDir);
  } catch (err) {
    outMissing = (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
  if (outMissing) {
    // The newest previous tree, should several builds have died at that moment.
    const mtime = (name: string): number => lstatOrNull(join(parent, name))?.mtimeMs ?? -1;
    const candidates = dead
      .filter((x) => x.of.role === 'prev')
      .map((x) => ({ name: x.name, mtime: mtime(x.name) }))
      .filter((x) => x.mtime >= 0)
      .sort((a, b) => b.mtime - a.mtime);
    const best = candidates[0];
    if (best !== undefined) {
      try {
        renameSync(join(parent, best.name), outDir);
        restored = best.name;
      } catch (err) {
        // Another build's sweep got there first (ENOENT, or the output exists again): fine.
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'EEXIST' && code !== 'ENOTEMPTY') throw err;
      }
    }
  }
  // A path whose removal this process already started (a build sweeps twice: before reading the
  // content and before writing) is not handed to a second `rm`.
  const removed = dead.map((x) => x.name).filter((name) => name !== restored && !removing.has(join(parent, name)));
  for (const name of removed) removing.add(join(parent, name));
  const done = Promise.all(removed.map((name) => removeInBackground(join(parent, name)))).then(() => undefined);
  return { restored, removed, done };
}
