// How every command-line tool (build, start, import, verify) ends when something goes wrong: one
// place for the message, the exit status and the printing.
//
//   exit 2  a usage error: a bad option, or a path the tool refuses to touch (RefusedError)
//   exit 1  the work failed: invalid content (every problem, one per line), an expected fault of
//           the machine (disk full, read-only, permission denied, port in use: one line naming
//           the path or port and the cause), or an unexpected error (one line)
//
// Never a stack trace, unless DEBUG is set (DEBUG=1 npm run build): then unexpected errors print
// theirs after the line.

import { writeSync } from 'node:fs';
import { ContentError, printable } from '../content/problems.ts';
import { RefusedError } from '../output/guard.ts';
import { stderrColours as c } from './colour.ts';

export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Prints `error: <message>` and exits (status 2 by default: a usage error). */
export function fail(message: string, status: number = EXIT_USAGE): never {
  writeErrorSync(coloured(printable(`error: ${message}\n`)));
  process.exit(status);
}

/** `error:` at the start of a message in red, on a terminal (colour.ts). */
function coloured(text: string): string {
  return text.startsWith('error:') ? `${c.bold(c.red('error:'))}${text.slice('error:'.length)}` : text;
}

/**
 * A command's end before its work is done, thrown where the command runs in-process
 * (options.ts readCommand, the `<name>-command.ts` files; refuse below): the status, the message
 * of `error: <message>` (none for status 0) and what goes to standard output (--help, --version).
 */
export class CommandEnd extends Error {
  readonly status: number;
  readonly stdout: string;
  constructor(status: number, message: string, stdout = '') {
    super(message);
    this.name = 'CommandEnd';
    this.status = status;
    this.stdout = stdout;
  }
}

/**
 * Ends a command run in-process with `error: <message>` and the status (2 by default: a usage
 * error), for its caller to print: what fail() does for a command that owns its process.
 */
export function refuse(message: string, status: number = EXIT_USAGE): never {
  throw new CommandEnd(status, message);
}

