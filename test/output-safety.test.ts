// The build touches only what it made (docs/output.md): every wrong --out and --content a
// careless user could type is refused with one line and exit 2, before anything is read or
// written, and the place named is left exactly as it was. And what killed builds leave behind
// is swept by the next build when, and only when, their process is gone.

import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { MARKER_FILE, RefusedError } from '../generator/output/guard.ts';
import { isAlive, leftoverOf, sweepLeftovers } from '../generator/output/trash.ts';
import { type CliResult, runCli } from './helpers/cli.ts';
import { smallSite } from './helpers/content.ts';
import { runInProcess } from './helpers/in-process.ts';
import { snapshot } from './helpers/snapshot.ts';
import { tempDir } from './helpers/temp.ts';

/** A fresh place: `<root>/site/content` holds a small valid site; nothing else exists yet. */
function place(): { root: string; content: string } {
  const root = tempDir('pepys-safety-');
  const content = join(root, 'site', 'content');
  for (const [path, text] of Object.entries(smallSite())) {
    mkdirSync(dirname(join(content, path)), { recursive: true });
    writeFileSync(join(content, path), text);
  }
  return { root, content };
}

/** Exit 2, one line on stderr starting `error: `, nothing on stdout. */
function expectRefused(r: CliResult, reason: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(reason);
}

async function refusedBuild(
  args: string[],
  reason: RegExp,
  root: string,
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<void> {
  const before = snapshot(root);
  // In this process (test/helpers/in-process.ts) but where the test sets the working directory or
  // HOME, which are the process's own: those through a process of their own.
  const inProcess = options.cwd === undefined && options.env === undefined;
  const r = await (inProcess ? runInProcess : runCli)('build', ['--quiet', ...args], options);
  expectRefused(r, reason);
  expect(snapshot(root)).toEqual(before);
}

describe.concurrent('the build refuses an --out it must not replace (exit 2, one line, nothing touched)', () => {
  it('the content directory itself', async () => {
    const { root, content } = place();
    await refusedBuild(['--content', content, '--out', content], /--out .* is the content directory itself/, root);
  });

  it('a directory that contains the content', async () => {
    const { root, content } = place();
    await refusedBuild(['--content', content, '--out', join(root, 'site')], /contains the content directory/, root);
  });

  it('a directory inside the content', async () => {
    const { root, content } = place();
    await refusedBuild(
      ['--content', content, '--out', join(content, 'public')],
      /lies inside the content directory/,
      root,
    );
  });

  it('a file', async () => {
    const { root, content } = place();
    writeFileSync(join(root, 'notes.txt'), 'mine\n');
    await refusedBuild(['--content', content, '--out', join(root, 'notes.txt')], /is a file/, root);
  });

  it('a symlink it did not make', async () => {
    const { root, content } = place();
    mkdirSync(join(root, 'elsewhere'));
    symlinkSync(join(root, 'elsewhere'), join(root, 'public'));
    await refusedBuild(
      ['--content', content, '--out', join(root, 'public')],
      /is a symbolic link .* that this generator did not make/,
      root,
    );
  });

  it('/', async () => {
    const { root, content } = place();
    await refusedBuild(['--content', content, '--out', '/'], /--out \/ is the root directory/, root);
  });

  it('the working directory (.)', async () => {
    const { root, content } = place();
    const work = join(root, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'precious.txt'), 'keep\n');
    await refusedBuild(['--content', content, '--out', '.'], /--out \. is the current directory/, root, { cwd: work });
  });

  it('the home directory', async () => {
    const { root, content } = place();
    const home = join(root, 'home', 'me');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, '.profile'), 'x\n');
    await refusedBuild(['--content', content, '--out', home], /is your home directory/, root, { env: { HOME: home } });
  });

  it('a non-empty directory it did not make', async () => {
    const { root, content } = place();
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'thesis.tex'), 'years of work\n');
    await refusedBuild(
      ['--content', content, '--out', join(root, 'docs')],
      new RegExp(`did not make \\(it is not empty and has no \\${MARKER_FILE}\\)`),
      root,
    );
  });

  it('with --watch', async () => {
    const { root, content } = place();
    await refusedBuild(
      ['--watch', '--content', content, '--out', join(root, 'site')],
      /contains the content directory/,
      root,
    );
  });

  it('with npm start, before it listens', async () => {
    const { root, content } = place();
    const before = snapshot(root);
    expectRefused(
      await runCli('start', ['--port', '0', '--content', content, '--out', content]),
      /is the content directory itself/,
    );
    expect(snapshot(root)).toEqual(before);
  });
});

