// How the watch mode names a fault of the machine or a bug in one line (its rebuild reports, its
// warnings): the path and the cause for the file system's errors, else the message's first line.

import { describeError } from '../content/read-file.ts';

/** One line for a fault: the path and the cause for the file system's errors, else the message. */
export function describeFault(err: unknown): string {
  const e = err as NodeJS.ErrnoException | null;
  if (e !== null && typeof e === 'object' && typeof e.code === 'string') {
    // A rename names the place it writes to as `dest`: that is the file the user knows.
    const where = (e as { dest?: string }).dest ?? e.path;
    return `${where !== undefined ? `${where}: ` : ''}${describeError(err)}`;
  }
  return ((err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '').trim() || 'unknown error';
}
