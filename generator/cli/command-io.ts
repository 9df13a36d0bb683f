// What a command run in-process (a `main(args, io)`) talks to instead of the process: its working
// directory, its environment and its two output streams. The command's entry file passes the
// process's own (processIo) and exits with the status main returns; a test passes its own and
// reads what was written, without starting a Node process for each run.

import { createColors } from 'picocolors';
import { colourOn } from './colour.ts';
import { CommandEnd, errorLine, writeErrorSync } from './exit.ts';

export interface CommandIo {
  /** Relative paths of the command line are read from here. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether standard error is a terminal (colour.ts): false for a pipe and for a test. */
  stderrIsTTY: boolean;
  /** The process's standard error itself, where a progress bar is drawn on a terminal (progress.ts). */
  stderrStream?: NodeJS.WriteStream;
}

/** The process's own: what a command run from its entry file talks to. */
export function processIo(): CommandIo {
  return {
    cwd: process.cwd(),
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    // All of it before an exit (exit.ts writeErrorSync).
    stderr: writeErrorSync,
    stderrIsTTY: process.stderr.isTTY === true,
    stderrStream: process.stderr,
  };
}

/** Whether the command colours what it writes to `io.stderr`. */
export function colourOf(io: CommandIo): boolean {
  return colourOn({ isTTY: io.stderrIsTTY }, io.env);
}

/**
 * How a command run in-process ends on what it threw: a CommandEnd's words to its streams (help
 * and version to stdout, `error: …` to stderr) and its status; anything else is thrown on.
 */
export function endCommand(err: unknown, io: CommandIo): number {
  if (!(err instanceof CommandEnd)) throw err;
  if (err.stdout !== '') io.stdout(err.stdout);
  if (err.status !== 0) io.stderr(errorLine(err.message, createColors(colourOf(io))));
  return err.status;
}
