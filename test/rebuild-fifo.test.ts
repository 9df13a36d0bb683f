// A content file that is not a regular file, met by a build over its own earlier output (issue 36,
// item 1). The check whether anything changed (content/fingerprint.ts) once read every content
// file whole before the build looked at what it was: a FIFO made `npm run build` and `npm start`
// wait for a writer for ever (the server then ignored SIGTERM), a device (/dev/zero) was read
// without end. Now every reader of content opens only a regular file (content/read-regular.mjs),
// and the rebuild fails exactly as the cold build does. Run as a user runs them (child processes,
// killed should they hang), on a small site.

import { execFileSync } from 'node:child_process';
import { readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { type CliResult, type Running, startCli } from './helpers/cli.ts';
import { smallSite, writeContent } from './helpers/content.ts';
import { readTreeBytes } from './helpers/files.ts';
import { tempDir } from './helpers/temp.ts';

vi.setConfig({ testTimeout: 60_000 });

const HANG_MS = 15_000;
const FILE = 'entries/1660/f.html';
const canFifo = process.platform !== 'win32';

/** The tool's end, or its SIGKILL after HANG_MS (a hang is then a failed expectation, not a stuck run). */
async function ended(running: Running): Promise<CliResult & { hung: boolean }> {
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    running.child.kill('SIGKILL');
  }, HANG_MS);
  const r = await running.done;
  clearTimeout(timer);
  return { ...r, hung };
}

const build = (content: string, out: string, more: string[] = [], env: Record<string, string> = {}) =>
  ended(startCli('build', ['--quiet', '--content', content, '--out', out, ...more], { env }));

/** The error lines, the output's own path put as OUT (the cold build's and the rebuild's differ). */
const lines = (stderr: string, out: string) => stderr.replaceAll(out, 'OUT');

/** The files a lock or a killed build may leave beside the output. */
const beside = (out: string) => readdirSync(dirname(out)).filter((n) => n.includes('-lock'));

describe.skipIf(!canFifo)('a content file replaced by a FIFO or a device between two builds', () => {
  it('the rebuild fails as the cold build does (exit 1, the same lines), the output kept, no lock left', async () => {
    // A link to /dev/zero stands for `mknod … c 1 5` (which needs root): content may link outside
    // itself when allowed.
    const env = { PEPYS_ALLOW_OUTSIDE_LINKS: '1' };
    const content = writeContent(smallSite());
    const out = join(tempDir('pepys-fifo-'), 'public');
    expect((await build(content, out, [], env)).code).toBe(0);
    const before = readTreeBytes(realpathSync(out));

    execFileSync('mkfifo', [join(content, FILE)]);
    const rebuild = await build(content, out, [], env);
    expect(rebuild.hung, 'the rebuild hung on the FIFO').toBe(false);
    expect(rebuild.code, rebuild.stderr).toBe(1);
    expect(rebuild.stderr).toContain(`${FILE}: is a FIFO (named pipe), not a regular file`);
    expect(rebuild.stderr).toContain(`${out} was left as it was`);
    expect(readTreeBytes(realpathSync(out))).toEqual(before);
    expect(beside(out)).toEqual([]);
    // The same lines as a cold build of the same content.
    const coldOut = join(tempDir('pepys-fifo-cold-'), 'public');
    const cold = await build(content, coldOut, [], env);
    expect(cold.code).toBe(1);
    expect(lines(rebuild.stderr, out)).toBe(lines(cold.stderr, coldOut));

    rmSync(join(content, FILE));
    symlinkSync('/dev/zero', join(content, FILE));
    const device = await build(content, out, [], env);
    expect(device.hung, 'the rebuild read the device without end').toBe(false);
    expect(device.code, device.stderr).toBe(1);
    expect(lines(device.stderr, out)).toBe(
      lines(rebuild.stderr, out).replace('is a FIFO (named pipe), not', 'is a device, not'),
    );
    expect(readTreeBytes(realpathSync(out))).toEqual(before);
    expect(beside(out)).toEqual([]);
  });
});
