// The edge function in Deno, the runtime Netlify runs it in (Deno from tools/netlify): its module
// graph holds nothing but generator/deploy/netlify and generator/core, and its own tests (test/edge/*_test.ts)
// pass, among them the byte-identity of its answers to the local server's on thousands of random
// requests, recorded here from a local server over the same build.
//
// Needs `npm ci --prefix tools/netlify`; skipped with a message without it, except under CI=true.

import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { build } from '../../generator/build.ts';
import { parseSiteIndex } from '../../generator/core/site-index.ts';
import { createApiServer } from '../../generator/server/server.ts';
import { denoDir, emulatorInstalled } from '../../tools/netlify/emulator.ts';
import { randomRequests } from '../edge/requests.ts';
import { tempDir } from '../helpers/temp.ts';

const REPO = join(import.meta.dirname, '..', '..');
const ENTRY = join(REPO, 'generator', 'deploy', 'netlify', 'edge-functions', 'api.ts');
const INSTALL = 'npm ci --prefix tools/netlify';

vi.setConfig({ testTimeout: 300_000 });

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

describe.skipIf(!emulatorInstalled() && process.env.CI !== 'true')(
  `edge function in Deno${emulatorInstalled() ? '' : ` (not installed: ${INSTALL})`}`,
  () => {
    it('imports only generator/deploy/netlify and generator/core modules: nothing Node-only, nothing remote', () => {
      const info = deno(['info', '--json', '--no-config', ENTRY]);
      expect(info.status, info.stderr).toBe(0);
      const graph = JSON.parse(info.stdout) as { modules: Array<{ specifier: string; kind?: string; error?: string }> };
      const modules = graph.modules.map((m) => {
        expect(m.error, m.specifier).toBeUndefined();
        expect(m.specifier, 'a local file').toMatch(/^file:\/\//);
        return relative(REPO, fileURLToPath(m.specifier)).split(sep).join('/');
      });
      for (const m of modules) expect(m, 'module of the edge function').toMatch(/^generator\/(deploy\/netlify\/[\w/-]+|deploy\/web|core\/[\w-]+)\.ts$/);
      expect(modules).toContain('generator/core/lists.ts');
      expect(modules).toContain('generator/core/answer.ts');
    });

    it('passes its Deno tests, with answers byte-identical to the local server on 3,000 random requests', async () => {
      const dir = tempDir('pepys-deno-');
      const publicDir = join(dir, 'public');
      const server: Server = createApiServer({ publicDir });
      try {
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        await build({ contentDir: join(REPO, 'content'), outDir: publicDir, quiet: true, overrides: { apiOrigin: origin, pageSize: 9 }, env: {} });
        const { readFileSync } = await import('node:fs');
        const loaded = parseSiteIndex(readFileSync(join(publicDir, '_data', 'site-index.json'), 'utf8'));
        if (!loaded.ok) throw new Error(loaded.error);
        const index = loaded.value;
        const known = { dates: index.entryDates, slugs: [...index.categorySlugs], ids: [...index.topicIds] };
        const cases = [];
        for (const { method, path } of randomRequests(3000, known, 1669)) {
          const res = await fetch(origin + path, { method });
          const headers: Record<string, string | null> = {};
          for (const h of ['content-type', 'allow', 'vary', 'etag', 'cache-control', 'access-control-allow-origin']) headers[h] = res.headers.get(h);
          cases.push({ method, path, status: res.status, headers, body: await res.text() });
        }
        writeFileSync(join(dir, 'cases.json'), JSON.stringify({ origin, cases }));

        const run = deno(['test', '--no-config', '--allow-read', '--allow-env=EDGE_FIXTURE', '--no-prompt', 'test/edge/'], { EDGE_FIXTURE: dir });
        const output = `${run.stdout}\n${run.stderr}`;
        expect(run.status, output).toBe(0);
        expect(output).toMatch(/ok \| [1-9]\d* passed \| 0 failed/);
      } finally {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);
