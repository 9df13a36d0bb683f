// For the tests of a server owning what it serves (test/mirror-ownership.test.ts and its heavy
// half): servers started on any free port and stopped after each test, and what a server's
// answers link to: every http(s) URL of the API in a few of its answers (the root, each list's
// first two pages, three records of each kind), each answered 200.

import { afterEach, expect } from 'vitest';
import { type Running, startCli } from './cli.ts';

const SERVING = /^Serving .* at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/m;

/**
 * `npm start` on any free port, quiet, in `cwd`; each server still running after a test is
 * stopped (SIGTERM) and waited for. `forget` leaves one to the test (it stopped it itself).
 */
export function servers(): {
  start: (args: string[], cwd: string) => Running;
  originOf: (r: Running) => Promise<string>;
  forget: (r: Running) => void;
} {
  const running: Running[] = [];
  afterEach(async () => {
    for (const r of running.splice(0)) {
      r.child.kill('SIGTERM');
      await r.done;
    }
  });
  return {
    start(args, cwd) {
      const r = startCli('start', ['--port', '0', '--quiet', ...args], { cwd, env: { NO_COLOR: '1' } });
      running.push(r);
      return r;
    },
    async originOf(r) {
      return (await r.waitFor('stdout', SERVING))[1] as string;
    },
    forget(r) {
      running.splice(running.indexOf(r), 1);
    },
  };
}

/** Every http(s) URL in some answers of the server: the root, a list page, records of each kind. */
export async function linksOf(origin: string): Promise<string[]> {
  const urls: string[] = [];
  const get = async (url: string) => {
    const res = await fetch(url);
    expect(res.status, url).toBe(200);
    const text = await res.text();
    urls.push(...(text.match(/https?:\/\/[^"\s]+/g) ?? []));
    return JSON.parse(text) as { results?: Array<{ apiURL: string }>; nextPageURL?: string | null };
  };
  await get(`${origin}/api/v1`);
  for (const c of ['entries', 'categories', 'topics']) {
    const page = await get(`${origin}/api/v1/${c}`);
    for (const item of (page.results ?? []).slice(0, 3)) await get(item.apiURL.replace(/^https?:\/\/[^/]+/, origin));
    if (page.nextPageURL) await get(page.nextPageURL.replace(/^https?:\/\/[^/]+/, origin));
  }
  return urls.filter((u) => u.includes('/api/'));
}
