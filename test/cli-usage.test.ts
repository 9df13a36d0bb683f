// Every command behaves as the field's do (Hugo, Eleventy, Datasette): -h/--help and --version,
// a usage error in one line with exit 2 and never a stack trace; colour only where it is wanted.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { colourOn } from '../generator/cli/colour.ts';
import { runCli, TOOLS } from './helpers/cli.ts';

const COMMANDS = Object.keys(TOOLS) as Array<keyof typeof TOOLS>;
const VERSION = /^pepys-static-api \d+\.\d+\.\d+ \(Node v\d+\.\d+\.\d+\)\n$/;
// Plain output: the tests read what a pipe gets.
const PLAIN = { NO_COLOR: '1', FORCE_COLOR: undefined };

describe.concurrent('every command', () => {
  it.each(COMMANDS)('%s: --help prints its usage to stdout, --version the version; exit 0', async (tool) => {
    // -h is the same option of the same parser (cli/options.ts): tried on one command below.
    const [help, version] = await Promise.all([
      runCli(tool, ['--help'], { env: PLAIN }),
      runCli(tool, ['--version'], { env: PLAIN }),
    ]);
    expect(help.code, `${tool} --help: ${help.stderr}`).toBe(0);
    expect(help.stdout).toMatch(/^usage: (npm (start|run [\w:-]+)|pepys-api init)/);
    expect(help.stdout).toContain('--version');
    expect(help.stderr).toBe('');
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(VERSION);
  });

  it('-h is --help', async () => {
    const [short, long] = await Promise.all([
      runCli('verify', ['-h'], { env: PLAIN }),
      runCli('verify', ['--help'], { env: PLAIN }),
    ]);
    expect(short.code).toBe(0);
    expect(short.stdout).toBe(long.stdout);
  });

  it.each(COMMANDS)('%s: an unknown option is one line naming it and where help is, exit 2', async (tool) => {
    const r = await runCli(tool, ['--no-such-option'], { env: PLAIN });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: Unknown option '--no-such-option' \((npm (start|run [\w:-]+) --|pepys-api init) --help\)\n$/,
    );
  });

  it('a bad value is one line naming the option, exit 2: never NaN rounds or a stack trace', async () => {
    const cases = [
      ['bench', ['--runs', 'abc'], /^error: --runs must be a whole number from 1, not "abc"\n$/],
      ['bench:search', ['--runs', '0'], /^error: --runs must be a whole number from 1, not "0"\n$/],
      ['bench:rebuild', ['--runs', '0'], /^error: --runs must be a whole number from 1, not "0"\n$/],
      ['bench', ['--corpus', '/no/such/corpus'], /^error: --corpus: \/no\/such\/corpus does not exist\n$/],
      ['fixture', [], /^error: missing <content dir> \(npm run fixture -- --help\)\n$/],
      ['fixture', ['x', '--scale', 'big'], /^error: --scale must be a positive number, not big\n$/],
      ['import', ['standard-ebooks'], /^error: missing <source> or <edition dir> \(npm run import -- --help\)\n$/],
      ['build', ['--out'], /^error: Option '--out <value>' argument missing \(npm run build -- --help\)\n$/],
    ] as const;
    const results = await Promise.all(cases.map(([tool, args]) => runCli(tool, args, { env: PLAIN })));
    cases.forEach(([tool, args, message], i) => {
      const r = results[i] as Awaited<ReturnType<typeof runCli>>;
      expect(r.code, `${tool} ${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr, `${tool} ${args.join(' ')}`).toMatch(message);
    });
  });

  it('colours its error on request (FORCE_COLOR), and never in a pipe or with NO_COLOR', async () => {
    const forced = await runCli('build', ['--page-size', 'x'], { env: { FORCE_COLOR: '1', NO_COLOR: undefined } });
    const ESC = String.fromCharCode(27);
    expect(forced.stderr.startsWith(`${ESC}[1m${ESC}[31merror:${ESC}[39m${ESC}[22m --page-size`)).toBe(true);
    const piped = await runCli('build', ['--page-size', 'x'], { env: { FORCE_COLOR: undefined, NO_COLOR: undefined } });
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
