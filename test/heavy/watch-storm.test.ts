// The watch mode under long random sequences and storms (the everyday suite runs a short version:
// test/edit-sequences.test.ts). A storm: a file created and deleted every few milliseconds for 20 s,
// random operations of every kind meanwhile, and clients reading from the local server all the
// while; the session must never die, every answer must be whole JSON of the contract, and once
// the storm ends the output and the answers are a cold build's. Then the same through a real
// `npm start -- --watch` process. Seeds are printed; WATCH_SEED=<n> replays them.

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConfigOverrides } from '../../generator/content/config.ts';
import { prng } from '../../generator/core/random.ts';
import { startWatching } from '../../generator/watch/watch.ts';
import { writeContent } from '../helpers/content.ts';
import { readTree } from '../helpers/files.ts';
import { tempDir } from '../helpers/temp.ts';
import { answer, coldBuild, differing, samplePaths, serve } from '../helpers/watch-check.ts';
import {
  FLICKER_FILE,
  type RunCount,
  randomOp,
  randomSite,
  repair,
  runRandomSequences,
  SITE_YAML,
} from '../helpers/watch-random.ts';

const baseSeed = Number(process.env.WATCH_SEED ?? Date.now() % 1_000_000_000);
const STORM_MS = 20_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const figures: string[] = [];
afterAll(() => {
  process.stdout.write(`watch-storm: base seed ${baseSeed}\n${figures.map((f) => `  ${f}\n`).join('')}`);
});

interface Storm {
  creations: number;
  operations: number;
  requests: number;
  statuses: Map<number, number>;
}

/**
 * For STORM_MS: one file created and deleted every few ms, a random operation (repairing now and
 * then, so that valid sites go live too) every ~50 ms, and four clients reading `paths` from
 * `origin`, each answer checked to be whole JSON with a Content-Length that matches.
 */
async function storm(
  contentDir: string,
  origin: string,
  paths: string[],
  rand: (n: number) => number,
  done: string[],
): Promise<Storm> {
  const s: Storm = { creations: 0, operations: 0, requests: 0, statuses: new Map() };
  const until = Date.now() + STORM_MS;
  // A topic no entry names, in a directory the random operations leave in place; in a process
  // of its own, so that it keeps its pace whatever this one is busy with.
  const flicker = join(contentDir, FLICKER_FILE);
  const child = spawn(process.execPath, ['-e', FLICKER, flicker, String(STORM_MS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const creator = new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', () => {
      s.creations = Number(out.trim());
      resolve();
    });
  });
  const operator = (async () => {
    while (Date.now() < until) {
      done.push(randomOp(contentDir, rand));
      s.operations++;
      if (rand(10) === 0) done.push(`repair (${await repair(contentDir)} removed)`);
      await sleep(rand(100));
    }
  })();
  const clients = [0, 1, 2, 3].map(async () => {
    while (Date.now() < until) {
      const path = paths[rand(paths.length)] as string;
      // Uncompressed, so that Content-Length counts the bytes read.
      const res = await fetch(origin + path, { headers: { 'accept-encoding': 'identity' } });
      const bytes = new Uint8Array(await res.arrayBuffer());
      s.requests++;
      s.statuses.set(res.status, (s.statuses.get(res.status) ?? 0) + 1);
      expect(Number(res.headers.get('content-length')), path).toBe(bytes.length);
      expect(() => JSON.parse(new TextDecoder().decode(bytes)), `${path}: not JSON`).not.toThrow();
      expect(res.status, `${path}: ${new TextDecoder().decode(bytes)}`).toBeLessThan(500);
    }
  });
  try {
    await Promise.all([creator, operator, ...clients]);
  } finally {
    child.kill();
    await creator;
    rmSync(flicker, { force: true });
  }
  return s;
}

/** Creates and deletes one file (argv[1]) every 1–4 ms for argv[2] ms; prints how many times. */
const FLICKER = `
const { rmSync, writeFileSync } = require('node:fs');
const [file, ms] = process.argv.slice(1);
const until = Date.now() + Number(ms);
const pause = new Int32Array(new SharedArrayBuffer(4));
let n = 0;
while (Date.now() < until) {
  writeFileSync(file, 'id: 99\\ntitle: Flicker ' + n + '\\n');
  Atomics.wait(pause, 0, 0, 1 + (n % 3));
  rmSync(file, { force: true });
  Atomics.wait(pause, 0, 0, n % 2);
  n++;
}
console.log(n);
`;

const describeStorm = (s: Storm) =>
  `${s.creations} creations and deletions, ${s.operations} random operations, ${s.requests} requests (statuses ${[...s.statuses].map(([k, v]) => `${k}: ${v}`).join(', ')})`;

