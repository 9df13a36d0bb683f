// Who holds an output's lock (output/lock.ts; issue 36, items 9 and 18). A lock naming a live pid
// that is not the process that took it (pid 1, a pid reused after a reboot) once refused every
// build for as long as that process lived; now the lock is held only by the very process that
// took it: the same start time where the system says (Linux's /proc), else a command line of
// this generator's. And what a lock says is printed as one line: a newline in its command cannot
// fake a second line of the error.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockOutput } from '../generator/output/lock.ts';
import { commandLineOf, isGeneratorCommand, startedAt } from '../generator/output/process-identity.ts';
import { startCli } from './helpers/cli.ts';
import { smallSite, writeContent } from './helpers/content.ts';
import { tempDir } from './helpers/temp.ts';

const hasProc = existsSync('/proc/self/stat');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

/**
 * A live process that is not a build, or (`asBuild`) one whose command line is a build's, once it
 * runs its script. Its 'spawn' event comes when the exec has closed the pipe libuv waits on, which
 * Linux does before it sets the new command line: read in between, /proc/<pid>/cmdline is empty.
 * On a loaded machine the test once took such a lock over (the holder not a build, by its command).
 */
async function liveProcess(asBuild = false): Promise<number> {
  const script = "process.stdout.write('ready\\n'); setTimeout(() => {}, 60_000)";
  const args = ['-e', script, ...(asBuild ? ['generator/cli/build.ts', '--out', 'x'] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  await new Promise((resolve, reject) => {
    child.stdout?.once('data', resolve);
    child.once('error', reject);
  });
  return child.pid as number;
}

/** An output directory whose lock says `holder`; the lock's path. */
function lockedBy(holder: object): { out: string; lock: string } {
  const parent = tempDir('pepys-lock-holder-');
  const lock = join(parent, '.public-lock');
  writeFileSync(
    lock,
    `${JSON.stringify({ command: 'npm run build', since: '2026-01-01T00:00:00.000Z', ...holder })}\n`,
  );
  return { out: join(parent, 'public'), lock };
}

/** Takes the lock; what refused it, or null when taken (then released). */
function take(out: string): string | null {
  try {
    lockOutput(out, 'test')();
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('a lock is taken over unless the process that took it still runs', () => {
  it('pid 1 (a live process that is not a build): taken over', () => {
    const init = commandLineOf(1);
    if (init !== null) expect(isGeneratorCommand(init)).toBe(false);
    const { out, lock } = lockedBy({ pid: 1 });
    expect(take(out)).toBeNull();
    expect(existsSync(lock)).toBe(false);
  });

  it('pid 0 or a negative pid (a signal to a whole group answers for them): taken over', () => {
    for (const pid of [0, -1]) expect(take(lockedBy({ pid }).out)).toBeNull();
  });

  it('a live process that is not a build, in a lock of an earlier version (no start time): taken over', async () => {
    expect(take(lockedBy({ pid: await liveProcess() }).out)).toBeNull();
  });

  it('a live build, in a lock of an earlier version: refused', async () => {
    const pid = await liveProcess(true);
    expect(take(lockedBy({ pid }).out)).toMatch(new RegExp(`being written by npm run build \\(pid ${pid},`));
  });

  it.skipIf(!hasProc)(
    'its pid reused by another process (another start time, or another boot): taken over',
    async () => {
      const pid = await liveProcess(true);
      const now = startedAt(pid);
      expect(now).not.toBeNull();
      const { boot, start } = now as { boot: string; start: string };
      expect(take(lockedBy({ pid, started: { boot, start: String(Number(start) - 1) } }).out)).toBeNull();
      expect(take(lockedBy({ pid, started: { boot: 'another-boot', start } }).out)).toBeNull();
      // The very process: refused.
      expect(take(lockedBy({ pid, started: { boot, start } }).out)).toMatch(/being written by npm run build/);
    },
  );

  it.skipIf(!hasProc)('a lock this generator takes records when its process started', () => {
    const out = join(tempDir('pepys-lock-holder-'), 'public');
    const release = lockOutput(out, 'npm run build');
    const held = JSON.parse(readFileSync(join(out, '..', '.public-lock'), 'utf8')) as { pid: number; started: unknown };
    expect(held.pid).toBe(process.pid);
    expect(held.started).toEqual(startedAt(process.pid));
    release();
  });
});

describe("the holder's command is printed as one line", () => {
  it('a newline, an escape or a bidirectional override in it is escaped', async () => {
    const pid = await liveProcess(true);
    const { out } = lockedBy({ pid, command: 'npm run build\nerror: fake\u001b[31m\u202e', since: 'now\r\nerror: x' });
    const message = take(out) as string;
    for (const c of ['\n', '\r', '\u001b', '\u202e']) expect(message).not.toContain(c);
    expect(message).toContain('npm run build\\u{a}error: fake\\u{1b}[31m\\u{202e}');
    expect(message).toContain('since now\\u{d}\\u{a}error: x');
  });

  it('a command of 60,000 characters is shortened', async () => {
    const pid = await liveProcess(true);
    const message = take(lockedBy({ pid, command: 'x'.repeat(60_000) }).out) as string;
    expect(message.length).toBeLessThan(1000);
  });
});

describe.skipIf(process.platform === 'win32')('a lock that is not a file', () => {
  it('a FIFO in its place is not waited on: the build takes the lock over', async () => {
    const parent = tempDir('pepys-lock-fifo-');
    execFileSync('mkfifo', [join(parent, '.public-lock')]);
    const build = startCli('build', [
      '--quiet',
      '--content',
      writeContent(smallSite()),
      '--out',
      join(parent, 'public'),
    ]);
    const timer = setTimeout(() => build.child.kill('SIGKILL'), 20_000);
    const r = await build.done;
    clearTimeout(timer);
    expect(r.signal, 'the build waited on the FIFO').toBeNull();
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(parent, '.public-lock'))).toBe(false);
  }, 30_000);
});
