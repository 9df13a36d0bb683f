// Expected faults of the machine, caused for real and met as a user meets them: a full disk and a
// read-only file system (a small tmpfs), an output that is a mount point, permission denied
// (root ignores file modes, so the tool runs without the capabilities that let it), a port in
// use. Each gives one line naming the path or port and the cause, the right exit status, and
// leaves the last good output whole and in place. Where the machine does not allow the fault to
// be made (no mount, no setpriv), the test is skipped with the reason, never faked.

import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../../generator/build.ts';
import { failureMessage } from '../../generator/cli/exit.ts';
import { type CliResult, runCli, startCli, UNPRIVILEGED } from '../helpers/cli.ts';
import { smallSite, writeContent } from '../helpers/content.ts';
import { mediumSite } from '../helpers/medium-site.ts';
import { snapshot } from '../helpers/snapshot.ts';
import { tempDir } from '../helpers/temp.ts';

const isRoot = process.getuid?.() === 0;

function succeeds(command: string, args: readonly string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const mounted: string[] = [];
function mount(args: readonly string[], dir: string): void {
  execFileSync('mount', [...args, dir], { stdio: 'ignore' });
  mounted.push(dir);
}
function unmount(dir: string): void {
  const i = mounted.indexOf(dir);
  if (i === -1) return;
  mounted.splice(i, 1);
  if (!succeeds('umount', [dir])) succeeds('umount', ['-l', dir]);
}
/** A fresh tmpfs of `size` mounted in a new temporary directory (unmounted by the test, or after all). */
function tmpfs(prefix: string, size: string): string {
  const mnt = join(tempDir(prefix), 'disk');
  mkdirSync(mnt);
  mount(['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs'], mnt);
  return mnt;
}
// Before the temporary directories are removed (a mount inside one would stop that).
afterAll(() => {
  for (const dir of [...mounted].reverse()) unmount(dir);
});

/** Whether this sandbox lets the test mount a tmpfs (root with CAP_SYS_ADMIN). */
const canMount = ((): boolean => {
  if (!isRoot) return false;
  const probe = join(tempDir('pepys-mount-probe-'), 'm');
  mkdirSync(probe);
  if (!succeeds('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe])) return false;
  return succeeds('umount', [probe]);
})();
if (!canMount)
  console.warn(
    'cli-faults: disk-full, read-only and mount-point tests skipped: this machine does not let the tests mount a tmpfs (needs root)',
  );

const asUser = UNPRIVILEGED;
if (asUser === null)
  console.warn(
    'cli-faults: permission-denied test skipped: running as root without setpriv, file modes cannot stop the build',
  );

/** Exit `status`, one line on stderr, matching `line`. */
function expectOneLine(r: CliResult, status: number, line: RegExp): void {
  expect(r.code, r.stderr).toBe(status);
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(line);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

/** The previous output: a build of `content` for another origin than the next one's. */
const oldBuild = (content: string, out: string) =>
  build({ contentDir: content, outDir: out, quiet: true, env: {}, overrides: { apiOrigin: 'https://old.test' } });

const buildArgs = (content: string, out: string, origin: string) => [
  '--quiet',
  '--content',
  content,
  '--out',
  out,
  '--api-origin',
  origin,
];

describe.skipIf(!canMount)('a full disk, a read-only file system, mount points', { concurrent: true }, () => {
  it('disk full (ENOSPC): one line, exit 1, the previous output whole; the next build, with room, succeeds', async () => {
    const content = writeContent(smallSite());
    const mnt = tmpfs('pepys-full-', '8m');
    try {
      const out = join(mnt, 'public');
      await oldBuild(content, out);
      const before = snapshot(out);
      // Fill the disk but for 64 KiB: the new tree cannot be written beside the old one.
      const { bavail, bsize } = statfsSync(mnt);
      writeFileSync(join(mnt, 'filler'), Buffer.alloc(Math.max(0, bavail * bsize - 65536)));
      const r = await runCli('build', buildArgs(content, out, 'https://new.test'));
      expectOneLine(
        r,
        1,
        /no space left on the device \(ENOSPC\) writing .*\/\.public-(?:next-\d+|gen-a)\/.*; .*\/public was left as it was$/,
      );
      expect(snapshot(out)).toEqual(before);
      // The tree the rebuild was writing stays for the next one (output/rebuild.ts), if made.
      expect(
        readdirSync(mnt)
          .filter((n) => n !== '.public-gen-a')
          .sort(),
      ).toEqual(['filler', 'public']);
      rmSync(join(mnt, 'filler'));
      const again = await runCli('build', buildArgs(content, out, 'https://new.test'));
      expect(again.code, again.stderr).toBe(0);
      expect(snapshot(out)).not.toEqual(before);
    } finally {
      unmount(mnt);
    }
  });

  it('read-only file system (EROFS): one line, exit 1, the previous output whole', async () => {
    const content = writeContent(smallSite());
    const mnt = tmpfs('pepys-ro-', '8m');
    try {
      const out = join(mnt, 'public');
      await oldBuild(content, out);
      const before = snapshot(out);
      execFileSync('mount', ['-o', 'remount,ro', mnt]);
      const r = await runCli('build', buildArgs(content, out, 'https://new.test'));
      expectOneLine(
        r,
        1,
        /the file system is read-only \(EROFS\) creating the directory .*\/\.public-next-\d+; .*\/public was left as it was$/,
      );
      expect(snapshot(out)).toEqual(before);
    } finally {
      unmount(mnt);
    }
  });

  it('an output that is a mount point: refused before any work, saying what to do (exit 2)', async () => {
    const content = writeContent(smallSite());
    const mnt = tmpfs('pepys-mnt-', '1m');
    try {
      const r = await runCli('build', buildArgs(content, mnt, 'https://new.test'));
      expectOneLine(
        r,
        2,
        /is a mount point, which a build cannot replace .*use a directory inside it, e\.g\. --out .*\/disk\/public$/,
      );
      expect(readdirSync(mnt)).toEqual([]);
    } finally {
      unmount(mnt);
    }
  });

  it('a bind mount of the output onto itself (same device): refused when the swap fails, nothing left behind', async () => {
    const content = writeContent(smallSite());
    const parent = tempDir('pepys-bind-');
    const out = join(parent, 'public');
    await oldBuild(content, out);
    const before = snapshot(out);
    mount(['--bind', out], out);
    try {
      const r = await runCli('build', buildArgs(content, out, 'https://new.test'));
      expectOneLine(
        r,
        2,
        /public cannot be replaced by a rename \(EBUSY: a mount point\?\); use a directory inside it/,
      );
      expect(snapshot(out)).toEqual(before);
      expect(readdirSync(parent)).toEqual(['public']);
    } finally {
      unmount(out);
    }
  });
});

describe.skipIf(asUser === null)('permission denied', () => {
  it("EACCES on the output's parent: one line naming it, exit 1, the previous output whole", async () => {
    const content = writeContent(smallSite());
    const parent = join(tempDir('pepys-acces-'), 'site');
    const out = join(parent, 'public');
    await oldBuild(content, out);
    const before = snapshot(out);
    chmodSync(parent, 0o555);
    try {
      const r = await runCli('build', buildArgs(content, out, 'https://new.test'), { wrap: asUser ?? [] });
      expectOneLine(
        r,
        1,
        /permission denied \(EACCES\) creating the directory .*\/site\/\.public-next-\d+; .*\/site\/public was left as it was$/,
      );
      expect(snapshot(out)).toEqual(before);
      expect(readdirSync(parent)).toEqual(['public']);
    } finally {
      chmodSync(parent, 0o755);
    }
  });
});

describe.skipIf(asUser === null)('an output someone made read-only', () => {
  it("is still replaced whole (it is the build's own), and its old tree removed", async () => {
    const content = writeContent(smallSite());
    const parent = join(tempDir('pepys-ro-out-'), 'site');
    const out = join(parent, 'public');
    await oldBuild(content, out);
    chmodSync(out, 0o555);
    chmodSync(join(out, 'api'), 0o555);
    const r = await runCli('build', buildArgs(content, out, 'https://new.test'), { wrap: asUser ?? [] });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'api/v1/index.json'), 'utf8')).toContain('https://new.test');
    // The old tree, not writable, goes too (its removal gives its owner the write bit back).
    // What stays: the output, a symlink to the generation the rebuild wrote (output/rebuild.ts).
    const stays = (n: string) => n === 'public' || n === '.public-gen-a';
    for (let i = 0; i < 200 && !readdirSync(parent).every(stays); i++) await new Promise((w) => setTimeout(w, 50));
    expect(readdirSync(parent).sort()).toEqual(['.public-gen-a', 'public']);
  });
});

const canChattr = ((): boolean => {
  if (!isRoot) return false;
  const probe = tempDir('pepys-chattr-probe-');
  if (!succeeds('chattr', ['+i', probe])) return false;
  return succeeds('chattr', ['-i', probe]);
})();
if (!canChattr) console.warn('cli-faults: EPERM test skipped: chattr +i is not available for the test directory here');

describe.skipIf(!canChattr)('operation not permitted', () => {
  it('EPERM on an immutable parent: one line naming it, exit 1, the previous output whole', async () => {
    const content = writeContent(smallSite());
    const parent = join(tempDir('pepys-eperm-'), 'site');
    const out = join(parent, 'public');
    await oldBuild(content, out);
    const before = snapshot(out);
    execFileSync('chattr', ['+i', parent]);
    try {
      const r = await runCli('build', buildArgs(content, out, 'https://new.test'));
      expectOneLine(
        r,
        1,
        /operation not permitted \(EPERM\) creating the directory .*\/site\/\.public-next-\d+; .*\/site\/public was left as it was$/,
      );
      expect(snapshot(out)).toEqual(before);
    } finally {
      execFileSync('chattr', ['-i', parent]);
    }
  });
});

describe.concurrent('npm start', () => {
  it('port in use: one line naming the port, exit 1, and nothing built', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const out = join(tempDir('pepys-port-'), 'public');
      const r = await runCli('start', [
        '--quiet',
        '--content',
        writeContent(smallSite()),
        '--out',
        out,
        '--port',
        String(port),
      ]);
      expectOneLine(
        r,
        1,
        new RegExp(
          `^error: port ${port} on 127\\.0\\.0\\.1 is already in use \\(EADDRINUSE\\): stop what uses it, or choose another --port$`,
        ),
      );
      expect(snapshot(out)).toBeNull();
    } finally {
      blocker.close();
    }
  });

  it('--port 0: listens first, builds for the port it got; a request made during the build waits for it; SIGTERM stops it', async () => {
    const out = join(tempDir('pepys-port0-'), 'public');
    const server = startCli('start', ['--content', writeContent(mediumSite()), '--out', out, '--port', '0']);
    try {
      const origin = (await server.waitFor('stderr', /listening on (http:\/\/127\.0\.0\.1:(\d+));/))[1] as string;
      expect(origin).not.toMatch(/:0$/);
      // Asked while the build runs: answered once it is done, from the new build.
      expect(server.output.stdout).not.toContain('Serving');
      const early = await fetch(`${origin}/api/v1`);
      expect(early.status).toBe(200);
      expect(((await early.json()) as { entries: string }).entries).toBe(`${origin}/api/v1/entries`);
      await server.waitFor(
        'stdout',
        new RegExp(`Serving .* at ${origin.replace(/\./g, '\\.')}/api/v1 \\(Ctrl-C to stop\\)`),
      );
      const entry = (await (await fetch(`${origin}/api/v1/entries/1660-01-01`)).json()) as { apiURL: string };
      expect(entry.apiURL).toBe(`${origin}/api/v1/entries/1660-01-01`);
    } finally {
      server.child.kill('SIGTERM');
    }
    const r = await server.done;
    expect(r.code, r.stderr).toBe(0);
  });

  it('--host 0.0.0.0: bodies link to an address a client can use, and the start-up line says which', async () => {
    let expected = '127.0.0.1';
    outer: for (const list of Object.values(networkInterfaces())) {
      for (const a of list ?? []) {
        if (a.family === 'IPv4' && !a.internal) {
          expected = a.address;
          break outer;
        }
      }
    }
    const out = join(tempDir('pepys-host-'), 'public');
    const server = startCli('start', [
      '--quiet',
      '--content',
      writeContent(smallSite()),
      '--out',
      out,
      '--port',
      '0',
      '--host',
      '0.0.0.0',
    ]);
    try {
      const m = await server.waitFor(
        'stdout',
        /Serving .* at (http:\/\/([\d.]+):(\d+))\/api\/v1 \(listening on every address, 0\.0\.0\.0:(\d+)\); bodies link to (\S+) \(Ctrl-C to stop\)/,
      );
      const [, served, host, port, listenPort, links] = m as unknown as string[];
      expect(host).toBe(expected);
      expect(listenPort).toBe(port);
      expect(links).toBe(served);
      const root = (await (await fetch(`http://127.0.0.1:${port}/api/v1`)).json()) as { entries: string };
      expect(root.entries).toBe(`${served}/api/v1/entries`);
    } finally {
      server.child.kill('SIGINT');
    }
    const r = await server.done;
    expect(r.code, r.stderr).toBe(0);
  });
});

