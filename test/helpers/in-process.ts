// The commands whose work is a function of the command line and an io (generator/cli/command-io.ts:
// init-command.ts, build-command.ts, verify-command.ts), run in the test's own process: the same words, files and exit
// status as a real process (test/helpers/cli.ts) without a Node process's start (≈0.3 s of CPU) and
// its loading of the generator, for tests about what a command does. A build run so takes the
// output's lock with this process's pid and releases it when it ends; relative paths are this
// process's working directory's (the repository), so its tests give absolute ones. Each command keeps a test through a
// real process for what only a process shows (npm's scripts, the exit itself, signals).

import { resolve } from 'node:path';
import { buildCommand } from '../../generator/cli/build-command.ts';
import type { CommandIo } from '../../generator/cli/command-io.ts';
import { init } from '../../generator/cli/init-command.ts';
import { verifyCommand } from '../../generator/cli/verify-command.ts';
import type { CliOptions, CliResult } from './cli.ts';

const REPO = resolve(import.meta.dirname, '../..');
const COMMANDS: Record<
  'build' | 'init' | 'verify',
  (args: readonly string[], io: CommandIo) => number | Promise<number>
> = {
  build: (args, io) => buildCommand(args, io),
  init,
  verify: (args, io) => verifyCommand(args, io),
};

/** Runs a command in this process, as runCli runs it in another: in `cwd` (the
 * repository's by default), with `env` over this process's. */
export async function runInProcess(
  command: keyof typeof COMMANDS,
  args: readonly string[],
  options: Omit<CliOptions, 'wrap'> = {},
): Promise<CliResult> {
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
  const code = await COMMANDS[command](args, io);
  return { code, signal: null, ...output };
}
