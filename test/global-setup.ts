// Every temporary file of a test run, whoever makes it (a test, a build it starts, a child
// process), goes under one directory of the run's own, removed when the run ends: a run leaves
// nothing behind in the machine's TMPDIR, even when a test fails before its own clean-up.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'pepys-test-run-'));
  const previous = process.env.TMPDIR;
  // Test workers and the processes they start inherit it; os.tmpdir() reads it at every call.
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