describe.skipIf(process.platform === 'win32')(
  'npm start over its existing mirror, a content file become a FIFO',
  () => {
    it('says what is wrong and exits 1, leaving the mirror and no lock (it once listened and hung, deaf to SIGTERM)', async () => {
      const content = writeContent(smallSite());
      const out = join(tempDir('pepys-start-fifo-'), 'mirror');
      const args = ['--quiet', '--content', content, '--out', out, '--port', '0', '--api-origin', 'http://x.example'];
      const first = startCli('start', args);
      await first.waitFor('stdout', /Serving/);
      first.child.kill('SIGTERM');
      expect((await first.done).code).toBe(0);
      const before = snapshot(out);
      execFileSync('mkfifo', [join(content, 'entries/1660/f.html')]);
      const server = startCli('start', args);
      const timer = setTimeout(() => server.child.kill('SIGKILL'), 20_000);
      const r = await server.done;
      clearTimeout(timer);
      expect(r.signal, 'the server hung on the FIFO').toBeNull();
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('entries/1660/f.html: is a FIFO (named pipe), not a regular file');
      expect(r.stderr).toContain(`${out} was left as it was`);
      expect(snapshot(out)).toEqual(before);
      expect(readdirSync(join(out, '..')).filter((n) => n.endsWith('-lock'))).toEqual([]);
    });
  },
);

