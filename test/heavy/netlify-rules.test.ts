// The generated public/_redirects: its shape (pure), and, under Netlify's emulation with the edge
// function switched off (what Netlify does when the function is bypassed), that it maps every
// pre-rendered answer onto its file, byte for byte, with the contract's headers from netlify.toml,
// and never serves a file for a range that was not pre-rendered.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { renderSite } from '../../generator/render/render-site.ts';
import { REDIRECTS_FILE, redirectsFile } from '../../generator/deploy/netlify/redirects.ts';
import { loadContent } from '../../generator/content/load.ts';
import { emulatorInstalled, startEmulation } from '../../tools/netlify/emulator.ts';

const CONTENT = join(import.meta.dirname, '..', '..', 'content');
const INSTALL = 'npm ci --prefix tools/netlify';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const rules = (text: string) => text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));

describe('netlify rules: the generated _redirects', () => {
  it('is part of the build output and a pure function of its file list', async () => {
    const { model } = await loadContent(CONTENT, { env: {} });
    const files = renderSite(model);
    const generated = files.filter((f) => f.path === REDIRECTS_FILE);
    expect(generated).toHaveLength(1);
    const others = files.filter((f) => f.path !== REDIRECTS_FILE).map((f) => f.path);
    expect(generated[0]?.body).toBe(redirectsFile(others));
    expect(redirectsFile([...others].reverse())).toBe(redirectsFile(others));
  });

  it('puts specific rules before general ones, and stays far below Netlify’s 10,000 rules', async () => {
    const { model } = await loadContent(CONTENT, { env: {} });
    const text = redirectsFile(renderSite(model).map((f) => f.path));
    const lines = rules(text);
    expect(lines.length).toBeLessThan(2000);
    for (const from of ['/api/v1/entries', '/api/v1/entries.json']) {
      const mine = lines.filter((l) => l.startsWith(`${from} `)).map((l) => l.split(/\s{2,}/));
      const at = (query: string) => mine.findIndex((r) => r[1] === query);
      const lastRange = mine.map((r) => (r[1] ?? '').startsWith('start=1') ? 1 : 0).lastIndexOf(1);
      expect(lastRange).toBeGreaterThan(0);
      expect(at('start=:start')).toBe(lastRange + 1);
      expect(at('end=:end')).toBe(lastRange + 2);
      expect(at('page=:page')).toBe(lastRange + 3);
      expect(mine.at(-1)).toEqual([from, '/api/v1/entries/pages/1.json', '200!']);
      // Ten years and 113 months, each with and without a page.
      expect(mine.filter((r) => (r[1] ?? '').startsWith('start=1')).length).toBe(2 * (10 + 113));
    }
    expect(lines).toContain('/api/v1  /api/v1/index.json  200!');
    expect(lines).toContain('/api/v1/topics/:key  /api/v1/topics/:key.json  200');
    expect(lines).toContain('/api/v1/entries  start=1664-02-01 end=1664-02-29 page=:page  /api/v1/entries/months/1664-02/pages/:page.json  200!');
  });
});

/** Every file under `dir`, as `/`-separated paths relative to it. */
function tree(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tree(path, root) : [relative(root, path).split('\\').join('/')];
  });
}

/** The requests a client makes for a pre-rendered file, by the contract's canonical links. */
function requestsFor(file: string): string[] {
  const both = (path: string, query: string) => [`${path}${query}`, `${path}.json${query}`];
  const pageQuery = (n: number, rest: string) => {
    const withPage = [rest, `page=${n}`].filter(Boolean).join('&');
    return n === 1 ? [rest === '' ? '' : `?${rest}`, `?${withPage}`] : [`?${withPage}`];
  };
  let m: RegExpExecArray | null;
  if (file === 'api/v1/index.json') return ['/api/v1', '/api/v1/', '/api/v1.json'];
  if ((m = /^api\/v1\/(entries|categories|topics)\/pages\/(\d+)\.json$/.exec(file))) {
    return pageQuery(Number(m[2]), '').flatMap((q) => both(`/api/v1/${m?.[1] as string}`, q));
  }
  if ((m = /^api\/v1\/entries\/years\/(\d{4})\/pages\/(\d+)\.json$/.exec(file))) {
    return pageQuery(Number(m[2]), `start=${m[1]}-01-01&end=${m[1]}-12-31`).flatMap((q) => both('/api/v1/entries', q));
  }
  if ((m = /^api\/v1\/entries\/months\/(\d{4})-(\d{2})\/pages\/(\d+)\.json$/.exec(file))) {
    const last = new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate();
    return pageQuery(Number(m[3]), `start=${m[1]}-${m[2]}-01&end=${m[1]}-${m[2]}-${last}`).flatMap((q) => both('/api/v1/entries', q));
  }
  if ((m = /^api\/v1\/(entries|categories|topics)\/([^/]+)\.json$/.exec(file))) return [`/${file.slice(0, -5)}`, `/${file}`];
  return [];
}

describe.skipIf(!emulatorInstalled() && process.env.CI !== 'true')(
  `netlify rules under Netlify emulation, edge function bypassed${emulatorInstalled() ? '' : ` (not installed: ${INSTALL})`}`,
  () => {
    it('serve every pre-rendered answer from its file, and no file for any other range', async () => {
      const emulation = await startEmulation({ contentDir: CONTENT, edgeFunctions: false });
      try {
        const publicDir = join(emulation.projectDir, 'public');
        let checked = 0;
        for (const file of tree(publicDir)) {
          const bytes = readFileSync(join(publicDir, file));
          for (const path of requestsFor(file)) {
            const res = await fetch(emulation.origin + path);
            expect(res.status, path).toBe(200);
            expect(Buffer.from(await res.arrayBuffer()).equals(bytes), `${path} = ${file}`).toBe(true);
            expect(res.headers.get('content-type'), path).toBe('application/json');
            expect(res.headers.get('allow'), path).toBe('GET, HEAD, OPTIONS');
            expect(res.headers.get('vary'), path).toBe('Cookie, Accept');
            checked++;
          }
        }
        expect(checked).toBeGreaterThan(1000);
        // Ranges and pages that no file holds: a 404, never another file.
        for (const path of [
          '/api/v1/entries?start=1660-01-02&end=1660-12-31',
          '/api/v1/entries?start=1660-01-01',
          '/api/v1/entries?end=1660-12-31',
          '/api/v1/entries.json?start=1661-01-01&end=1661-01-30',
          '/api/v1/entries?start=1660-01-01&end=1660-12-31&page=999',
          '/api/v1/entries?page=999',
          '/api/v1/topics?page=999',
        ]) {
          const res = await fetch(emulation.origin + path);
          expect(res.status, path).toBe(404);
          await res.arrayBuffer();
        }
        expect(new Set(emulation.answeredBy)).not.toContain('edge-function');
      } finally {
        await emulation.stop();
      }
    });
  },
);
