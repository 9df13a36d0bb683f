// The commands that export a `main(args, io)` (generator/cli/command-io.ts), run in the test's own
// process: the same words, files and exit status as a real process (test/helpers/cli.ts) at a
// hundredth of the cost, for tests about what a command does. Each command keeps a test through a
// real process for what only a process shows (npm's scripts, the exit itself, signals).

import { resolve } from 'node:path';
import type { CommandIo } from '../../generator/cli/command-io.ts';
import { init } from '../../generator/cli/init-command.ts';
import type { CliOptions, CliResult } from './cli.ts';

const REPO = resolve(import.meta.dirname, '../..');
const COMMANDS = { init } as const;

/** Runs a command in this process, as runCli runs it in another: in `cwd` (the
 * repository's by default), with `env` over this process's. */
export function runInProcess(
  command: keyof typeof COMMANDS,
  args: readonly string[],
  options: Omit<CliOptions, 'wrap'> = {},
): CliResult {
  const output = { stdout: '', stderr: '' };
  const io: CommandIo = {
    cwd: options.cwd ?? REPO,
    env: { ...process.env, ...options.env },
    stdout: (text) => {
      output.stdout += text;
    },
    stderr: (text) => {
      output.stderr += text;
    },
    stderrIsTTY: false,
  };
  const code = COMMANDS[command](args, io);
  return { code, signal: null, ...output };
}
