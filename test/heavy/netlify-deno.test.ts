// Netlify's edge function in Deno, the runtime Netlify runs it in (Deno from tools/netlify), as
// `npm run build -- --target netlify` generates it: its module graph holds nothing but the
// generated module, its site index, generator/deploy and generator/core; and its own tests
// (test/edge/*_test.ts) pass, among them the byte-identity of its answers to the local server's on
// thousands of random requests, recorded here from a local server over the same build.
//
// Needs `npm run netlify:install`; skipped with a message without it, except under CI=true.

import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { prng } from '../../generator/core/random.ts';
import {
  FUNCTION_FILE,
  FUNCTIONS_DIR,
  INDEX_FILE,
  writeNetlifyFunction,
} from '../../generator/deploy/netlify/generate.ts';
import { denoDir, emulatorInstalled, INSTALL } from '../../tools/netlify/emulator.ts';
import { BROWSER_ACCEPT } from '../contract/suite.ts';
import { CONTRACT_HEADER_NAMES, randomRequests } from '../edge/requests.ts';
import { knownRecords } from '../helpers/files.ts';
import { type LocalSite, startLocalSite } from '../helpers/local-server.ts';
import { tempDir } from '../helpers/temp.ts';

const REPO = join(import.meta.dirname, '..', '..');

vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

const deno = (args: string[], env: Record<string, string> = {}) => {
  const dir = denoDir();
  if (dir === null) throw new Error(`Deno is not installed: run ${INSTALL}`);
  return spawnSync(join(dir, 'deno'), args, {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, ...env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
  });
};

const installed = emulatorInstalled();
if (!installed && process.env.CI !== 'true') {
  process.stderr.write(`\nSkipping the Netlify edge function's Deno tests: run ${INSTALL} to install Deno.\n`);
}

// Without the tools: one test saying what is missing, skipped, or failing under CI=true.
if (!installed) {
  describe('Netlify edge function in Deno, not installed', () => {
    it.skipIf(process.env.CI !== 'true')(`needs Deno: run ${INSTALL}`, () => {
      throw new Error(`CI=true but Deno is not installed: run ${INSTALL}`);
    });
  });
}

describe.runIf(installed)('Netlify edge function in Deno', () => {
  let site: LocalSite;
  let fixture: string;
  let entry: string;
  beforeAll(async () => {
    site = await startLocalSite(join(REPO, 'content'), { pageSize: 9 });
    // On disk: Deno's --allow-read does not extend to /dev, where the run's TMPDIR may be.
    fixture = tempDir('pepys-deno-', { disk: true });
    // The project as Netlify's build leaves it: the sources the function imports (and the installed
    // dependencies the search imports by their files), and the function.
    const project = join(fixture, 'project');
    for (const dir of ['generator/core', 'generator/deploy', 'node_modules/@orama/stemmers', 'node_modules/entities'])
      cpSync(join(REPO, dir), join(project, dir), { recursive: true });
    const written = writeNetlifyFunction(site.publicDir, project);
    if (!written.ok) throw new Error(written.error);
    entry = written.value.entry;
    cpSync(site.publicDir, join(fixture, 'public'), { recursive: true });
  });
  afterAll(async () => {
    await site?.stop();
  });

  it('imports only its site index, generator/deploy and generator/core modules: nothing Node-only, nothing remote', () => {
    const info = deno(['info', '--json', '--no-config', entry]);
    expect(info.status, info.stderr).toBe(0);
    const graph = JSON.parse(info.stdout) as { modules: Array<{ specifier: string; error?: string }> };
    const project = join(fixture, 'project');
    const modules = graph.modules.map((m) => {
      expect(m.error, m.specifier).toBeUndefined();
      expect(m.specifier, 'a local file').toMatch(/^file:\/\//);
      return relative(project, fileURLToPath(m.specifier)).split(sep).join('/');
    });
    const generated = [FUNCTION_FILE, INDEX_FILE].map((f) => `${FUNCTIONS_DIR}/${f}`);
    for (const m of modules) {
      if (generated.includes(m)) continue;
      // The search's dependencies: its stemmer, one ES module of its package importing nothing, and
      // its HTML decoder, ES modules of its package importing one another.
      if (m === 'node_modules/@orama/stemmers/dist/en.js') continue;
      if (/^node_modules\/entities\/dist\/esm\/[\w/-]+\.js$/.test(m)) continue;
      expect(m, 'module of the edge function').toMatch(
        /^generator\/(deploy\/(netlify\/[\w-]+|web|read-body)|core\/([\w-]+\/)?[\w-]+)\.ts$/,
      );
    }
    for (const m of [
      `${FUNCTIONS_DIR}/${INDEX_FILE}`,
      'generator/deploy/netlify/edge.ts',
      'generator/core/handler.ts',
      'generator/core/lists.ts',
    ])
      expect(modules).toContain(m);
    // The build-time writer (Node) is not part of it.
    expect(modules).not.toContain('generator/deploy/netlify/generate.ts');
  });

  it('passes its Deno tests, with answers byte-identical to the local server on 3,000 random requests', async () => {
    const known = knownRecords(site.publicDir);
    const rand = prng(1667);
    const requests = randomRequests(3000, known, 1669).map(({ method, path }) => {
      // No compressed answers: the local server's compression is its own layer, not the core's.
      const requestHeaders: Record<string, string> = { 'Accept-Encoding': 'identity' };
      const r = rand(12);
      if (r === 0) requestHeaders.Accept = BROWSER_ACCEPT;
      if (r === 1 && method === 'OPTIONS')
        Object.assign(requestHeaders, { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' });
      return { method, path, requestHeaders };
    });
    const cases = [];
    for (let i = 0; i < requests.length; i += 8) {
      cases.push(
        ...(await Promise.all(
          requests.slice(i, i + 8).map(async ({ method, path, requestHeaders }) => {
            const res = await fetch(site.origin + path, { method, headers: requestHeaders });
            const headers: Record<string, string | null> = {};
            for (const h of CONTRACT_HEADER_NAMES) headers[h] = res.headers.get(h);
            return { method, path, requestHeaders, status: res.status, headers, body: await res.text() };
          }),
        )),
      );
    }
    writeFileSync(join(fixture, 'cases.json'), JSON.stringify({ origin: site.origin, entry, cases }));

    const run = deno(['test', '--no-config', '--allow-read', '--allow-env=EDGE_FIXTURE', '--no-prompt', 'test/edge/'], {
      EDGE_FIXTURE: fixture,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/ok \| [1-9]\d* passed \| 0 failed/);
  });
});