/** `error: <message>` as fail() prints it: control characters shown, `error:` coloured when `colour` is. */
export function errorLine(message: string, colour = c): string {
  const text = printable(`error: ${message}\n`);
  return `${colour.bold(colour.red('error:'))}${text.slice('error:'.length)}`;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `text` to standard error before returning. process.stderr on a pipe is
 * asynchronous here: what the pipe has no room for (past 64 KiB) waits in memory, and an exit
 * right after it loses it, the last line ("The build stopped…") included, which is what a CI log
 * shows. So the bytes go out with writeSync, waiting a little whenever the pipe is full.
 */
export function writeErrorSync(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  while (at < bytes.length) {
    try {
      at += writeSync(2, bytes, at, bytes.length - at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      Atomics.wait(pause, 0, 0, 2);
    }
  }
}

/** The causes of the machine's faults a user can act on, by errno code. */
const CAUSES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'input/output error (a failing disk?)',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  ENOMEM: 'out of memory',
  EBUSY: 'resource busy (a mount point?)',
  EXDEV: 'on another device',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'is a directory',
  ENOENT: 'no such file or directory',
  ENAMETOOLONG: 'name too long',
  ELOOP: 'too many levels of symbolic links',
  ENOTEMPTY: 'directory not empty',
  EEXIST: 'already exists',
};

/** What a system call was doing, as words. */
const DOING: Record<string, string> = {
  open: 'opening',
  read: 'reading',
  write: 'writing',
  mkdir: 'creating the directory',
  rename: 'renaming',
  unlink: 'removing',
  rmdir: 'removing',
  rm: 'removing',
  scandir: 'listing',
  opendir: 'listing',
  stat: 'reading',
  lstat: 'reading',
  realpath: 'resolving',
  symlink: 'creating the link',
  readlink: 'reading the link',
  copyfile: 'copying',
};

type ErrnoError = NodeJS.ErrnoException & { dest?: string; address?: string; port?: number };

function isErrno(err: unknown): err is ErrnoError {
  return (
    err instanceof Error &&
    typeof (err as ErrnoError).code === 'string' &&
    typeof (err as ErrnoError).syscall === 'string'
  );
}

/**
 * One line for an expected fault of the machine: the cause, what was being done, the path (and
 * the code, for searching). Null for anything else.
 */
export function describeFault(err: unknown): string | null {
  if (!isErrno(err)) return null;
  const code = err.code as string;
  const syscall = err.syscall as string;
  if (syscall === 'listen' || syscall === 'bind') {
    const where = `${err.address ?? '?'}:${err.port ?? '?'}`;
    if (code === 'EADDRINUSE')
      return `port ${err.port ?? '?'} on ${err.address ?? '?'} is already in use (EADDRINUSE): stop what uses it, or choose another --port`;
    if (code === 'EACCES') return `permission denied listening on ${where} (EACCES): choose a --port above 1023`;
    if (code === 'EADDRNOTAVAIL')
      return `${err.address ?? '?'} is not an address of this machine (EADDRNOTAVAIL): choose another --host`;
    return `cannot listen on ${where}: ${err.message}`;
  }
  if (syscall === 'getaddrinfo')
    return `unknown host ${(err as { hostname?: string }).hostname ?? ''} (${code}): choose another --host`;
  const cause = CAUSES[code];
  if (cause === undefined || err.path === undefined) return null;
  const doing = DOING[syscall] ?? syscall;
  const dest = err.dest !== undefined ? ` to ${err.dest}` : '';
  return `${cause} (${code}) ${doing} ${err.path}${dest}`;
}

export interface ReportContext {
  /** Said after a failure that left this path as it was, e.g. "public was left as it was". */
  kept?: string;
}

/**
 * Whether `err` is one of this class's errors, told by the name the class gives its errors as
 * well: an error thrown by a module loaded in a bundle of its own (import-apart.ts) is of that
 * bundle's copy of the class (whose own name a bundler may have changed).
 */
function isA<T extends Error>(err: unknown, kind: abstract new (...args: never[]) => T, name: string): err is T {
  return err instanceof kind || (err instanceof Error && err.name === name);
}

/** The line (or, for content problems, lines) for any failure, and its exit status. */
export function failureMessage(err: unknown, context: ReportContext = {}): { text: string; status: number } {
  const kept = context.kept === undefined ? '' : `; ${context.kept} was left as it was`;
  if (isA(err, RefusedError, 'RefusedError')) return { text: `error: ${err.message}\n`, status: EXIT_USAGE };
  if (isA(err, ContentError, 'ContentError')) {
    const note = context.kept === undefined ? '' : `The build stopped; ${context.kept} was left as it was.\n`;
    return { text: `error: ${err.message}\n${note}`, status: EXIT_FAILED };
  }
  const fault = describeFault(err);
  if (fault !== null) return { text: `error: ${fault}${kept}\n`, status: EXIT_FAILED };
  const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
  const debug = process.env.DEBUG !== undefined && process.env.DEBUG !== '' && process.env.DEBUG !== '0';
  const stack = debug && err instanceof Error && err.stack !== undefined ? `${err.stack}\n` : '';
  const hint = debug ? '' : ' (DEBUG=1 shows the stack)';
  return { text: `error: ${message}${kept}${hint}\n${stack}`, status: EXIT_FAILED };
}

/** Prints the failure's message and exits with its status. */
export function exitWith(err: unknown, context: ReportContext = {}): never {
  const { text, status } = failureMessage(err, context);
  // On a terminal the progress line may be half-written: clear it rather than append to it.
  // Whatever the message quotes (a path, a key) is printed, never obeyed by the terminal.
  const safe = coloured(printable(text));
  writeErrorSync(process.stderr.isTTY === true ? `\r\x1b[K${safe}` : safe);
  process.exit(status);
}

/**
 * Routes errors nobody caught (a rejected promise, an exception in a callback) through exitWith,
 * so that even those end in one line rather than Node's stack trace.
 */
export function exitOnUncaught(context: ReportContext = {}): void {
  // The same object: a caller may change what it says as its work goes on.
  process.on('uncaughtException', (err) => exitWith(err, context));
  process.on('unhandledRejection', (err) => exitWith(err, context));
}
