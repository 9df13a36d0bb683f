// Netlify's edge function, in-process (it is runtime-free), as `npm run build -- --target netlify`
// generates it: its answers are byte-identical to the local server's on thousands of random
// requests over one build; it carries Netlify's CDN headers as docs/netlify.md says; it never
// fetches its index, and every failure is a 503 that nothing keeps. The same function runs in
// Deno in test/heavy/netlify-deno.test.ts, and under Netlify's emulation in
// test/heavy/netlify-emulation.test.ts.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResponse } from '../generator/core/handler.ts';
import { cdnMayKeep, NETLIFY_VARY } from '../generator/deploy/netlify/cache.ts';
import { createEdgeFunction, type NetlifyContext } from '../generator/deploy/netlify/edge.ts';
import {
  entrySource,
  FUNCTION_CONFIG,
  FUNCTION_FILE,
  FUNCTIONS_DIR,
  INDEX_FILE,
  writeNetlifyFunction,
} from '../generator/deploy/netlify/generate.ts';
import { emulatorToml } from '../tools/netlify/emulator.ts';
import { edgeEqualsLocalServer, filesOf } from './edge/netlify-identity.ts';
import { type LocalSite, sampleSite as sharedSample } from './helpers/local-server.ts';
import { tempDir } from './helpers/temp.ts';

const REPO = join(import.meta.dirname, '..');

// 1,200 random requests at the sample's page size, over the run's shared build; 600 more at a
// small one (many pages) in test/heavy/netlify-edge-pages.test.ts (a build of the sample of their
// own); the Deno test (test/heavy/netlify-deno.test.ts) runs 3,000 through the generated function
// in Deno.
edgeEqualsLocalServer(50, 1200);

// The run's one build of the sample for the tests below.
const sampleSite = async (): Promise<LocalSite> => sharedSample();

describe('Netlify edge function: what the CDN may keep', () => {
  const request = (method: string, target: string): ApiRequest => {
    const q = target.indexOf('?');
    return {
      method,
      path: q === -1 ? target : target.slice(0, q),
      query: q === -1 ? '' : target.slice(q + 1),
      header: () => null,
    };
  };
  const answer = (over: Partial<ApiResponse> = {}): ApiResponse => ({
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    body: new Uint8Array(),
    sendBody: true,
    cacheable: true,
    ...over,
  });

  it('keeps JSON answers to GET under a plain URL whose key parameters are given once', () => {
    for (const target of [
      '/api',
      '/api/v1',
      '/api/v1.json',
      '/api/v1/entries',
      '/api/v1/entries?page=2',
      '/api/v1/entries?page=last',
      '/api/v1/entries?start=1660-01-01&end=1660-12-31&page=007',
      '/api/v1/entries?end=1669-05-31&start=',
      '/api/v1/entries?utm_source=x&page=2&utm_source=y',
      '/api/v1/entries?page',
      '/api/v1/entries/1660-01-01.json',
      '/api/v1/topics/12',
      '/api/v1/categories/navy-board',
      '/api/v1/entries?start=1661-13-01',
    ]) {
      expect(cdnMayKeep(request('GET', target), answer()), target).toBe(true);
    }
  });

  it('keeps nothing a request with a different answer could share a key with', () => {
    for (const target of [
      // repeated, re-cased or escaped key parameters, odd values
      '/api/v1/entries?page=1&page=2',
      '/api/v1/entries?Page=2',
      '/api/v1/entries?PAGE=2&page=3',
      '/api/v1/entries?%70age=2',
      '/api/v1/entries?start=1660-01-01%20',
      '/api/v1/entries?start=+1660-01-01',
      '/api/v1/entries?page=2;page=3',
      // paths that a normalising cache could fold into another
      '/api/v1/entries/',
      '/api/v1/',
      '/api/v1//entries',
      '/api/v1/ENTRIES',
      '/api/v1/./entries',
      '/api/v1/entries/..',
      '/api/v1/categories/Not%20a%20slug',
      '/api/v1/entries/1660%2D01%2D01',
    ]) {
      expect(cdnMayKeep(request('GET', target), answer()), target).toBe(false);
    }
  });

  it('keeps no HEAD, OPTIONS, refused method, 304, 5xx or HTML answer', () => {
    const path = '/api/v1/entries';
    expect(cdnMayKeep(request('HEAD', path), answer({ sendBody: false }))).toBe(false);
    expect(cdnMayKeep(request('OPTIONS', path), answer({ cacheable: false }))).toBe(false);
    expect(cdnMayKeep(request('POST', path), answer({ status: 405, cacheable: false }))).toBe(false);
    expect(cdnMayKeep(request('GET', path), answer({ status: 304 }))).toBe(false);
    expect(cdnMayKeep(request('GET', path), answer({ status: 503, cacheable: false }))).toBe(false);
    expect(cdnMayKeep(request('GET', path), answer({ headers: { 'Content-Type': 'text/html; charset=utf-8' } }))).toBe(
      false,
    );
  });
});

