// Netlify's own local emulation (@netlify/dev, the function in Deno from the deno npm package)
// serving a project laid out as `npm run build -- --target netlify` leaves it (see
// tools/netlify/emulator.ts): the routes the generated function declares send every request under
// /api/ to it, whatever the method; its answers carry Netlify's CDN headers as docs/netlify.md
// says; a missing file answers 503 that nothing keeps; and the HTTP contract suite of the local
// server passes.
//
// The emulator starts a fresh Deno worker for every request (a cold start each time), so this runs
// on a sample of the sample content (the first entry of each year, the topics and categories
// they name) and fewer random ranges: byte-identity on thousands of requests is proven in-process
// (test/netlify-edge.test.ts) and in Deno (test/heavy/netlify-deno.test.ts).
//
// Needs `npm run netlify:install` (kept out of the everyday install). Without it these tests are
// skipped with a message saying so, except under CI=true, where they run and fail instead.
// Known differences between the emulator and production, and how these tests treat them, are
// listed in docs/netlify.md; none of them is patched over here.

import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { CDN_CACHE_CONTROL, NETLIFY_VARY } from '../../generator/deploy/netlify/cache.ts';
import { FUNCTION_NAME } from '../../generator/deploy/netlify/generate.ts';
import { type Emulation, emulatorInstalled, INSTALL, startEmulation } from '../../tools/netlify/emulator.ts';
import { BROWSER_ACCEPT, CARNET_CONTENT, CARNET_CONTRACT_SITE, defineContractTests } from '../contract/suite.ts';
import { packPath } from '../helpers/files.ts';
import { tempDir } from '../helpers/temp.ts';

const CONTENT = join(import.meta.dirname, '..', '..', 'content');
const ENTRIES_A_YEAR = 1;

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

/**
 * A smaller content directory from `content`: the first entries of each year (1660-01-01, which the
 * contract's examples name, among them), the topics the first of them names, each entry's topic
 * list cut down to those, and the categories those topics name with their ancestors.
 */
