// Every temporary file of a test run, whoever makes it (a test, a build it starts, a child
// process), goes under one directory of the run's own, removed when the run ends: a run leaves
// nothing behind in the machine's TMPDIR, even when a test fails before its own clean-up.

import { accessSync, constants, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The variable naming the run's directory on disk, for the few tests that need a disk. */
export const DISK_TMPDIR = 'PEPYS_TEST_DISK_TMPDIR';

/**
 * Linux's shared-memory file system, when there is one with room: creating and deleting
 * thousands of small files there is far faster than on a disk, and the suite does little else.
 */
function memoryBacked(): string | null {
  try {
    accessSync('/dev/shm', constants.W_OK);
    const s = statfsSync('/dev/shm');
    return s.bavail * s.bsize > 2 * 1024 ** 3 ? '/dev/shm' : null;
  } catch {
    return null;
  }
}

export default function setup(): () => void {
  const disk = mkdtempSync(join(tmpdir(), 'pepys-test-run-'));
  const shm = memoryBacked();
  const root = shm === null ? disk : mkdtempSync(join(shm, 'pepys-test-run-'));
  const previous = process.env.TMPDIR;
  // Test workers and the processes they start inherit these; os.tmpdir() reads TMPDIR each time.
  process.env.TMPDIR = root;
  process.env[DISK_TMPDIR] = disk;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    delete process.env[DISK_TMPDIR];
    rmSync(root, { recursive: true, force: true });
    rmSync(disk, { recursive: true, force: true });
  };
}