describe('Netlify edge function: failures answer 503 that nothing keeps', () => {
  let site: LocalSite;
  let index: unknown;
  beforeAll(async () => {
    site = await sampleSite();
    index = JSON.parse(readFileSync(join(site.publicDir, '_data', 'site-index.json'), 'utf8'));
  });

  async function expectUnavailable(res: Response, detail: RegExp, label: string): Promise<void> {
    expect(res.status, label).toBe(503);
    expect(res.headers.get('cache-control'), label).toBe('no-store');
    expect(res.headers.get('netlify-cdn-cache-control'), label).toBeNull();
    expect(res.headers.get('netlify-vary'), label).toBe(NETLIFY_VARY);
    expect(res.headers.get('content-type'), label).toBe('application/json');
    if (label.includes('HEAD ')) {
      expect(await res.text(), label).toBe('');
      return;
    }
    const body = (await res.json()) as { detail: string; status_code: number };
    expect(body.status_code, label).toBe(503);
    expect(body.detail, label).toMatch(detail);
  }

  it('with an invalid bundled index, for every request, without reading a file', async () => {
    for (const bad of [null, 'text', { version: 2 }, { ...(index as object), entries: [['1660-13-01', 'x', 'y']] }]) {
      const api = createEdgeFunction(bad);
      const context = filesOf(site.publicDir);
      for (const [method, path] of [
        ['GET', '/api/v1/entries?start=1661-01-01'],
        ['GET', '/api/v1'],
        ['HEAD', '/api/v1/entries/1660-01-01'],
      ] as const) {
        await expectUnavailable(
          await api(new Request(site.origin + path, { method }), context),
          /bundled site index is invalid/,
          `${JSON.stringify(bad)?.slice(0, 40)} ${method} ${path}`,
        );
      }
      expect(context.served).toEqual([]);
    }
  });

  it('when a pre-rendered file is missing, or reading it fails or throws', async () => {
    const api = createEdgeFunction(index);
    const path = '/api/v1/entries/1660-01-01';
    const failing: Array<[string, NetlifyContext['next'], RegExp]> = [
      ['404', async () => new Response('Not Found', { status: 404 }), /lacks api\/v1\/entries\/1660-01-01\.json/],
      ['500', async () => new Response('oops', { status: 500 }), /lacks api\/v1\/entries\/1660-01-01\.json/],
      ['a redirect', async () => new Response(null, { status: 301, headers: { Location: '/' } }), /lacks/],
      [
        'a throw',
        async () => {
          throw new Error('network down');
        },
        /unexpected error/,
      ],
    ];
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      for (const [what, next, detail] of failing) {
        await expectUnavailable(await api(new Request(site.origin + path), { next }), detail, what);
      }
    } finally {
      console.error = original;
    }
    // The thrown cause goes to Netlify's function log, in one line.
    expect(errors).toEqual([`pepys-api: GET ${site.origin}${path}: network down`]);
    // Computed answers need no file: they still come.
    const computed = await api(new Request(`${site.origin}/api/v1/entries?start=1660-01-02`), {
      next: failing[0]?.[1] as NetlifyContext['next'],
    });
    expect(computed.status).toBe(200);
  });
});

