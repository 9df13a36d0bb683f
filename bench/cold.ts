// Cold full builds (a new process, no output directory, nothing cached but the stripped
// TypeScript) and the floor: copying the finished output tree to a fresh directory.

import { readFileSync } from 'node:fs';
import { flushDisk, mustRun, type Trash } from './measure.ts';

export interface BuildRun {
  wallMs: number;
  cpuMs: number;
  maxRssBytes: number;
  files: number;
  bytes: number;
  timings: { load: number; validate: number; render: number; write: number; total: number };
}

/**
 * A cold build. `via: 'npm'` is `npm run build` exactly as a user runs it (npm, then the build
 * process, then its threads: wall time from spawn to exit); `via: 'node'` runs the same command
 * without npm (`node generator/cli/node-ts.mjs generator/cli/build.ts`), to tell npm's share.
 */
export async function coldBuild(
  repo: string,
  contentDir: string,
  outDir: string,
  trash: Trash,
  via: 'npm' | 'node',
): Promise<BuildRun> {
  const reportFile = `${outDir}.report.json`;
  trash.put(outDir);
  flushDisk();
  const args = ['--content', contentDir, '--out', outDir, '--quiet', '--report', reportFile];
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run =
    via === 'npm'
      ? await mustRun(npm, ['run', '-s', 'build', '--', ...args], { cwd: repo })
      : await mustRun(process.execPath, ['generator/cli/node-ts.mjs', 'generator/cli/build.ts', ...args], {
          cwd: repo,
        });
  const r = JSON.parse(readFileSync(reportFile, 'utf8')) as Omit<BuildRun, 'wallMs' | 'cpuMs'> & {
    cpuMs: { user: number; system: number };
  };
  return {
    wallMs: run.wallMs,
    cpuMs: r.cpuMs.user + r.cpuMs.system,
    maxRssBytes: r.maxRssBytes,
    files: r.files,
    bytes: r.bytes,
    timings: r.timings,
  };
}

/** The floor: `cp -r` of a finished tree into a fresh directory (the last copy renamed away first). */
export async function copyTree(from: string, to: string, trash: Trash): Promise<number> {
  trash.put(to);
  flushDisk();
  return (await mustRun('cp', ['-r', from, to])).wallMs;
}
