// The local server on loopback under a bounded load (autocannon: fixed connections, a few seconds
// per scenario), and how soon `npm start` answers.
//
// Scenarios, each after the same warm-up: one pre-rendered entry detail, served from its file;
// computed ranges (200 start/end/page combinations the build did not pre-render, in turn: each
// is computed once, then answered from the generation's kept answers, as for any client that
// asks again); computed ranges never asked before (a fresh combination every request: the
// handler renders each one). The load generator runs in a process of its own (server-run.ts):
// the benchmark's own heap would slow it, and with it the figures.

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { detailFile } from '../generator/core/files.ts';
import { unpacking } from '../generator/core/packs.ts';
import { sleep, type Trash } from './measure.ts';
import { loadSite } from './range.ts';

export interface LoadResult {
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  requests: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
}

/**
 * `npm start -- --no-build` (without npm: node-ts.mjs, as npm runs it) on 127.0.0.1 and a free
 * port, its errors on this process's stderr; with `how`, those options instead of --no-build
 * (`--content DIR --watch`: it answers once it has built). The caller stops it.
 */
export async function startServer(
  repo: string,
  outDir: string,
  how: readonly string[] = ['--no-build'],
): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(
    process.execPath,
    [
      'generator/cli/node-ts.mjs',
      'generator/cli/start.ts',
      ...how,
      '--out',
      outDir,
      '--host',
      '127.0.0.1',
      '--port',
      '0',
    ],
    { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${out}`)), 30_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${out}`)));
  });
  return { child, origin };
}

type Requests = NonNullable<Parameters<typeof autocannon>[0]['requests']>;

async function load(origin: string, requests: Requests, o: LoadOptions): Promise<LoadResult> {
  const r = await autocannon({ url: origin, connections: o.connections, duration: o.durationSeconds, requests });
  return {
    requestsPerSecond: r.requests.average,
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

const paths = (list: readonly string[]): Requests => list.map((path) => ({ method: 'GET', path }));

export interface ServerLoad {
  detail: LoadResult;
  range: LoadResult;
  freshRange: LoadResult;
}

/** Runs the scenarios against `npm start -- --no-build` over `outDir` (call it in a process of its own). */
export async function serverLoad(
  repo: string,
  outDir: string,
  detailPath: string,
  rangePaths: readonly string[],
  freshRangePath: () => string,
  o: LoadOptions,
): Promise<ServerLoad> {
  const { child, origin } = await startServer(repo, outDir);
  try {
    await load(origin, paths([detailPath, ...rangePaths]), { connections: o.connections, durationSeconds: 1 }); // warm-up
    const detail = await load(origin, paths([detailPath]), o);
    const range = await load(origin, paths(rangePaths), o);
    const fresh: Requests = [{ method: 'GET', setupRequest: (req) => ({ ...req, path: freshRangePath() }) }];
    const freshRange = await load(origin, fresh, o);
    return { detail, range, freshRange };
  } finally {
    child.kill('SIGTERM');
  }
}

/**
 * `npm start` on the whole diary, as a user starts it: milliseconds from the spawn of npm to the
 * first correct answer (an entry detail, byte for byte the file the build wrote for the origin
 * served). A request made before the site is built waits for it (start.ts), so one request at a
 * time is kept waiting from the moment the port accepts connections.
 */
export async function startReadiness(
  repo: string,
  contentDir: string,
  outDir: string,
  port: number,
  date: string,
  trash: Trash,
): Promise<number> {
  trash.put(outDir);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const started = performance.now();
  const child = spawn(
    npm,
    ['start', '-s', '--', '--content', contentDir, '--out', outDir, '--port', String(port), '--quiet'],
    {
      cwd: repo,
      stdio: 'ignore',
      detached: true,
    },
  );
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}/api/v1/entries/${date}`;
  try {
    for (;;) {
      if (exited) throw new Error('npm start exited before it answered');
      if (performance.now() - started > 60_000) throw new Error('npm start did not answer within a minute');
      let body: Buffer;
      try {
        const r = await fetch(url);
        body = Buffer.from(await r.arrayBuffer());
        if (r.status !== 200) throw new Error(`npm start answered ${r.status}`);
      } catch (err) {
        if ((err as Error).message.startsWith('npm start')) throw err;
        // Not listening yet.
        await sleep(2);
        continue;
      }
      const ms = performance.now() - started;
      // The detail as the build wrote it, out of its pack (core/packs.ts).
      const read = unpacking((f) => readFileSync(join(outDir, f)), loadSite(outDir));
      const file = read(detailFile('entries', date)) as Uint8Array;
      if (!body.equals(file)) throw new Error(`npm start answered ${url} with other bytes than the file it built`);
      return ms;
    }
  } finally {
    // npm runs the server in a process group of its own making: stop them all.
    try {
      process.kill(-(child.pid as number), 'SIGTERM');
    } catch {
      // Gone already.
    }
    await new Promise<void>((r) => (exited ? r() : child.on('exit', () => r())));
  }
}