describe('other failures', () => {
  it('a fault outside the output (the --report file) is one line too, after a build that succeeded', async () => {
    const out = join(tempDir('pepys-report-'), 'public');
    const report = join(tempDir('pepys-report-'), 'no', 'such', 'dir', 'r.json');
    const r = await runCli('build', [
      '--quiet',
      '--content',
      writeContent(smallSite()),
      '--out',
      out,
      '--report',
      report,
    ]);
    expectOneLine(r, 1, /^error: no such file or directory \(ENOENT\) opening .*\/no\/such\/dir\/r\.json$/);
  });

  it('an unexpected error is one line; DEBUG=1 adds its stack', () => {
    const previous = process.env.DEBUG;
    try {
      delete process.env.DEBUG;
      const plain = failureMessage(new TypeError('x is not a function\nsecond line'), { kept: 'public' });
      expect(plain.status).toBe(1);
      expect(plain.text).toBe('error: x is not a function; public was left as it was (DEBUG=1 shows the stack)\n');
      process.env.DEBUG = '1';
      const debug = failureMessage(new TypeError('x is not a function'));
      expect(debug.text).toMatch(/^error: x is not a function\nTypeError: x is not a function\n\s+at /);
    } finally {
      if (previous === undefined) delete process.env.DEBUG;
      else process.env.DEBUG = previous;
    }
  });
});
