// The tests' one way to get a temporary directory: removed after the test file that made it
// (test/helpers/per-file.ts, a setup file of both configs; and, as a safety net, with the whole
// run's TMPDIR: see test/global-setup.ts).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/**
 * Removes every directory tempDir() made since the last call. Registered per test file by
 * per-file.ts, not here: files may share this module (vitest.config.ts isolate: false), and a hook
 * registered when it is first imported would belong to the first file alone.
 */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A fresh, empty directory under the run's TMPDIR (in memory where the machine allows), or on
 * disk with `{ disk: true }` (for a program that will not touch /dev, such as Deno).
 */
export function tempDir(prefix = 'pepys-', options: { disk?: boolean } = {}): string {
  const base = options.disk === true ? (process.env.PEPYS_TEST_DISK_TMPDIR ?? tmpdir()) : tmpdir();
  const dir = mkdtempSync(join(base, prefix));
  made.push(dir);
  return dir;
}
