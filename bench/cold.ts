// Cold full builds (a new process, no output directory, nothing cached but the compiled
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

/** `node --import tsx generator/cli/build.ts`: what `npm run build` runs, without npm and tsx's CLI. */
export async function coldBuild(repo: string, contentDir: string, outDir: string, trash: Trash): Promise<BuildRun> {
  const reportFile = `${outDir}.report.json`;
  trash.put(outDir);
  flushDisk();
  const run = await mustRun(
    process.execPath,
    ['--import', 'tsx', 'generator/cli/build.ts', '--content', contentDir, '--out', outDir, '--quiet', '--report', reportFile],
    { cwd: repo },
  );
  const r = JSON.parse(readFileSync(reportFile, 'utf8')) as Omit<BuildRun, 'wallMs' | 'cpuMs'> & { cpuMs: { user: number; system: number } };
  return { wallMs: run.wallMs, cpuMs: r.cpuMs.user + r.cpuMs.system, maxRssBytes: r.maxRssBytes, files: r.files, bytes: r.bytes, timings: r.timings };
}

/** The same build as users start it, `npm run build`: adds npm's and tsx's own start-up. */
export async function npmBuild(repo: string, contentDir: string, outDir: string, trash: Trash): Promise<number> {
  trash.put(outDir);
  flushDisk();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return (await mustRun(npm, ['run', '-s', 'build', '--', '--content', contentDir, '--out', outDir, '--quiet'], { cwd: repo })).wallMs;
}

/** The floor: `cp -r` of a finished tree into a fresh directory (the last copy renamed away first). */
export async function copyTree(from: string, to: string, trash: Trash): Promise<number> {
  trash.put(to);
  flushDisk();
  return (await mustRun('cp', ['-r', from, to])).wallMs;
}