describe.concurrent('the build refuses a missing or empty content directory, keeping the previous output', () => {
  /** One place with a previous output in `<root>/public`, built once for the three tests below. */
  let built: Promise<string> | undefined;

  /**
   * A place with a previous output in `<root>/public`: a copy of the one built (each refusal is
   * held to the copy's bytes, which snapshot() compares, and nothing of a refused build reads the
   * files' inodes or times), so that three tests make one build, not three.
   */
  async function withOutput(): Promise<{ root: string; content: string; out: string }> {
    built ??= (async () => {
      const { root, content } = place();
      await build({ contentDir: content, outDir: join(root, 'public'), quiet: true, env: {} });
      return root;
    })();
    const root = tempDir('pepys-safety-');
    cpSync(await built, root, { recursive: true, verbatimSymlinks: true });
    return { root, content: join(root, 'site', 'content'), out: join(root, 'public') };
  }

  it('a typo: no such directory', async () => {
    const { root, content, out } = await withOutput();
    await refusedBuild(['--content', `${content}-typo`, '--out', out], /--content .*-typo: no such directory/, root);
  });

  it('a file', async () => {
    const { root, content, out } = await withOutput();
    await refusedBuild(['--content', join(content, 'site.yaml'), '--out', out], /is not a directory/, root);
  });

  it('a directory with no content', async () => {
    const { root, out } = await withOutput();
    const empty = join(root, 'empty');
    mkdirSync(empty);
    await refusedBuild(
      ['--content', empty, '--out', out],
      /holds no content \(no entries, no topics, no categories.yaml, no site.yaml\)/,
      root,
    );
  });
});

