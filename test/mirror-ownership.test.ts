// A server owns what it serves (issue 20): two `npm start` and an `npm run build` at once leave
// each server's links pointing at itself (test/heavy/mirror-ownership.test.ts: five processes);
// a command aimed at a directory another one writes is refused in one line naming it, and a killed holder's lock does not stick; `--no-build` serves
// the directory as it was at start, and follows it only with `--watch`. The servers are processes
// of their own; the builds run in this process (test/helpers/in-process.ts), with absolute paths.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { startCli } from './helpers/cli.ts';
import { writeContent } from './helpers/content.ts';
import { runInProcess } from './helpers/in-process.ts';
import { mediumSite } from './helpers/medium-site.ts';
import { linksOf, servers } from './helpers/mirror-links.ts';
import { tempDir } from './helpers/temp.ts';

vi.setConfig({ testTimeout: 90_000 });

// A generated site with several pages of each list (the sample would do as well, more slowly:
// each test builds it three or four times).
const CONTENT = writeContent(mediumSite(60, 30));
const { start, originOf, forget } = servers();

describe('a server owns what it serves', () => {
  it('refuses a build into a running server’s directory in one line naming it; a killed holder’s lock is taken over', async () => {
    const cwd = tempDir('pepys-lock-');
    const out = join(cwd, 'site');
    const server = start(['--content', CONTENT, '--out', out], cwd);
    const origin = await originOf(server);
    const refused = await runInProcess('build', ['--content', CONTENT, '--out', out, '--quiet'], {
      env: { NO_COLOR: '1' },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^error: ${out.replaceAll('/', '\\/')} is being written by npm start \\(pid ${server.child.pid}, since [^)]+\\): stop it, or give this command another --out\\n$`,
      ),
    );
    const second = startCli('start', ['--port', '0', '--content', CONTENT, '--out', out], { cwd });
    expect((await second.done).code).toBe(2);
    // The server was not disturbed: its links are still its own.
    expect((await linksOf(origin)).every((u) => u.startsWith(origin))).toBe(true);
    // Killed without a chance to release its lock: the next command takes it over.
    server.child.kill('SIGKILL');
    await server.done;
    forget(server);
    expect(readdirSync(cwd)).toContain('.site-lock');
    const after = await runInProcess('build', ['--content', CONTENT, '--out', out, '--quiet']);
    expect(after.code, after.stderr).toBe(0);
    expect(readdirSync(cwd)).not.toContain('.site-lock');
  });

  it('--no-build serves the directory as it was at start; with --watch it follows it', async () => {
    const cwd = tempDir('pepys-snap-');
    const out = join(cwd, 'public');
    const first = await runInProcess('build', [
      ...['--content', CONTENT, '--out', out, '--quiet', '--api-origin', 'https://first.example.org'],
    ]);
    expect(first.code, first.stderr).toBe(0);
    const frozen = start(['--no-build', '--out', out], cwd);
    const following = start(['--no-build', '--watch', '--out', out], cwd);
    const [frozenOrigin, followingOrigin] = await Promise.all([originOf(frozen), originOf(following)]);
    // It says which origin the files it serves link to.
    expect(frozen.output.stdout).toContain('bodies link to https://first.example.org (the origin');
    const rebuilt = await runInProcess('build', [
      ...['--content', CONTENT, '--out', out, '--quiet', '--api-origin', 'https://second.example.org'],
    ]);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const rootOf = async (origin: string) => (await (await fetch(`${origin}/api/v1`)).json()) as { entries: string };
    expect((await rootOf(frozenOrigin)).entries).toBe('https://first.example.org/api/v1/entries');
    await vi.waitFor(
      async () => expect((await rootOf(followingOrigin)).entries).toBe('https://second.example.org/api/v1/entries'),
      {
        timeout: 10_000,
        interval: 100,
      },
    );
    // The snapshot goes with the server.
    expect(readdirSync(cwd).filter((n) => n.includes('-snap-'))).toHaveLength(1);
    frozen.child.kill('SIGTERM');
    await frozen.done;
    forget(frozen);
    expect(readdirSync(cwd).filter((n) => n.includes('-snap-'))).toEqual([]);
  });
});
