// One writer at a time for an output directory: `.<name>-lock` beside it, holding the pid of the
// command that writes it, what that command is, and (where the system says: process-identity.ts)
// when that process started. Taken atomically (O_EXCL). A lock is held only while the very
// process that took it runs: one whose pid is gone, or names another process now (a pid reused
// after a reboot, pid 1 in a lock copied from elsewhere), is stale and taken over, so a killed
// build or server never leaves one stuck. Released when the command ends (and, should it be
// killed, by the next one's takeover).

import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readRegular } from '../content/read-regular.mjs';
import { RefusedError } from './guard.ts';
import { commandLineOf, isGeneratorCommand, type StartedAt, startedAt } from './process-identity.ts';
import { isAlive } from './trash.ts';

interface Holder {
  pid: number;
  command: string;
  since: string;
  /** When the holder's process started (absent where unknown, and in the locks of earlier versions). */
  started?: StartedAt;
}

/** A lock file is a line of JSON; one larger than this is not a lock this generator wrote. */
const MAX_LOCK_BYTES = 64 * 1024;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters escaped
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The most of a holder's command a refusal quotes. */
const MAX_SHOWN = 200;

function lockFile(outDir: string): string {
  return join(dirname(outDir), `.${basename(outDir)}-lock`);
}

function holderOf(path: string): Holder | null {
  // Only a regular file of a lock's size is read (a FIFO in its place is never waited on).
  const read = readRegular(path, MAX_LOCK_BYTES);
  if (read.bytes === null) return null;
  try {
    const h = JSON.parse(read.bytes.toString('utf8')) as Partial<Holder> | null;
    if (h === null || typeof h !== 'object' || !Number.isSafeInteger(h.pid) || (h.pid as number) <= 0) return null;
    const s = h.started;
    const started =
      s !== null && typeof s === 'object' && typeof s.boot === 'string' && typeof s.start === 'string'
        ? { boot: s.boot, start: s.start }
        : undefined;
    return { pid: h.pid as number, command: String(h.command), since: String(h.since), started };
  } catch {
    // Unreadable or half-written by a process that died writing it: nobody holds it.
    return null;
  }
}

/**
 * Whether the process that took the lock still runs: its pid alive and, where the system says,
 * the same process (started when the lock says), or, for a lock that does not say (an earlier
 * version's), one of this generator's commands.
 */
function holderRuns(holder: Holder): boolean {
  if (!isAlive(holder.pid)) return false;
  const now = startedAt(holder.pid);
  if (holder.started !== undefined && now !== null)
    return now.boot === holder.started.boot && now.start === holder.started.start;
  const command = commandLineOf(holder.pid);
  // Nothing says what the process is (Windows): a live pid is taken to be the holder.
  return command === null ? true : isGeneratorCommand(command);
}

/**
 * Text of a lock (written by anyone) made one printable line: control characters (a newline
 * included), line separators and bidirectional overrides escaped; bounded.
 */
function shown(text: string): string {
  const line = text.replace(UNPRINTABLE, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
  return line.length > MAX_SHOWN ? `${line.slice(0, MAX_SHOWN)}…` : line;
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
  const started = startedAt(process.pid);
  if (started !== null) mine.started = started;
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
    if (holder !== null && holder.pid !== process.pid && holderRuns(holder)) {
      throw new RefusedError(
        `${outDir} is being written by ${shown(holder.command)} (pid ${holder.pid}, since ${shown(holder.since)}): ` +
          `stop it, or give this command another --out`,
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
