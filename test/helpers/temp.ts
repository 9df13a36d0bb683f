// The tests' one way to get a temporary directory: removed after the test file that made it
// (and, as a safety net, with the whole run's TMPDIR: see test/global-setup.ts).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
// Each test file has its own module registry, so this runs after each file's tests.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

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
