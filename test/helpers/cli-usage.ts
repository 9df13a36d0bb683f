// What every command does with --help, --version and an option it does not know (the field's
// conventions: Hugo, Eleventy, Datasette), checked one command at a time: the everyday suite for a
// representative pair (test/cli-usage.test.ts), the heavy suite for every command
// (test/heavy/cli-usage.test.ts). Each check starts real processes, unless given another Runner.

import { expect } from 'vitest';
import { type CliOptions, type CliResult, runCli, type TOOLS } from './cli.ts';

type Tool = keyof typeof TOOLS;

/** How a check runs a command: a real process (runCli), or in-process for those that can (test/helpers/in-process.ts). */
export type Runner = (tool: Tool, args: readonly string[], options: CliOptions) => Promise<CliResult>;

const VERSION = /^pepys-static-api \d+\.\d+\.\d+ \(Node v\d+\.\d+\.\d+\)\n$/;
/** Plain output: the tests read what a pipe gets. */
export const PLAIN = { NO_COLOR: '1', FORCE_COLOR: undefined };

/** --help prints its usage to stdout, --version the version; exit 0. */
export async function checkHelpAndVersion(tool: Tool, run: Runner = runCli): Promise<void> {
  // -h is the same option of the same parser (cli/options.ts): tried on one command.
  const [help, version] = await Promise.all([
    run(tool, ['--help'], { env: PLAIN }),
    run(tool, ['--version'], { env: PLAIN }),
  ]);
  expect(help.code, `${tool} --help: ${help.stderr}`).toBe(0);
  expect(help.stdout).toMatch(/^usage: (npm (start|run [\w:-]+)|pepys-api init)/);
  expect(help.stdout).toContain('--version');
  expect(help.stderr).toBe('');
  expect(version.code).toBe(0);
  expect(version.stdout).toMatch(VERSION);
}

/** An unknown option is one line naming it and where help is, exit 2. */
export async function checkUnknownOption(tool: Tool, run: Runner = runCli): Promise<void> {
  const r = await run(tool, ['--no-such-option'], { env: PLAIN });
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(
    /^error: Unknown option '--no-such-option' \((npm (start|run [\w:-]+) --|pepys-api init) --help\)\n$/,
  );
}

/** A bad value is one line naming the option, exit 2: never NaN rounds or a stack trace. */
export async function checkBadValues(
  cases: ReadonlyArray<readonly [Tool, readonly string[], RegExp]>,
  run: Runner = runCli,
): Promise<void> {
  const results = await Promise.all(cases.map(([tool, args]) => run(tool, args, { env: PLAIN })));
  cases.forEach(([tool, args, message], i) => {
    const r = results[i] as Awaited<ReturnType<typeof runCli>>;
    expect(r.code, `${tool} ${args.join(' ')}: ${r.stderr}`).toBe(2);
    expect(r.stderr, `${tool} ${args.join(' ')}`).toMatch(message);
  });
}
