// One writer at a time for an output directory: `.<name>-lock` beside it, holding the pid of the
// command that writes it and what that command is. Taken atomically (O_EXCL); a lock whose process
// is gone is stale and taken over, so a killed build or server never leaves one stuck. Released
// when the command ends (and, should it be killed, by the next one's takeover).

import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { RefusedError } from './guard.ts';
import { isAlive } from './trash.ts';

interface Holder {
  pid: number;
  command: string;
  since: string;
}

function lockFile(outDir: string): string {
  return join(dirname(outDir), `.${basename(outDir)}-lock`);
}

function holderOf(path: string): Holder | null {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof h.pid === 'number' ? { pid: h.pid, command: String(h.command), since: String(h.since) } : null;
  } catch {
    // Unreadable or half-written by a process that died writing it: nobody holds it.
    return null;
  }
}

/**
 * Takes the lock of `outDir` for `command` (e.g. "npm start"), or throws RefusedError naming the
 * live process that holds it. Returns the release, which is also run when this process exits.
 */
export function lockOutput(outDir: string, command: string): () => void {
  const path = lockFile(outDir);
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch {
    // Its parent cannot be made: the command's own attempt will say why.
    return () => {};
  }
  const mine: Holder = { pid: process.pid, command, since: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, `${JSON.stringify(mine)}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A directory nobody may write in (read-only, no permission): nobody else can write the
      // output either, and the command's own attempt says so, naming what it tried to create.
      if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return () => {};
      if (code !== 'EEXIST') throw err;
    }
    const holder = holderOf(path);
    if (holder !== null && holder.pid !== process.pid && isAlive(holder.pid)) {
      throw new RefusedError(
        `${outDir} is being written by ${holder.command} (pid ${holder.pid}, since ${holder.since}): ` +
          'stop it, or give this command another --out',
      );
    }
    // Stale (its process is gone) or ours: taken over. Another taker may win the race: try again.
    if (attempt >= 5) throw new RefusedError(`${outDir}: its lock ${path} keeps changing hands; try again`);
    try {
      unlinkSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    // Only our own lock: after a takeover (this process was thought dead) it is another's.
    if (holderOf(path)?.pid !== process.pid) return;
    try {
      unlinkSync(path);
    } catch {
      // Gone already: nothing to release.
    }
  };
  process.on('exit', release);
  return release;
}
