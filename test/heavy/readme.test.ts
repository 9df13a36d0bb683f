// The README's commands, run as a reader runs them, in a copy of the repository: every line of
// its `sh` blocks that can run offline (set-up, curl, search, downloads, import, build, serve,
// verify), each to exit 0; every other line is listed here with the reason it does not run
// (network, deploys, heavy installs, benches), and a line that is neither fails the test, so
// that a new command in the README is either run here or said to be unrunnable.
//
// Then, as the README leaves it: git sees nothing new (what it has a user create inside the
// repository is ignored), and `npm run lint` (Biome, knip) still passes.

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers/temp.ts';

const REPO = join(import.meta.dirname, '..', '..');
const CORPUS = join(REPO, '..', 'shared', 'corpus', 'standard-ebooks-pepys-diary');

vi.setConfig({ testTimeout: 900_000 });

/** Lines of the README that are not run here, and why. */
const NOT_RUN: ReadonlyArray<[RegExp, string]> = [
  [/^npm test\b/, 'the everyday suite: CI runs it'],
  [/^npm run test:heavy\b/, 'this very suite'],
  [/^npm run (netlify|cloudflare|browser|openapi):install\b/, 'installs from the registry: the network'],
  [/^npm run bench(:search)?\b/, 'a benchmark: minutes of figures, not a check'],
  [/--target netlify/, 'a deploy to Netlify: the network'],
  [/^npx netlify-cli\b/, 'a deploy to Netlify: the network'],
  [/wrangler (login|deploy)$/, 'a deploy to Cloudflare: the network'],
  [/--api-origin https:\/\/pepys-static-api\.<your-subdomain>/, 'a placeholder the reader fills in'],
  [/^npm run verify -- https:\/\//, 'a deployed mirror: the network'],
  [/^npm pack\b/, "the package's own test runs these lines: test/heavy/package.test.ts"],
  [/^mkdir \.\.\/archive\b/, 'installs the package from the registry: test/heavy/package.test.ts'],
  [/^npx pepys-api\b/, "in the archivist's directory: test/heavy/package.test.ts"],
];

interface Line {
  command: string;
  block: number;
}

/** Every command line of the README's `sh` blocks, comments removed. */
function readmeLines(): Line[] {
  const text = readFileSync(join(REPO, 'README.md'), 'utf8');
  const out: Line[] = [];
  let block = 0;
  for (const m of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    block++;
    for (const raw of (m[1] as string).split('\n')) {
      // A comment: a whole line, or the end of one (a # after white space).
      const command = raw.replace(/(^|\s+)#.*$/, '').trim();
      if (command !== '') out.push({ command, block });
    }
  }
  return out;
}

/** A copy of the repository as git would check it out (its own git history of one commit). */
function checkout(): string {
  const dir = join(tempDir('pepys-readme-', { disk: true }), 'repo');
  mkdirSync(dir);
  const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: REPO, encoding: 'utf8' })
    .stdout.split('\0')
    .filter((f) => f !== '');
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    cpSync(join(REPO, f), join(dir, f), { dereference: false });
  }
  // The installed dependencies, as `npm ci` would leave them (no network here).
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=test', '-c', 'user.email=test@localhost', 'commit', '-qm', 'checkout');
  return dir;
}

function run(command: string, cwd: string): Promise<{ code: number | null; output: string }> {
  process.stderr.write(`README: ${command}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd, env: { ...process.env, NO_COLOR: '1' }, timeout: 300_000 });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Starts a server line in the background; resolves once it serves, with the origin it serves. */
function serve(command: string, cwd: string): Promise<{ child: ChildProcess; origin: string }> {
  return new Promise((resolve, reject) => {
    // Its own process group: npm runs the server as a child of its own, and stopping it means
    // stopping both.
    const child = spawn('bash', ['-c', command], { cwd, env: { ...process.env, NO_COLOR: '1' }, detached: true });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${command}: not serving after 120 s:\n${output}`)), 120_000);
    const seen = (d: Buffer) => {
      output += d;
      const serving = /^Serving .* at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/m.exec(output);
      if (serving !== null) {
        clearTimeout(timer);
        resolve({ child, origin: serving[1] as string });
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ended (${code}) before serving:\n${output}`));
    });
  });
}

async function stop(child: ChildProcess | null): Promise<void> {
  if (child === null || child.pid === undefined || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}

describe("the README's commands", () => {
  it('run offline in a copy of the repository, and leave it clean for git, Biome and knip', async () => {
    const lines = readmeLines();
    expect(lines.length).toBeGreaterThan(15);
    const unclassified: string[] = [];
    const skipped: string[] = [];
    const dir = checkout();
    // The server the README's lines talk to: started on a port the system picks.
    let server: ChildProcess | null = null;
    let origin = '';
    const ran: string[] = [];
    try {
      for (const { command: original } of lines) {
        const reason = NOT_RUN.find(([pattern]) => pattern.test(original));
        // `npm ci` installs from the registry: the copy has the installed modules already.
        let command = original.replace(/^npm ci && /, '');
        if (reason !== undefined) {
          skipped.push(`${original}: ${reason[1]}`);
          continue;
        }
        // The README's port and paths, made this run's: the server's port, the corpus where it is.
        command = command
          .replaceAll('http://127.0.0.1:8888', origin)
          .replaceAll('http://192.168.1.20:8888', origin)
          .replaceAll('../shared/corpus/standard-ebooks-pepys-diary', CORPUS)
          // Fail on an HTTP error, as a reader would notice one.
          .replace(/^curl /, 'curl -f ');
        if (/^npm start\b/.test(command)) {
          await stop(server);
          ({ child: server, origin } = await serve(command.replace(/^npm start( --)?/, 'npm start -- --port 0'), dir));
          ran.push(original);
          continue;
        }
        if (!/^(npm (run [\w:-]+|start)|curl|sqlite3)\b/.test(command)) {
          unclassified.push(original);
          continue;
        }
        const r = await run(command, dir);
        expect(r.code, `${original}\n${r.output}`).toBe(0);
        if (/^curl -f(s)? http/.test(command) && !command.includes(' -sO '))
          expect(r.output.length, original).toBeGreaterThan(10);
        ran.push(original);
      }
    } finally {
      await stop(server);
    }
    expect(unclassified, 'README lines neither run nor listed in NOT_RUN').toEqual([]);
    // What ran: the set-up, the curls, the downloads, the import, the build, serving and verifying.
    for (const pattern of [
      /^npm ci && npm start/,
      /^curl http/,
      /^sqlite3 /,
      /^npm run import /,
      /^npm run build /,
      /^npm run verify /,
    ])
      expect(
        ran.some((l) => pattern.test(l)),
        String(pattern),
      ).toBe(true);
    expect(skipped.length).toBeGreaterThan(5);

    // Everything the README had the reader make inside the repository is ignored by git...
    const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: dir, encoding: 'utf8' });
    expect(status.stdout).toBe('');
    // ...and by the linters.
    const lint = await run('npm run lint', dir);
    expect(lint.code, lint.output.slice(-3000)).toBe(0);
  });
});