describe('npm run build -- --target netlify: the generated function', () => {
  let site: LocalSite;
  beforeAll(async () => {
    site = await sampleSite();
  });

  it('writes its entry module and the build index into .netlify/v1/edge-functions/, and nothing else', () => {
    const project = tempDir('pepys-netlify-project-');
    mkdirSync(join(project, 'generator', 'deploy', 'netlify'), { recursive: true });
    writeFileSync(join(project, 'generator', 'deploy', 'netlify', 'edge.ts'), '');
    const dir = join(project, FUNCTIONS_DIR);
    mkdirSync(dir, { recursive: true });
    // Another generator's function, our own leftovers of an interrupted run and of older names.
    for (const name of ['other.ts', 'import_map.json', '.pepys-api.ts.123.tmp', 'pepys-api-old.json', 'pepys-api.js'])
      writeFileSync(join(dir, name), 'x');
    const written = writeNetlifyFunction(site.publicDir, project);
    if (!written.ok) throw new Error(written.error);
    expect(readdirSync(dir).sort()).toEqual(['import_map.json', 'other.ts', INDEX_FILE, FUNCTION_FILE].sort());
    expect(readFileSync(join(dir, INDEX_FILE))).toEqual(readFileSync(join(site.publicDir, '_data', 'site-index.json')));
    const source = readFileSync(join(dir, FUNCTION_FILE), 'utf8');
    expect(source).toBe(entrySource());
    expect(source).toContain("from '../../../generator/deploy/netlify/edge.ts'");
    expect(source).toContain(`from './${INDEX_FILE}' with { type: 'json' }`);
    // Inline routes: every method (HEAD cannot be declared), cached by the CDN as answers allow,
    // Netlify's default onError.
    expect(FUNCTION_CONFIG).toMatchObject({ path: ['/api', '/api/*'], cache: 'manual' });
    expect(FUNCTION_CONFIG).not.toHaveProperty('method');
    expect(FUNCTION_CONFIG).not.toHaveProperty('onError');
    // A second build replaces both files in place.
    const again = writeNetlifyFunction(site.publicDir, project);
    expect(again.ok).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['import_map.json', 'other.ts', INDEX_FILE, FUNCTION_FILE].sort());
  });

  it('refuses, saying why, when there is no index, a damaged one, or no adapter to import', () => {
    const project = tempDir('pepys-netlify-project-');
    const noAdapter = writeNetlifyFunction(site.publicDir, project);
    expect(noAdapter).toEqual({
      ok: false,
      error: expect.stringMatching(/generator\/deploy\/netlify\/edge\.ts is missing/),
    });
    const empty = tempDir('pepys-netlify-site-');
    expect(writeNetlifyFunction(empty, REPO)).toEqual({
      ok: false,
      error: expect.stringMatching(/site-index\.json cannot be read: build the site first/),
    });
    mkdirSync(join(empty, '_data'));
    writeFileSync(join(empty, '_data', 'site-index.json'), '{"version":1');
    expect(writeNetlifyFunction(empty, REPO)).toEqual({
      ok: false,
      error: expect.stringMatching(/is not a site index \(not valid JSON/),
    });
    expect(existsSync(join(project, FUNCTIONS_DIR))).toBe(false);
  });

  it('is the only declaration of its routes: netlify.toml declares no edge function and builds with --target netlify', () => {
    const toml = readFileSync(join(REPO, 'netlify.toml'), 'utf8');
    const settings = toml.replace(/#.*$/gm, '');
    expect(settings).not.toMatch(/\[\[edge_functions\]\]/);
    expect(settings).not.toMatch(/^\s*edge_functions\s*=/m);
    for (const command of settings.match(/^\s*command\s*=.*$/gm) ?? ['(none)'])
      expect(command).toMatch(/npm run build -- .*--target netlify|npm run build -- --target netlify/);
    expect(settings).toMatch(/NODE_VERSION\s*=\s*"24"/);
    // The emulator adds the directory it cannot find by itself, once.
    const emulated = emulatorToml(toml, FUNCTIONS_DIR);
    expect(emulated.match(/^\s*edge_functions\s*=\s*"\.netlify\/v1\/edge-functions"/gm)?.length).toBe(1);
    expect(() => emulatorToml(`${emulated}`, FUNCTIONS_DIR)).toThrow(/declared twice/);
  });
});