describe('the same rules, through the library (other spellings of the same places)', () => {
  async function refused(contentDir: string, outDir: string, reason: RegExp, root: string): Promise<void> {
    const before = snapshot(root);
    const err = await build({ contentDir, outDir, quiet: true, env: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RefusedError);
    expect((err as Error).message).toMatch(reason);
    expect(snapshot(root)).toEqual(before);
  }

  it('resolves symlinks and .. before comparing', async () => {
    const { root, content } = place();
    symlinkSync(content, join(root, 'link'));
    await refused(content, join(root, 'link'), /is the content directory itself/, root);
    await refused(join(root, 'link'), join(content, '..', 'content'), /is the content directory itself/, root);
    await refused(content, join(root, 'link', 'entries', 'new', 'public'), /lies inside the content directory/, root);
    symlinkSync(join(root, 'site'), join(root, 'site-link'));
    await refused(content, join(root, 'site-link'), /contains the content directory/, root);
  });

  it('refuses an ancestor of the working directory and of the home directory', async () => {
    const { root, content } = place();
    await refused(content, dirname(process.cwd()), /contains the current directory/, root);
    const home = join(root, 'home', 'me');
    mkdirSync(home, { recursive: true });
    const previous = process.env.HOME;
    process.env.HOME = home;
    try {
      await refused(content, join(root, 'home'), /contains your home directory/, root);
    } finally {
      process.env.HOME = previous;
    }
  });

  it('counts empty entries/ and topics/ as no content', async () => {
    const { root } = place();
    const empty = join(root, 'empty');
    mkdirSync(join(empty, 'entries'), { recursive: true });
    mkdirSync(join(empty, 'topics'));
    writeFileSync(join(empty, 'README'), 'not content\n');
    await refused(empty, join(root, 'public'), /holds no content/, root);
  });

  it('accepts the output of a build from before the marker, and nothing more than that', async () => {
    const { root, content } = place();
    const out = join(root, 'public');
    mkdirSync(join(out, '_data'), { recursive: true });
    mkdirSync(join(out, 'api', 'v1'), { recursive: true });
    writeFileSync(join(out, '_data', 'site-index.json'), '{}');
    writeFileSync(join(out, 'api', 'v1', 'index.json'), '{}');
    writeFileSync(join(out, 'notes.txt'), 'mine\n');
    await refused(content, out, /did not make/, root);
    rmSync(join(out, 'notes.txt'));
    await build({ contentDir: content, outDir: out, quiet: true, env: {} });
    expect(readdirSync(out)).toContain(MARKER_FILE);
  });

  it('accepts a missing directory, an empty one and its own output, which holds the marker', async () => {
    const { root, content } = place();
    const empty = join(root, 'empty');
    mkdirSync(empty);
    for (const out of [join(root, 'new', 'public'), empty, empty]) {
      await build({ contentDir: content, outDir: out, quiet: true, env: {} });
      expect(readdirSync(out)).toContain(MARKER_FILE);
    }
  });
});

/** The pid of a process that has exited (and been reaped): no process has it now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.on('exit', r));
  return child.pid as number;
}

/** Settles when `dir` holds exactly `names` (removals run in the background); fails after 20 s. */
async function only(dir: string, names: readonly string[]): Promise<void> {
  const want = [...names].sort();
  let have: string[] = [];
  for (let i = 0; i < 400; i++) {
    have = readdirSync(dir).sort();
    if (JSON.stringify(have) === JSON.stringify(want)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(have).toEqual(want);
}

describe('leftovers of killed builds', () => {
  it('names every leftover the writer and the watch mode make, and nothing else', () => {
    const out = '/x/public';
    expect(leftoverOf(out, '.public-next-12')).toEqual({ role: 'next', pid: 12 });
    expect(leftoverOf(out, '.public-prev-12')).toEqual({ role: 'prev', pid: 12 });
    expect(leftoverOf(out, '.public-link-12')).toEqual({ role: 'link', pid: 12 });
    expect(leftoverOf(out, '.public-gen-a-12')).toEqual({ role: 'gen-a', pid: 12 });
    expect(leftoverOf(out, '.public-record-12')).toEqual({ role: 'record', pid: 12 });
    expect(leftoverOf(out, '.public-downloads-12')).toEqual({ role: 'downloads', pid: 12 });
    expect(leftoverOf(out, '.public-trash-12-1700000000000-3')).toEqual({ role: 'trash', pid: 12 });
    for (const name of [
      'public',
      '.public-gen-a',
      '.public-gen-b',
      '.public-next-12-x',
      '.other-next-12',
      '.public-next-',
      'public-next-12',
      '.public-next-5-next-9',
    ]) {
      expect(leftoverOf(out, name), name).toBeNull();
    }
  });

  it('a build sweeps those of a process that is gone, never those of a live one', async () => {
    const { root, content } = place();
    const out = join(root, 'public');
    await build({ contentDir: content, outDir: out, quiet: true, env: {} });
    const dead = await deadPid();
    const live = spawn('sleep', ['60']);
    try {
      const deadNames = [
        `.public-next-${dead}`,
        `.public-prev-${dead}`,
        `.public-gen-b-${dead}`,
        `.public-record-${dead}`,
        `.public-downloads-${dead}`,
        `.public-trash-${dead}-1-0`,
      ];
      const liveNames = [`.public-next-${live.pid}`, `.public-trash-${live.pid}-1-0`];
      for (const name of [...deadNames, ...liveNames]) {
        mkdirSync(join(root, name, 'api'), { recursive: true });
        writeFileSync(join(root, name, 'api', 'x.json'), '{}');
      }
      symlinkSync('.public-gen-a', join(root, `.public-link-${dead}`));
      const r = await runInProcess('build', ['--quiet', '--content', content, '--out', out]);
      expect(r.code, r.stderr).toBe(0);
      // The dead process's leftovers, and the build's own trash (its previous output), go.
      await only(root, [...liveNames, 'public', 'site']);
      // Once that process is gone, its leftovers go too.
      live.kill('SIGKILL');
      await new Promise((r2) => live.on('exit', r2));
      await sweepLeftovers(out).done;
      await only(root, ['public', 'site']);
    } finally {
      live.kill('SIGKILL');
    }
  });

  it.skipIf(process.platform !== 'linux')(
    'counts a killed process its parent has not reaped yet (a zombie) as gone',
    async () => {
      // A shell that starts `sleep` in the background and then becomes another program, which
      // never waits for it: once killed, that sleep stays a zombie until its parent ends.
      const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
      try {
        const pid = Number(await new Promise<string>((r) => parent.stdout.once('data', (d) => r(String(d)))));
        expect(isAlive(pid)).toBe(true);
        // Killed only once the shell has become `sleep`: a shell would reap its child (on a busy
        // machine the echo can come well before the exec).
        const comm = () => readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim();
        for (let i = 0; i < 250 && comm() !== 'sleep'; i++) await new Promise((r) => setTimeout(r, 20));
        expect(comm()).toBe('sleep');
        process.kill(pid, 'SIGKILL');
        let state = '';
        for (let i = 0; i < 100 && state !== 'Z'; i++) {
          await new Promise((r) => setTimeout(r, 20));
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        }
        expect(state).toBe('Z');
        expect(isAlive(pid)).toBe(false);
        expect(isAlive(parent.pid as number)).toBe(true);
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );

  it('puts the previous output back when a build died between its two renames', async () => {
    const { root, content } = place();
    const out = join(root, 'public');
    await build({ contentDir: content, outDir: out, quiet: true, env: {} });
    const old = snapshot(out);
    const dead = await deadPid();
    // The state such a build leaves: no output, the old tree in -prev, the new one in -next.
    cpSync(out, join(root, `.public-next-${dead}`), { recursive: true });
    renameSync(out, join(root, `.public-prev-${dead}`));
    const sweep = sweepLeftovers(out);
    expect(sweep.restored).toBe(`.public-prev-${dead}`);
    expect(snapshot(out)).toEqual(old);
    await sweep.done;
    await only(root, ['public', 'site']);
  });
});
