// The command-line tools run as a user runs them (npm's scripts): a real `node` process running
// generator/cli/node-ts.mjs, on real files. Used by the tests of faults and refusals (exit status, the one line printed).

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '../..');
/** The launcher npm's scripts use, by absolute path, so that a tool can run from any working directory. */
const NODE_TS = join(REPO, 'generator/cli/node-ts.mjs');

export const TOOLS = {
  build: join(REPO, 'generator/cli/build.ts'),
  start: join(REPO, 'generator/cli/start.ts'),
  import: join(REPO, 'generator/import/cli.ts'),
  verify: join(REPO, 'generator/cli/verify.ts'),
  init: join(REPO, 'generator/cli/init.ts'),
  fixture: join(REPO, 'scripts/fixture-encyclopedia.ts'),
  bench: join(REPO, 'bench/run.ts'),
  'bench:search': join(REPO, 'bench/search.ts'),
  'bench:rebuild': join(REPO, 'bench/rebuild.ts'),
  'bench:edge-bundle': join(REPO, 'bench/edge-bundle.ts'),
} as const;

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** A command to run the tool under, e.g. ['setpriv', '--bounding-set', '-dac_override', '--']. */
  wrap?: readonly string[];
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A tool that was started: its output so far, its end, and a way to wait for a line. */
export interface Running {
  child: ChildProcess;
  output: { stdout: string; stderr: string };
  done: Promise<CliResult>;
  /** The first match of `pattern` in everything the stream has printed (so far or later). */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

/** Starts a tool; the caller waits for it or stops it. */
export function startCli(tool: keyof typeof TOOLS, args: readonly string[], options: CliOptions = {}): Running {
  const argv = [process.execPath, NODE_TS, TOOLS[tool], ...args];
  const [command, ...rest] = [...(options.wrap ?? []), ...argv];
  const child = spawn(command as string, rest, {
    cwd: options.cwd ?? REPO,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  let exited = false;
  const waiters = new Set<() => void>();
  const poke = (): void => {
    for (const w of waiters) w();
  };
  child.stdout?.on('data', (d: Buffer) => {
    output.stdout += d.toString();
    poke();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output.stderr += d.toString();
    poke();
  });
  const done = new Promise<CliResult>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      exited = true;
      poke();
      resolvePromise({ code, signal, ...output });
    });
  });
  const waitFor = (stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> =>
    new Promise((resolvePromise, reject) => {
      const check = (): void => {
        const m = pattern.exec(output[stream]);
        if (m !== null || exited) {
          clearTimeout(timer);
          waiters.delete(check);
          if (m !== null) resolvePromise(m);
          else reject(new Error(`exited before ${pattern} on ${stream}:\n${output.stdout}${output.stderr}`));
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${pattern} on ${stream} within ${timeoutMs} ms:\n${output.stdout}${output.stderr}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return { child, output, done, waitFor };
}

/** Runs a tool to its end. */
export function runCli(
  tool: keyof typeof TOOLS,
  args: readonly string[],
  options: CliOptions = {},
): Promise<CliResult> {
  return startCli(tool, args, options).done;
}

/**
 * How to run a tool so that file modes apply to it: as is for an ordinary user; for root, under
 * `setpriv` without the capabilities that let root ignore them (CAP_DAC_OVERRIDE,
 * CAP_DAC_READ_SEARCH). Null when neither is possible here.
 */
export const UNPRIVILEGED: readonly string[] | null = ((): readonly string[] | null => {
  if (process.getuid?.() !== 0) return [];
  const wrap = ['setpriv', '--bounding-set', '-dac_override,-dac_read_search', '--'];
  try {
    execFileSync(wrap[0] as string, [...wrap.slice(1), 'true'], { stdio: 'ignore' });
    return wrap;
  } catch {
    return null;
  }
})();