describe('watch mode, heavy', () => {
  const runs: Array<[string, Parameters<typeof runRandomSequences>[1]]> = [
    ['events only', { sequences: 25, opsPerSequence: 20, maxPauseMs: 30, options: { rescanMs: 0 }, mode: 'events' }],
    [
      'rescans only',
      { sequences: 15, opsPerSequence: 20, maxPauseMs: 10, options: { events: false, rescanMs: 0 }, mode: 'rescan' },
    ],
    [
      'events and a rescan every 200 ms',
      { sequences: 15, opsPerSequence: 20, maxPauseMs: 50, options: { rescanMs: 200 }, mode: 'events' },
    ],
  ];
  for (const [i, [what, run]] of runs.entries()) {
    it(`settles on a cold build after long random sequences: ${what}`, async () => {
      const c: RunCount = await runRandomSequences(baseSeed + 10 + i, run);
      figures.push(
        `${what} (seed ${baseSeed + 10 + i}): ${c.operations} random operations, ${c.checkpoints} checkpoints (${c.invalidCheckpoints} invalid)`,
      );
    });
  }

  it('survives a storm while serving, and settles on a cold build', async () => {
    const seed = baseSeed + 1;
    const rand = prng(seed);
    const overrides: ConfigOverrides = { apiOrigin: 'http://mirror.test' };
    const contentDir = writeContent(randomSite());
    const outDir = join(tempDir('pepys-watch-'), 'public');
    const warnings: string[] = [];
    const watcher = await startWatching({
      contentDir,
      outDir,
      overrides,
      env: {},
      rescanMs: 1000,
      downloadsDelayMs: -1,
      onWarning: (w) => warnings.push(w),
    });
    const live = await serve(outDir);
    const done: string[] = [];
    try {
      const paths = [
        ...samplePaths(readTree(outDir), rand),
        '/api/v1/topics/99',
        '/api/v1/topics?page=2',
        '/api/v1/entries?start=1660-01-01&end=1660-02-28',
      ];
      const s = await storm(contentDir, live.origin, paths, rand, done);
      figures.push(`in-process storm (seed ${seed}): ${describeStorm(s)}`);
      await repair(contentDir);
      await watcher.settled();
      const cold = await coldBuild(contentDir, overrides);
      if (!cold.ok) throw new Error(cold.problems.join('\n'));
      expect(differing(readTree(outDir), cold.tree), `seed ${seed}, after ${done.slice(-10).join('; ')}`).toEqual([]);
      const coldServer = await serve(cold.outDir);
      for (const path of paths)
        expect(await answer(live.origin, path), path).toBe(await answer(coldServer.origin, path));
      await coldServer.stop();
      expect(warnings).toEqual([]);
    } finally {
      await watcher.close();
      await live.stop();
    }
  });

  it('npm start -- --watch survives a broken site.yaml and a storm, and then serves a cold build', async () => {
    const seed = baseSeed + 2;
    const rand = prng(seed);
    const contentDir = writeContent(randomSite());
    const outDir = join(tempDir('pepys-watch-'), 'public');
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const child: ChildProcess = spawn(
      process.execPath,
      [
        'generator/cli/node-ts.mjs',
        'generator/cli/start.ts',
        '--watch',
        '--port',
        '0',
        '--content',
        contentDir,
        '--out',
        outDir,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      while (!/Serving .* at (http:\/\/\S+)\/api\/v1/.test(stdout)) {
        if (child.exitCode !== null) throw new Error(`npm start exited: ${stderr}`);
        await sleep(50);
      }
      const origin = (/Serving .* at (http:\/\/\S+)\/api\/v1/.exec(stdout) as RegExpExecArray)[1] as string;
      writeFileSync(join(contentDir, 'site.yaml'), 'apiOrigin: [unclosed\n');
      await sleep(500);
      expect(child.exitCode).toBe(null);
      const paths = [
        '/api/v1',
        '/api/v1/entries',
        '/api/v1/entries/1660-01-01',
        '/api/v1/topics/1',
        '/api/v1/topics/99',
        '/api/v1/topics',
      ];
      const done: string[] = [];
      const s = await storm(contentDir, origin, paths, rand, done);
      figures.push(`npm start -- --watch storm (seed ${seed}): ${describeStorm(s)}`);
      expect(child.exitCode).toBe(null);
      writeFileSync(join(contentDir, 'site.yaml'), SITE_YAML);
      await repair(contentDir);
      // The child settles on its own: wait until its answers stop changing and match a cold build.
      const cold = await coldBuild(contentDir, { apiOrigin: origin });
      if (!cold.ok) throw new Error(cold.problems.join('\n'));
      const coldServer = await serve(cold.outDir);
      const all = [...paths, ...samplePaths(cold.tree, rand)];
      const matches = async () =>
        (
          await Promise.all(all.map(async (p) => (await answer(origin, p)) === (await answer(coldServer.origin, p))))
        ).every(Boolean);
      const deadline = Date.now() + 60_000;
      while (!(await matches()) && Date.now() < deadline) await sleep(200);
      for (const path of all) expect(await answer(origin, path), path).toBe(await answer(coldServer.origin, path));
      await coldServer.stop();
      expect(stderr).toMatch(/site\.yaml:\d+: malformed YAML/);
      expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(readFileSync(join(contentDir, 'site.yaml'), 'utf8')).toBe(SITE_YAML);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
