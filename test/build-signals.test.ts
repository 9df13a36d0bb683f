// A build stopped by SIGTERM or SIGINT while it works (issue 36, item 1): it ends at once, as a
// failed build, leaving the output as it was and no lock beside it (a signal's default action
// skipped the release, leaving a lock whose pid the system may give to another process); a
// building server ends too. Each child is stopped (SIGSTOP) as soon as it says it is reading,
// signalled, then continued, so the signal lands in the middle of the build whatever the machine's
// speed.

import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it, vi } from 'vitest';
import { build } from '../generator/build.ts';
import { type Running, startCli } from './helpers/cli.ts';
import { writeContent } from './helpers/content.ts';
import { readTreeBytes } from './helpers/files.ts';
import { mediumSite } from './helpers/medium-site.ts';
import { tempDir } from './helpers/temp.ts';

vi.setConfig({ testTimeout: 60_000 });

const locks = (out: string) => readdirSync(dirname(out)).filter((n) => n.endsWith('-lock'));

/** Sends `signal` to a child held still, then lets it go on: it meets the signal mid-work. */
function signalHeld(running: Running, signal: NodeJS.Signals): void {
  running.child.kill('SIGSTOP');
  running.child.kill(signal);
  running.child.kill('SIGCONT');
}

// At once: each test's processes spend most of their time starting and waiting.
describe.skipIf(process.platform === 'win32').concurrent('a build stopped by a signal', () => {
  it('npm run build, SIGTERM: exits 143, the output as it was, no lock', async ({ expect }) => {
    const content = writeContent(mediumSite());
    const out = join(tempDir('pepys-signal-'), 'public');
    // The first build in this process: only the second one, the CLI's, is what is stopped.
    await build({ contentDir: content, outDir: out, quiet: true, env: {} });
    const before = readTreeBytes(realpathSync(out));
    // Another origin: every file changes, so the build has work to do.
    const cli = startCli('build', ['--content', content, '--out', out, '--api-origin', 'https://b.test']);
    await cli.waitFor('stderr', /reading /);
    signalHeld(cli, 'SIGTERM');
    const r = await cli.done;
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toContain(`error: stopped by SIGTERM; ${out} was left as it was`);
    expect(locks(out)).toEqual([]);
    expect(readTreeBytes(realpathSync(out))).toEqual(before);
  });

  it('npm run build, SIGINT (Ctrl-C) of a first build: exits 130, no output, no lock', async ({ expect }) => {
    const out = join(tempDir('pepys-signal-'), 'public');
    const build = startCli('build', ['--content', writeContent(mediumSite()), '--out', out]);
    await build.waitFor('stderr', /reading /);
    signalHeld(build, 'SIGINT');
    const r = await build.done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('error: stopped by SIGINT');
    expect(locks(out)).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  it('npm start, SIGTERM while it builds: ends, no lock', async ({ expect }) => {
    const content = writeContent(mediumSite());
    const out = join(tempDir('pepys-signal-start-'), 'public');
    const server = startCli('start', ['--content', content, '--out', out, '--port', '0']);
    await server.waitFor('stderr', /listening on .*requests wait/);
    signalHeld(server, 'SIGTERM');
    const r = await server.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('Serving');
    expect(locks(out)).toEqual([]);
  });
});
