// Every command behaves as the field's do (Hugo, Eleventy, Datasette): -h/--help and --version,
// a usage error in one line with exit 2 and never a stack trace; colour only where it is wanted.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { colourOn } from '../generator/cli/colour.ts';
import { runCli } from './helpers/cli.ts';
import { checkBadValues, checkHelpAndVersion, checkUnknownOption, PLAIN, type Runner } from './helpers/cli-usage.ts';
import { runInProcess } from './helpers/in-process.ts';

// Two commands stand for all here, one of each usage line's kind (`npm run build`, `pepys-api
// init`), run in this process (test/helpers/in-process.ts: the same words and statuses); every
// command, and the bench tools' bad values, as real processes in test/heavy/cli-usage.test.ts (each
// check is a few processes, ~0.5 s of CPU each; every command's parser is cli/options.ts'). The
// process boundary here: -h on verify, the other tools' bad values, the package command below.
const REPRESENTATIVE = ['build', 'init'] as const;
const inProcess: Runner = (tool, args, options) => runInProcess(tool as 'build' | 'init', args, options);

describe.concurrent('every command (two of them here; all in test/heavy/cli-usage.test.ts)', () => {
  it.each(REPRESENTATIVE)('%s: --help prints its usage to stdout, --version the version; exit 0', (tool) =>
    checkHelpAndVersion(tool, inProcess),
  );

  it('-h is --help', async () => {
    const [short, long] = await Promise.all([
      runCli('verify', ['-h'], { env: PLAIN }),
      runCli('verify', ['--help'], { env: PLAIN }),
    ]);
    expect(short.code).toBe(0);
    expect(short.stdout).toBe(long.stdout);
  });

  it.each(REPRESENTATIVE)('%s: an unknown option is one line naming it and where help is, exit 2', (tool) =>
    checkUnknownOption(tool, inProcess),
  );

  it('a bad value is one line naming the option, exit 2: never NaN rounds or a stack trace', () =>
    checkBadValues([
      ['fixture', [], /^error: missing <content dir> \(npm run fixture -- --help\)\n$/],
      ['fixture', ['x', '--scale', 'big'], /^error: --scale must be a positive number, not big\n$/],
      ['import', ['standard-ebooks'], /^error: missing <source> or <edition dir> \(npm run import -- --help\)\n$/],
    ]));

  it('a bad value of the build is one line naming the option, exit 2', () =>
    checkBadValues(
      [['build', ['--out'], /^error: Option '--out <value>' argument missing \(npm run build -- --help\)\n$/]],
      inProcess,
    ));

  it('colours its error on request (FORCE_COLOR), and never in a pipe or with NO_COLOR', async () => {
    const forced = await runInProcess('build', ['--page-size', 'x'], {
      env: { FORCE_COLOR: '1', NO_COLOR: undefined },
    });
    const ESC = String.fromCharCode(27);
    expect(forced.stderr.startsWith(`${ESC}[1m${ESC}[31merror:${ESC}[39m${ESC}[22m --page-size`)).toBe(true);
    const piped = await runInProcess('build', ['--page-size', 'x'], {
      env: { FORCE_COLOR: undefined, NO_COLOR: undefined },
    });
    expect(piped.stderr).toBe('error: --page-size must be a positive whole number, not x\n');
  });
});

describe('the package command, bin/pepys-api.mjs', () => {
  const bin = fileURLToPath(new URL('../bin/pepys-api.mjs', import.meta.url));
  const run = (args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

  it("speaks in its own words: each command's usage and errors name `pepys-api <command>`", () => {
    const help = run(['build', '--help']);
    expect([help.status, help.stdout.split('\n')[0]]).toEqual([0, 'usage: pepys-api build [options]']);
    const wrong = run(['serve', '--no-such-option']);
    expect([wrong.status, wrong.stderr]).toEqual([
      2,
      "error: Unknown option '--no-such-option' (pepys-api serve --help)\n",
    ]);
    const unknown = run(['publish']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^error: unknown command "publish"\n\nusage: pepys-api <command>/);
    expect(run(['--version']).stdout).toMatch(/^pepys-static-api \d+\.\d+\.\d+ \(Node v\d+/);
  });
});

describe('colourOn', () => {
  it('is on for a terminal only, off with NO_COLOR or TERM=dumb, and FORCE_COLOR decides over all', () => {
    const tty = { isTTY: true };
    const pipe = { isTTY: false };
    expect(colourOn(tty, {})).toBe(true);
    expect(colourOn(pipe, {})).toBe(false);
    expect(colourOn(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colourOn(tty, { NO_COLOR: '' })).toBe(true);
    expect(colourOn(tty, { TERM: 'dumb' })).toBe(false);
    expect(colourOn(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourOn(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourOn(tty, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
  });
});
