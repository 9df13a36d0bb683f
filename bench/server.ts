// The local server on loopback under a bounded load (autocannon: fixed connections, a few seconds
// per scenario): a static detail served from its file, and computed ranges rendered per request.

import { type ChildProcess, spawn } from 'node:child_process';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number };
  requests: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
}

/** Starts `npm start -- --no-build` as a child on 127.0.0.1 and an OS-chosen port. */
async function startServer(repo: string, outDir: string): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'generator/cli/start.ts', '--no-build', '--out', outDir, '--host', '127.0.0.1', '--port', '0'],
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
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

async function load(origin: string, paths: readonly string[], o: LoadOptions): Promise<LoadResult> {
  const r = await autocannon({
    url: origin,
    connections: o.connections,
    duration: o.durationSeconds,
    requests: paths.map((path) => ({ method: 'GET', path })),
  });
  return {
    requestsPerSecond: r.requests.average,
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99 },
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

export async function serverLoad(
  repo: string,
  outDir: string,
  detailPath: string,
  rangePaths: readonly string[],
  o: LoadOptions,
): Promise<{ detail: LoadResult; range: LoadResult }> {
  const { child, origin } = await startServer(repo, outDir);
  try {
    await load(origin, [detailPath, ...rangePaths.slice(0, 50)], { connections: o.connections, durationSeconds: 1 }); // warm-up
    const detail = await load(origin, [detailPath], o);
    const range = await load(origin, rangePaths, o);
    return { detail, range };
  } finally {
    child.kill('SIGTERM');
  }
}