function sampleContent(): string {
  const dir = tempDir('pepys-netlify-content-');
  cpSync(join(CONTENT, 'site.yaml'), join(dir, 'site.yaml'));
  const entries: Array<{ year: string; name: string; text: string }> = [];
  for (const year of readdirSync(join(CONTENT, 'entries')).sort()) {
    for (const name of readdirSync(join(CONTENT, 'entries', year))
      .sort()
      .slice(0, ENTRIES_A_YEAR)) {
      entries.push({ year, name, text: readFileSync(join(CONTENT, 'entries', year, name), 'utf8') });
    }
  }
  const topicsOf = (text: string) =>
    (/^topics: \[(.*)\]$/m.exec(text)?.[1] ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
  const topics = new Set(topicsOf(entries[0]?.text ?? ''));
  for (const e of entries) {
    mkdirSync(join(dir, 'entries', e.year), { recursive: true });
    const kept = topicsOf(e.text).filter((t) => topics.has(t));
    writeFileSync(
      join(dir, 'entries', e.year, e.name),
      e.text.replace(/^topics: \[.*\]$/m, `topics: [${kept.join(', ')}]`),
    );
  }
  const categories = new Set<string>();
  mkdirSync(join(dir, 'topics'));
  for (const name of readdirSync(join(CONTENT, 'topics'))) {
    const text = readFileSync(join(CONTENT, 'topics', name), 'utf8');
    const topic = parse(text) as { id: number; categories?: string[] };
    if (!topics.has(String(topic.id))) continue;
    writeFileSync(join(dir, 'topics', name), text);
    for (const c of topic.categories ?? []) categories.add(c);
  }
  const tree = parse(readFileSync(join(CONTENT, 'categories.yaml'), 'utf8')) as Array<{
    slug: string;
    parent?: string;
  }>;
  const parentOf = new Map(tree.map((c) => [c.slug, c.parent]));
  for (const slug of [...categories])
    for (let p = parentOf.get(slug); p !== undefined; p = parentOf.get(p)) categories.add(p);
  writeFileSync(join(dir, 'categories.yaml'), stringify(tree.filter((c) => categories.has(c.slug))));
  return dir;
}

const installed = emulatorInstalled();
if (!installed && process.env.CI !== 'true') {
  process.stderr.write(`\nSkipping the Netlify emulation tests: run ${INSTALL} to install @netlify/dev and Deno.\n`);
}

// Without the tools: one test saying what is missing, skipped, or failing under CI=true.
if (!installed) {
  describe('Netlify emulation, not installed', () => {
    it.skipIf(process.env.CI !== 'true')(`needs @netlify/dev and Deno: run ${INSTALL}`, () => {
      throw new Error(`CI=true but Netlify's emulation is not installed: run ${INSTALL}`);
    });
  });
}

describe.runIf(installed)('Netlify emulation', () => {
  let emulation: Emulation | null = null;
  const url = (path: string) => (emulation as Emulation).origin + path;

  defineContractTests('Netlify emulation (@netlify/dev, the generated edge function in Deno)', {
    start: async () => {
      emulation = await startEmulation({ contentDir: sampleContent() });
      return { origin: emulation.origin };
    },
    stop: async () => {
      const answeredBy = emulation?.answeredBy ?? [];
      const paths = emulation?.answeredPaths ?? [];
      const configs = emulation?.configExtractions();
      await emulation?.stop();
      // Every request under /api/ reached the edge function but the downloads' (excludedPath),
      // which are static files: none fell through to a file or rule otherwise.
      expect(answeredBy.length).toBeGreaterThan(100);
      const notEdge = answeredBy.flatMap((t, i) => (t === 'edge-function' ? [] : [`${t} ${paths[i]}`]));
      expect(notEdge.length).toBeGreaterThan(0);
      for (const a of notEdge) expect(a).toMatch(/^static \/api\/v1\/downloads\/(diary\.sqlite|[a-z]+\.ndjson\.gz)$/);
      // The function's config was extracted once, at start, not once a request (the leak).
      expect(configs?.requests).toBe(answeredBy.length - notEdge.length);
      expect(configs?.extracted).toBe(0);
    },
    randomRanges: 20,
    timeout: 120_000,
    // Deno's HTTP server, which serves the edge function in the emulator (and, as far as can be
    // told from here, on Netlify), adds Accept-Encoding to the Vary of every response with a
    // body; the function itself sends exactly `Vary: Cookie, Accept` (docs/netlify.md).
    varyAdded: ['Accept-Encoding'],
    extra: (get) => {
      it('routes /api and everything under it to the function, for every method', async () => {
        for (const [method, path, status] of [
          ['GET', '/api', 404],
          ['GET', '/api/', 404],
          ['HEAD', '/api/v2/x', 404],
          ['OPTIONS', '/api/v1', 200],
          ['PUT', '/api/v1', 405],
          ['DELETE', '/api/v1/entries/1660-01-01', 405],
          ['PATCH', '/api/v1/topics', 405],
          ['GET', '/api/v1/entries/pages/1.json', 404],
          ['GET', '/api/v1/entries?start=1661-01-01&end=1661-12-31', 200],
        ] as const) {
          const res = await get(path, { method });
          expect(res.status, `${method} ${path}`).toBe(status);
          expect(res.headers.get('x-nf-edge-functions'), `${method} ${path}: the function that ran`).toBe(
            FUNCTION_NAME,
          );
          expect(res.headers.get('allow'), `${method} ${path}`).toBe('GET, HEAD, OPTIONS');
          await res.arrayBuffer();
        }
      });

      it("puts Netlify-Vary on every answer, and lets the CDN keep only GET's JSON answers under a plain URL", async () => {
        for (const [method, path, headers, kept] of [
          ['GET', '/api/v1/entries?start=1660-01-01&end=1662-06-30&page=1&utm_source=x', {}, true],
          ['GET', '/api/v1/entries/1660-01-01', {}, true],
          ['GET', '/api/v1/topics/999999999', {}, true],
          ['GET', '/api/v1/entries?start=1661-13-01', {}, true],
          ['GET', '/api/v1/entries?page=1&page=2', {}, false],
          ['GET', '/api/v1/entries/', {}, false],
          ['GET', '/api/v1/entries', { Accept: BROWSER_ACCEPT }, false],
          ['HEAD', '/api/v1/entries', {}, false],
          [
            'OPTIONS',
            '/api/v1/entries',
            { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' },
            false,
          ],
          ['POST', '/api/v1/entries', {}, false],
        ] as const) {
          const label = `${method} ${path} ${JSON.stringify(headers)}`;
          const res = await get(path, { method, headers });
          expect(res.headers.get('netlify-vary'), label).toBe(NETLIFY_VARY);
          // In the emulator the header reaches the client; Netlify strips it (docs/netlify.md).
          expect(res.headers.get('netlify-cdn-cache-control'), label).toBe(kept ? CDN_CACHE_CONTROL : null);
          await res.arrayBuffer();
        }
        const html = await get('/api/v1/entries/1660-01-01', { headers: { Accept: BROWSER_ACCEPT } });
        expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect((await html.text()).toLowerCase()).toContain('<!doctype html>');
      });

      it('answers 503 with no-store, which no cache keeps, when a pre-rendered file is missing', async () => {
        // The entry's detail is read out of its pack (core/packs.ts): the pack goes missing.
        const publicDir = join((emulation as Emulation).projectDir, 'public');
        const file = join(publicDir, packPath(publicDir, 'entries', '1660-01-01'));
        const bytes = readFileSync(file);
        rmSync(file);
        try {
          for (const path of ['/api/v1/entries/1660-01-01', '/api/v1/entries/1660-01-01.json']) {
            const res = await fetch(url(path));
            expect(res.status, path).toBe(503);
            expect(res.headers.get('cache-control'), path).toBe('no-store');
            expect(res.headers.get('netlify-cdn-cache-control'), path).toBeNull();
            expect(res.headers.get('netlify-vary'), path).toBe(NETLIFY_VARY);
            expect(await res.json(), path).toMatchObject({
              status_code: 503,
              detail: expect.stringContaining('lacks api/v1/entries/1660-01-01.json'),
            });
          }
        } finally {
          writeFileSync(file, bytes);
        }
        expect((await fetch(url('/api/v1/entries/1660-01-01'))).status).toBe(200);
      });
    },
  });

  // The second sample (Gregorian, French, its own webURLs), whole: it is small.
  let carnet: Emulation | null = null;
  defineContractTests('Netlify emulation, the second sample (Gregorian, French)', {
    start: async () => {
      // Built twice: public/ is a symlink to the generation a rebuild wrote (the emulator checks).
      carnet = await startEmulation({ contentDir: CARNET_CONTENT, rebuilt: true });
      return { origin: carnet.origin };
    },
    stop: async () => {
      await carnet?.stop();
    },
    randomRanges: 20,
    timeout: 120_000,
    varyAdded: ['Accept-Encoding'],
    site: CARNET_CONTRACT_SITE,
  });
});
