// The Cloudflare Worker in workerd (Cloudflare's runtime, from tools/cloudflare) answers exactly as
// the local server does: thousands of seeded random requests, each sent to both, over one build
// read by both (so both answer for the same origin). Status, every header of the contract and the
// body bytes must match.
//
// Needs `npm run cloudflare:install`; skipped with a message without it, except under CI=true.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { prng } from '../../generator/core/random.ts';
import { INSTALL, startWorkerd, type Workerd, wranglerInstalled } from '../../tools/cloudflare/workerd.ts';
import { CONTRACT_HEADER_NAMES, type Known, randomRequests } from '../edge/requests.ts';
import { knownRecords } from '../helpers/files.ts';
import { type LocalSite, startLocalSite } from '../helpers/local-server.ts';

const CONTENT = join(import.meta.dirname, '..', '..', 'content');
// 3,000 requests in all: the in-process comparison (test/cloudflare-worker.test.ts) covers the
// handler's logic; this covers the runtime, the bundling and the assets layer, at a CI cost of
// seconds.
const COUNTS = { 50: 2000, 7: 1000 } as const;
const PARALLEL = 8;

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

if (!wranglerInstalled()) {
  if (process.env.CI === 'true') {
    it('runs the Worker in workerd (CI)', () => {
      throw new Error(`CI=true but wrangler is not installed: run ${INSTALL}`);
    });
  } else {
    process.stderr.write(`\nSkipping the Cloudflare workerd tests: run ${INSTALL} to install wrangler and workerd.\n`);
    describe.skip(`Cloudflare Worker in workerd (not installed: ${INSTALL})`, () => {
      it('answers as the local server does', () => {});
    });
  }
} else {
  for (const pageSize of [50, 7] as const) {
    const count = COUNTS[pageSize];
    describe(`Cloudflare Worker in workerd = local server, byte for byte (page size ${pageSize})`, () => {
      let site: LocalSite;
      let workerd: Workerd;
      let known: Known;
      beforeAll(async () => {
        site = await startLocalSite(CONTENT, { pageSize });
        workerd = await startWorkerd({ publicDir: site.publicDir });
        known = knownRecords(site.publicDir);
      });
      afterAll(async () => {
        await workerd?.stop();
        await site?.stop();
      });

      it(`answers ${count.toLocaleString('en')} random requests exactly as the local server does`, async () => {
        const rand = prng(1666 + pageSize);
        // Some requests carry what changes an answer: a browser's Accept (the HTML view), a
        // validator (304), a CORS preflight.
        const cases = randomRequests(count, known, 1660 + pageSize).map(({ method, path }) => {
          // The identity representation: the Worker leaves compression to Cloudflare's edge, the
          // local server compresses by itself (with ETags of its own) when the client accepts it.
          const headers: Record<string, string> = { 'Accept-Encoding': 'identity' };
          const r = rand(20);
          if (r === 0) headers.Accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
          if (r === 1 && method === 'OPTIONS')
            Object.assign(headers, {
              Origin: 'https://example.org',
              'Access-Control-Request-Method': 'GET',
              'Access-Control-Request-Headers': 'X-Foo',
            });
          return { method, path, headers, revalidate: r === 2 };
        });
        const statuses = new Map<number, number>();
        const check = async ({ method, path, headers, revalidate }: (typeof cases)[number]) => {
          const label = `${method} ${path} ${JSON.stringify(headers)}`;
          let expected = await fetch(site.origin + path, { method, headers });
          const etag = expected.headers.get('etag');
          if (revalidate && etag !== null) {
            await expected.arrayBuffer();
            headers['If-None-Match'] = etag;
            expected = await fetch(site.origin + path, { method, headers });
          }
          const actual = await fetch(workerd.origin + path, { method, headers });
          expect(actual.status, label).toBe(expected.status);
          for (const h of CONTRACT_HEADER_NAMES)
            expect(actual.headers.get(h), `${label}: ${h}`).toBe(expected.headers.get(h));
          const [a, e] = [Buffer.from(await actual.arrayBuffer()), Buffer.from(await expected.arrayBuffer())];
          expect(a.equals(e), `${label}: body`).toBe(true);
          statuses.set(actual.status, (statuses.get(actual.status) ?? 0) + 1);
        };
        for (let i = 0; i < cases.length; i += PARALLEL) await Promise.all(cases.slice(i, i + PARALLEL).map(check));
        // The random mix reaches every kind of answer.
        for (const status of [200, 304, 400, 404, 405])
          expect(statuses.get(status) ?? 0, `answers with status ${status}`).toBeGreaterThan(status === 304 ? 5 : 20);
      });
    });
  }
}
