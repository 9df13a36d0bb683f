// Small measuring tools shared by the scenarios: medians, timed child processes, a trash for old
// trees (renamed away, never deleted between measured runs) and flushing the disk between runs.

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export interface Timed {
  wallMs: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end and times it from spawn to exit. */
export function timed(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ wallMs: performance.now() - started, code, stdout, stderr }));
  });
}

/** Runs a command that must succeed; throws with its output otherwise. */
export async function mustRun(
  command: string,
  args: readonly string[],
  options: { cwd?: string } = {},
): Promise<Timed> {
  const r = await timed(command, args, options);
  if (r.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.code}):\n${r.stderr || r.stdout}`);
  return r;
}

/** Flushes dirty pages, so that one run's writes are not paid for by the next one. */
export function flushDisk(): void {
  try {
    execFileSync('sync');
  } catch {
    // Not on this system: the medians have to absorb it.
  }
}

/**
 * Old trees go here by rename, which is instant: deleting thousands of files right before a
 * measured run slows the file creation of that run on some file systems. Emptied at the end.
 */
export class Trash {
  private n = 0;
  readonly dir: string;
  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
  }
  /**
   * Moves `path` into the trash if it exists. Only a missing `path` is let go: a trash that cannot
   * take it throws (it once swallowed the ENOENT of an emptied trash, and bench:layout built over
   * the last run's output, a rebuild it timed as a cold build).
   */
  put(path: string): void {
    try {
      lstatSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    mkdirSync(this.dir, { recursive: true });
    renameSync(path, join(this.dir, `${Date.now()}-${this.n++}`));
  }
  /** Deletes what the trash holds; it takes more afterwards. */
  empty(): void {
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true });
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** How long after a clean-up the next run waits before measuring. */
const SETTLE_MS = 180_000;
const CLEANED_AT = 'cleaned-at';

/**
 * A bench's clean-up deletes tens of thousands of files; creating files soon after that is slow on
 * some file systems (this machine's, for minutes): waits until SETTLE_MS after the last clean-up
 * any bench recorded in `work` (see cleanedUp).
 */
export async function waitForSettledDisk(work: string, log: (line: string) => void): Promise<void> {
  const file = join(work, CLEANED_AT);
  if (!existsSync(file)) return;
  const waitMs = SETTLE_MS - (Date.now() - Number(readFileSync(file, 'utf8')));
  if (waitMs <= 0) return;
  log(
    `waiting ${Math.ceil(waitMs / 1000)} s for the file system to settle after the last run's clean-up (--no-wait to skip) …`,
  );
  await sleep(waitMs);
}

/** Records that a bench's clean-up has just deleted its trees (see waitForSettledDisk). */
export function cleanedUp(work: string): void {
  writeFileSync(join(work, CLEANED_AT), String(Date.now()));
}
