// Content that is broken in the ways a file system allows, not only in its text: every problem of
// every kind is reported in one run as `file[:line]: reason`, and reading never throws (nor
// hangs: a FIFO named like an entry is never waited on).

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../generator/content/config.ts';
import { listContent } from '../generator/content/discover.ts';
import { loadContent, readContent, validate } from '../generator/content/load.ts';
import { parseContentFile } from '../generator/content/parse-file.ts';
import { ContentError, formatProblem, type Problem } from '../generator/content/problems.ts';
import { decodeUtf8, firstInvalidUtf8, readContentFile } from '../generator/content/read-file.ts';
import { entryFile, smallSite, writeContent } from './helpers/content.ts';
import { tempDir } from './helpers/temp.ts';

async function problemsOf(dir: string): Promise<Problem[]> {
  try {
    await loadContent(dir);
  } catch (err) {
    if (err instanceof ContentError) return err.problems;
    throw err;
  }
  return [];
}

const lines = (problems: readonly Problem[]) => problems.map((p) => formatProblem(p, 'content'));

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

/** A Unix socket bound at `path`, for as long as the test file runs. */
async function socketAt(path: string): Promise<void> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
}

describe('content faults', () => {
  it('reports every kind of fault in one run, each as file[:line]: reason, and never blocks on a FIFO', async () => {
    const dir = writeContent(smallSite());
    // Written as bytes: the Latin-1 é (0xE9) on line 4, column 7.
    writeFileSync(
      join(dir, 'entries/1660/1660-01-03.html'),
      Buffer.from('---\ndate: 1660-01-03\n---\n<p>caf\xe9 au lait</p>\n', 'latin1'),
    );
    symlinkSync('nowhere.html', join(dir, 'entries/1660/dangling.html'));
    symlinkSync('self.html', join(dir, 'entries/1660/self.html'));
    symlinkSync('..', join(dir, 'entries/1660/loop'));
    mkdirSync(join(dir, 'entries/1660/1660-01-04.html'));
    mkdirSync(join(dir, 'topics/dir.yaml'));
    expect(spawnSync('mkfifo', [join(dir, 'entries/1661/fifo.html')]).status).toBe(0);
    await socketAt(join(dir, 'topics/socket.yaml'));
    // Not content: names starting with a dot, other suffixes.
    writeFileSync(join(dir, 'entries/1660/.1660-01-05.html.swp'), '\xff');
    writeFileSync(join(dir, 'entries/1660/notes.txt'), 'not content');

    const problems = await problemsOf(dir);
    expect(lines(problems)).toEqual([
      'content/entries/1660/1660-01-03.html:4: not valid UTF-8: byte 0xE9 at column 7 (save the file as UTF-8)',
      'content/entries/1660/1660-01-04.html: is a directory, not a regular file',
      'content/entries/1660/dangling.html: dangling symbolic link: its target "nowhere.html" does not exist',
      'content/entries/1660/loop: symbolic link loop: this link leads back to a directory that contains it (not followed)',
      'content/entries/1660/self.html: symbolic link loop: following its links never reaches a file (ELOOP)',
      'content/entries/1661/fifo.html: is a FIFO (named pipe), not a regular file',
      'content/topics/dir.yaml: is a directory, not a regular file',
      'content/topics/socket.yaml: is a socket, not a regular file',
    ]);
  });

  it('reports a broken site.yaml with all the other problems, checking the rest with the defaults', async () => {
    const dir = writeContent({
      ...smallSite(),
      'site.yaml': 'apiOrigin: https://api.test\npageSize: [unclosed\n',
      'entries/a.html': entryFile('1661-02-30'),
      'topics/3.yaml': 'id: 3\ntitle: T\ncategories: [ghost]\n',
    });
    const problems = lines(await problemsOf(dir));
    expect(problems.some((l) => /^content\/site\.yaml:\d+: malformed YAML/.test(l))).toBe(true);
    expect(problems).toContain(
      'content/entries/a.html:2: "date" must be a real calendar date written YYYY-MM-DD: 1661-02-30 is not a date of the Julian calendar: February has 28 days in 1661',
    );
    expect(problems).toContain('content/topics/3.yaml:3: unknown category "ghost"');
    // A site.yaml that cannot be read at all (here: a directory) is one problem among the others.
    rmSync(join(dir, 'site.yaml'));
    mkdirSync(join(dir, 'site.yaml'));
    const again = lines(await problemsOf(dir));
    expect(again).toContain('content/site.yaml: is a directory, not a regular file');
    expect(again).toContain('content/topics/3.yaml:3: unknown category "ghost"');
    rmSync(join(dir, 'site.yaml'), { recursive: true });
    writeFileSync(join(dir, 'site.yaml'), Buffer.from('pageSize: 0\ntitleConvention: "caf\xe9"\n', 'latin1'));
    expect(lines(await problemsOf(dir))).toContain(
      'content/site.yaml:2: not valid UTF-8: byte 0xE9 at column 22 (save the file as UTF-8)',
    );
  });

  it('reports an unusable categories.yaml once, without calling every category unknown', async () => {
    const dir = writeContent({ ...smallSite(), 'categories.yaml': '- slug: people\n  title: [People\n' });
    const problems = lines(await problemsOf(dir));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^content\/categories\.yaml:\d+: malformed YAML/);
    rmSync(join(dir, 'categories.yaml'));
    symlinkSync('elsewhere.yaml', join(dir, 'categories.yaml'));
    expect(lines(await problemsOf(dir))).toEqual([
      'content/categories.yaml: dangling symbolic link: its target "elsewhere.yaml" does not exist',
    ]);
  });

  it('does not read a file too big to be content', () => {
    const dir = writeContent(smallSite());
    // Sparse: no disk space is used for the 65 MiB.
    const file = join(dir, 'entries/1660/huge.html');
    writeFileSync(file, '');
    truncateSync(file, 65 * 1024 * 1024);
    const read = readContentFile(dir, 'entries/1660/huge.html');
    expect(read.ok ? null : read.error).toMatchObject({
      gone: false,
      problem: { line: 0, message: 'is 65 MiB, more than a content file can be (64 MiB)' },
    });
  });

  it('treats a file that vanished between listing and reading as never listed', async () => {
    const dir = writeContent(smallSite());
    const listed = listContent(dir);
    expect(listed.entryFiles).toContain('entries/1661/1661-01-20.html');
    rmSync(join(dir, 'entries/1661/1661-01-20.html'));
    const parsed = parseContentFile(dir, { kind: 'entry', file: 'entries/1661/1661-01-20.html' }, DEFAULT_CONFIG);
    expect(parsed).toMatchObject({ gone: true, parsed: null, problems: [] });
    // A whole directory gone from under a listed file: gone too, not a problem.
    rmSync(join(dir, 'entries/1660'), { recursive: true });
    expect(readContentFile(dir, 'entries/1660/1660-01-01.html')).toEqual({ ok: false, error: { gone: true } });
    const state = await readContent(dir);
    expect(state.entryFiles).toEqual([]);
    expect(validate(state).ok).toBe(true);
  });

  it('never loops on links between directories, and follows a link to a directory once', async () => {
    const dir = writeContent(smallSite());
    mkdirSync(join(dir, 'entries/a'));
    mkdirSync(join(dir, 'entries/b'));
    symlinkSync('../b', join(dir, 'entries/a/to-b'));
    symlinkSync('../a', join(dir, 'entries/b/to-a'));
    const outside = tempDir('pepys-outside-');
    writeFileSync(join(outside, '1660-03-01.html'), entryFile('1660-03-01'));
    symlinkSync(outside, join(dir, 'entries/linked'));
    // A link outside the content directory is followed only when allowed (test/content-links.test.ts).
    process.env.PEPYS_ALLOW_OUTSIDE_LINKS = '1';
    let listing: ReturnType<typeof listContent>;
    try {
      listing = listContent(dir);
    } finally {
      delete process.env.PEPYS_ALLOW_OUTSIDE_LINKS;
    }
    expect(listing.entryFiles).toContain('entries/linked/1660-03-01.html');
    expect(listing.problems.map((p) => p.file).sort()).toEqual(['entries/a/to-b/to-a', 'entries/b/to-a/to-b']);
    const refused = listContent(dir);
    expect(refused.entryFiles).not.toContain('entries/linked/1660-03-01.html');
    expect(refused.problems.map((p) => p.file).sort()).toEqual([
      'entries/a/to-b/to-a',
      'entries/b/to-a/to-b',
      'entries/linked',
    ]);
  });

  it('names the line and column of the first byte that is not UTF-8', () => {
    const at = (bytes: number[]) => firstInvalidUtf8(Uint8Array.from(bytes));
    expect(at([0x61, 0xc3, 0xa9, 0x62])).toBe(-1);
    expect(at([0x61, 0xc3])).toBe(1); // cut short at the end
    expect(at([0xc0, 0x80])).toBe(0); // overlong
    expect(at([0xed, 0xa0, 0x80])).toBe(0); // a surrogate
    expect(at([0xf4, 0x90, 0x80, 0x80])).toBe(0); // past U+10FFFF
    expect(at([0xf0, 0x9f, 0x98, 0x80, 0xff])).toBe(4);
    const text = Buffer.concat([Buffer.from('line one\nline “two”\nab'), Buffer.from([0x80]), Buffer.from('\n')]);
    expect(decodeUtf8(text, 'f.html')).toEqual({
      ok: false,
      error: { file: 'f.html', line: 3, message: 'not valid UTF-8: byte 0x80 at column 3 (save the file as UTF-8)' },
    });
    expect(decodeUtf8(Buffer.from('\uFEFFok'), 'f')).toEqual({ ok: true, value: 'ok' });
  });

  it('reports files and directories it may not read (as an unprivileged user, even when tests run as root)', () => {
    const dir = writeContent({ ...smallSite(), 'topics/3.yaml': 'id: 3\ntitle: Three\n' });
    const asRoot = process.getuid?.() === 0;
    const runDir = dirname(dir);
    if (asRoot) {
      // Root reads anything: the load runs as "nobody", who may pass through the run's temporary
      // directory and read the content, but for the two made unreadable below.
      chmodSync(runDir, 0o711);
      expect(spawnSync('chmod', ['-R', 'a+rX', dir]).status).toBe(0);
    }
    chmodSync(join(dir, 'topics/3.yaml'), 0o000);
    chmodSync(join(dir, 'entries/1661'), 0o000);
    const home = tempDir('pepys-nobody-');
    chmodSync(home, 0o777);
    // The loader bundled into one module in a directory anyone may read: "nobody" then needs
    // nothing of the checkout, wherever it lives (a parent of mode 0700, a home directory).
    const bundle = join(home, 'load.mjs');
    buildSync({
      entryPoints: [fileURLToPath(new URL('../generator/content/load.ts', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: bundle,
      logLevel: 'silent',
      // The bundle's CommonJS dependencies (yaml) need a require.
      banner: {
        js: "import { createRequire as nodeRequire } from 'node:module'; const require = nodeRequire(import.meta.url);",
      },
    });
    chmodSync(bundle, 0o644);
    const script = [
      `import { loadContent } from ${JSON.stringify(bundle)};`,
      `try { await loadContent(${JSON.stringify(dir)}); console.log('[]'); }`,
      'catch (err) { console.log(JSON.stringify(err.problems ?? String(err))); }',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: home,
      env: { ...process.env, TMPDIR: home, HOME: home },
      timeout: 60_000,
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    chmodSync(join(dir, 'entries/1661'), 0o755);
    chmodSync(join(dir, 'topics/3.yaml'), 0o644);
    if (asRoot) chmodSync(runDir, 0o700);
    expect(run.stderr).toBe('');
    const problems = JSON.parse(run.stdout) as Problem[];
    expect(lines(problems)).toEqual([
      'content/entries/1661: cannot list this directory: permission denied (EACCES)',
      'content/topics/3.yaml: cannot be read: permission denied (EACCES)',
    ]);
  });

  it('builds the sample content as it is', async () => {
    const { model } = await loadContent(fileURLToPath(new URL('../content', import.meta.url)));
    expect(model.entries.length).toBeGreaterThan(100);
  });
});
