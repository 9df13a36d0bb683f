// Puts a rendered site on disk atomically: everything is written into a staging directory beside
// the output, which then replaces the output with two renames. A failure before the swap leaves
// the previous output exactly as it was.

import { mkdirSync, renameSync, rmSync, existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { OutputFile } from './render-site.ts';

export interface WriteStats {
  files: number;
  bytes: number;
}

/** Writes files under `dir` (which must exist), `concurrency` at a time. */
export async function writeFiles(dir: string, files: readonly OutputFile[], concurrency = 32): Promise<WriteStats> {
  const dirs = new Set<string>();
  for (const f of files) dirs.add(dirname(f.path));
  for (const d of [...dirs].sort()) mkdirSync(join(dir, d), { recursive: true });
  let next = 0;
  let bytes = 0;
  const worker = async () => {
    while (next < files.length) {
      const f = files[next++] as OutputFile;
      const data = Buffer.from(f.body, 'utf8');
      bytes += data.length;
      await writeFile(join(dir, f.path), data);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  return { files: files.length, bytes };
}

export function stagingDir(outDir: string, role: 'next' | 'prev'): string {
  return join(dirname(outDir), `.${basename(outDir)}-${role}-${process.pid}`);
}

/**
 * Writes `files` as the new content of `outDir`. The old tree is moved aside and removed after
 * the swap (call `removed` to wait for that).
 */
export async function writeSiteAtomically(outDir: string, files: readonly OutputFile[]): Promise<WriteStats & { removed: Promise<void> }> {
  const next = stagingDir(outDir, 'next');
  const prev = stagingDir(outDir, 'prev');
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  let stats: WriteStats;
  try {
    stats = await writeFiles(next, files);
  } catch (err) {
    rmSync(next, { recursive: true, force: true });
    throw err;
  }
  const hadOld = existsSync(outDir);
  if (hadOld) renameSync(outDir, prev);
  try {
    renameSync(next, outDir);
  } catch (err) {
    if (hadOld) renameSync(prev, outDir);
    throw err;
  }
  const removed = hadOld ? rm(prev, { recursive: true, force: true }) : Promise.resolve();
  return { ...stats, removed };
}
