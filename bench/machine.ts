// The facts of the machine a run measured, printed with the table and kept in the JSON: figures
// are only comparable between runs on the same kind of machine.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  fileSystem: string;
  loadAverage: number[];
  commit: string;
}

/** The type and options of the file system that holds `path` (Linux only; 'unknown' elsewhere). */
function fileSystemOf(path: string): string {
  try {
    const mounts = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' '));
    let best: string[] | undefined;
    for (const m of mounts) {
      const at = m[1];
      if (
        at !== undefined &&
        (path === at || path.startsWith(at === '/' ? '/' : `${at}/`)) &&
        (best === undefined || at.length > (best[1] as string).length)
      )
        best = m;
    }
    return best === undefined ? 'unknown' : `${best[2]} (${best[3]})`;
  } catch {
    return 'unknown';
  }
}

function commitOf(repo: string): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: repo, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} + uncommitted changes` : head;
  } catch {
    return 'unknown';
  }
}

export function machineFacts(repo: string): Machine {
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    fileSystem: fileSystemOf(repo),
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
    commit: commitOf(repo),
  };
}

/** The 1-minute load average, sampled every second while a run lasts: how busy the machine was. */
export function sampleLoad(): { stop(): { min: number; max: number; mean: number; samples: number } } {
  const samples: number[] = [];
  const take = () => samples.push(os.loadavg()[0] ?? 0);
  take();
  const timer = setInterval(take, 1000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      take();
      const round = (x: number) => Math.round(x * 100) / 100;
      return {
        min: round(Math.min(...samples)),
        max: round(Math.max(...samples)),
        mean: round(samples.reduce((a, b) => a + b, 0) / samples.length),
        samples: samples.length,
      };
    },
  };
}
