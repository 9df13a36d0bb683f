// The HTTP contract suite, run against the site served by workerd, Cloudflare's own runtime (from
// tools/cloudflare): the repository's wrangler.jsonc, its Worker bundled by wrangler as a deploy
// bundles it, the static-assets layer in front, the sample content built for workerd's origin.
// Then what only this deployment has: which layer answers what, and the failure modes of the
// site index.
//
// Needs `npm run cloudflare:install`; skipped with a message without it, except under CI=true.

import { appendFileSync, cpSync, lstatSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { build } from '../../generator/build.ts';
import { SITE_INDEX_FILE } from '../../generator/core/files.ts';
import { NO_STORE } from '../../generator/core/headers.ts';
import { BASIS_FILE, MANIFEST_FILE } from '../../generator/output/manifest.ts';
import { INSTALL, startWorkerd, type Workerd, wranglerInstalled } from '../../tools/cloudflare/workerd.ts';
import { CARNET_CONTENT, CARNET_CONTRACT_SITE, defineContractTests } from '../contract/suite.ts';
import { tempDir } from '../helpers/temp.ts';

const CONTENT = join(import.meta.dirname, '..', '..', 'content');
/** A header that only the static layer's answers carry (from a `_headers` file written for the test). */
const MARK = 'x-static-layer';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

if (!wranglerInstalled()) {
  if (process.env.CI === 'true') {
    it('runs the contract suite in workerd (CI)', () => {
      throw new Error(`CI=true but wrangler is not installed: run ${INSTALL}`);
    });
  } else {
    process.stderr.write(`\nSkipping the Cloudflare workerd tests: run ${INSTALL} to install wrangler and workerd.\n`);
    describe.skip(`Cloudflare Worker in workerd (not installed: ${INSTALL})`, () => {
      it('API contract in workerd', () => {});
    });
  }
} else {
  let workerd: Workerd | null = null;
  defineContractTests('Cloudflare Worker and static assets in workerd (wrangler.jsonc)', {
    start: async () => {
      // A rule added to the build's `_headers` file marks every answer of the static layer (this
      // proves it is read: see below). No answer under /api may carry the mark but the downloads'
      // (static files, whose headers the build's rules give): the Worker answers all the others
      // itself (docs/cloudflare.md).
      const beforeStart = (publicDir: string) => appendFileSync(join(publicDir, '_headers'), `/*\n  ${MARK}: yes\n`);
      workerd = await startWorkerd({ contentDir: CONTENT, beforeStart });
      return { origin: workerd.origin };
    },
    stop: async () => {
      await workerd?.stop();
    },
    // The Worker's Vary is the core's. Compression is the platform's: workerd's local server,
    // like Cloudflare's front line it emulates, gzips JSON and HTML for a client that accepts it,
    // after the Worker, and shows the Worker `Accept-Encoding: br, gzip` whatever the client sent;
    // it does not add Accept-Encoding to Vary (docs/cloudflare.md, "Compression").
    varyAdded: ['Accept-Encoding'],
    extra: (get) => {
      it('answers every method under /api in the Worker, files included: nothing from the static layer', async () => {
        const paths = [
          '/api',
          '/api/',
          '/api/v1/index.json',
          '/api/v1/entries/1660-01-01.json',
          '/api/v1/entries/1660-01-01',
          '/api/v1/entries/pages/1.json',
        ];
        for (const path of paths) {
          for (const method of ['GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE']) {
            const res = await get(path, { method });
            const label = `${method} ${path}`;
            expect(res.headers.get(MARK), label).toBeNull();
            // The static layer would answer OPTIONS and POST on a file with a bare 405.
            expect(res.headers.get('allow'), label).toBe('GET, HEAD, OPTIONS');
            expect(res.headers.get('x-content-type-options'), label).toBe('nosniff');
            const text = await res.text();
            if (method !== 'HEAD' && method !== 'OPTIONS')
              expect(() => JSON.parse(text) as unknown, label).not.toThrow();
          }
        }
        // The mark is there: the static layer still serves what lies outside /api (not an answer
        // of the API, so not through the suite's checks).
        const outside = await fetch(`${workerd?.origin}/${SITE_INDEX_FILE}`);
        expect(outside.status).toBe(200);
        expect(outside.headers.get(MARK)).toBe('yes');
        await outside.arrayBuffer();
        // The build's saved basis (a rebuild's, 16 MiB on the whole diary) is left out of the
        // assets by the .assetsignore the build writes beside it; its manifest is not.
        for (const [name, status] of [
          [BASIS_FILE, 404],
          [MANIFEST_FILE, 200],
        ] as const) {
          const res = await fetch(`${workerd?.origin}/${name}`);
          await res.arrayBuffer();
          expect(res.status, name).toBe(status);
        }
      });

      it('answers conditional and range requests itself: its own ETag, lists of validators, whole bodies', async () => {
        const path = '/api/v1/entries/1660-01-01.json';
        const first = await get(path);
        const etag = first.headers.get('etag') as string;
        // The core's validator, not the static layer's 32 hex digits.
        expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
        const body = await first.text();
        const ranged = await get(path, { headers: { Range: 'bytes=0-9' } });
        expect(ranged.status).toBe(200);
        expect(await ranged.text()).toBe(body);
        const again = await get(path, { headers: { 'If-None-Match': `"other", W/${etag}` } });
        expect(again.status).toBe(304);
        expect(again.headers.get('etag')).toBe(etag);
        expect(await again.text()).toBe('');
      });
    },
  });

  // The second sample (Gregorian, French, its own webURLs).
  let carnet: Workerd | null = null;
  defineContractTests('Cloudflare Worker in workerd, the second sample (Gregorian, French)', {
    start: async () => {
      // Built twice: the assets directory is a symlink to the generation a rebuild wrote.
      carnet = await startWorkerd({ contentDir: CARNET_CONTENT, rebuilt: true });
      expect(lstatSync(carnet.publicDir).isSymbolicLink()).toBe(true);
      return { origin: carnet.origin };
    },
    stop: async () => {
      await carnet?.stop();
    },
    varyAdded: ['Accept-Encoding'],
    site: CARNET_CONTRACT_SITE,
  });

  describe('Cloudflare Worker in workerd: a site index that cannot be loaded', () => {
    let built = '';
    const running: Workerd[] = [];
    beforeAll(async () => {
      built = join(tempDir('pepys-cf-built-'), 'public');
      await build({ contentDir: CONTENT, outDir: built, quiet: true, overrides: {}, env: {} });
    });
    afterAll(async () => {
      for (const w of running.splice(0)) await w.stop();
    });

    const cases: Array<[string, string | null, RegExp]> = [
      [
        'missing',
        null,
        /^The API is unavailable: the site index _data\/site-index\.json is not among the deployed assets\.$/,
      ],
      [
        'truncated',
        '{"version": 1, "buildId"',
        /^The API is unavailable: the site index _data\/site-index\.json is broken: not valid JSON/,
      ],
      [
        'of another version',
        '{"version": 1}',
        /is broken: version is 1, not 4: it was made by another version of the generator\.$/,
      ],
    ];
    for (const [what, text, detail] of cases) {
      it(`answers the contract's 503, which no cache keeps, when the index is ${what}, request after request`, async () => {
        const publicDir = join(tempDir('pepys-cf-broken-'), 'public');
        cpSync(built, publicDir, { recursive: true });
        if (text === null) rmSync(join(publicDir, SITE_INDEX_FILE));
        else writeFileSync(join(publicDir, SITE_INDEX_FILE), text);
        const w = await startWorkerd({ publicDir });
        running.push(w);
        for (const path of ['/api/v1', '/api/v1/entries/1660-01-01', '/api/v1/entries?start=1661-01-01']) {
          // Twice: a failed load is not kept; the next request loads again (and fails again here).
          for (let i = 0; i < 2; i++) {
            const res = await fetch(w.origin + path);
            expect(res.status, path).toBe(503);
            expect(res.headers.get('cache-control'), path).toBe(NO_STORE);
            expect(res.headers.get('content-type'), path).toBe('application/json');
            expect(res.headers.get('allow'), path).toBe('GET, HEAD, OPTIONS');
            const body = (await res.json()) as { detail: string; status_code: number };
            expect(Object.keys(body)).toEqual(['detail', 'status_code']);
            expect(body.status_code).toBe(503);
            expect(body.detail, path).toMatch(detail);
          }
        }
      });
    }
  });
}
