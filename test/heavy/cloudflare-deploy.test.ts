// What `wrangler deploy` would upload, without uploading anything (`wrangler deploy --dry-run
// --outdir`, wrangler from tools/cloudflare, offline): the repository's wrangler.jsonc (a copy
// pointing at a fresh build), its preflight run by wrangler before the deploy, the Worker bundled
// by wrangler's esbuild.
//
// Needs `npm run cloudflare:install`; skipped with a message without it, except under CI=true.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { build } from '../../generator/build.ts';
import { configCopy, INSTALL, wranglerInstalled } from '../../tools/cloudflare/workerd.ts';
import { tempDir } from '../helpers/temp.ts';

const REPO = join(import.meta.dirname, '..', '..');
const CONTENT = join(REPO, 'content');
const WRANGLER = join(REPO, 'tools', 'cloudflare', 'node_modules', '.bin', 'wrangler');

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

/** `wrangler deploy --dry-run` of a build made for `apiOrigin`: exit status, output, bundle. */
async function dryRun(
  apiOrigin: string,
): Promise<{ dir: string; status: number | null; output: string; bundle: string | null }> {
  const dir = tempDir('pepys-cf-deploy-');
  const publicDir = join(dir, 'public');
  await build({ contentDir: CONTENT, outDir: publicDir, quiet: true, overrides: { apiOrigin }, env: {} });
  const config = await configCopy(dir, publicDir, true);
  const out = join(dir, 'out');
  const run = spawnSync(WRANGLER, ['deploy', '--dry-run', '--outdir', out, '--config', config], {
    encoding: 'utf8',
    timeout: 100_000,
  });
  let bundle: string | null = null;
  try {
    bundle = readFileSync(join(out, 'worker.js'), 'utf8');
  } catch {
    bundle = null;
  }
  return { dir, status: run.status, output: `${run.stdout}${run.stderr}`, bundle };
}

if (!wranglerInstalled()) {
  if (process.env.CI === 'true') {
    it('dry-runs the deploy (CI)', () => {
      throw new Error(`CI=true but wrangler is not installed: run ${INSTALL}`);
    });
  } else {
    process.stderr.write(`\nSkipping the Cloudflare deploy dry run: run ${INSTALL} to install wrangler.\n`);
    describe.skip(`Cloudflare deploy dry run (not installed: ${INSTALL})`, () => {
      it('bundles the Worker', () => {});
    });
  }
} else {
  describe('wrangler deploy --dry-run with wrangler.jsonc', () => {
    let result: Awaited<ReturnType<typeof dryRun>>;
    beforeAll(async () => {
      result = await dryRun('https://api.pepys-diary.org');
    });

    it('runs the preflight, which reports the build about to be uploaded', () => {
      expect(result.status, result.output).toBe(0);
      expect(result.output).toMatch(
        /the API for https:\/\/api\.pepys-diary\.org, [\d,]+ static files \(\d+% of the free plan's 20,000\)/,
      );
      expect(result.output).toContain('env.ASSETS');
    });

    it('bundles the Worker from the runtime-free core alone: nothing of Node, small', () => {
      const bundle = result.bundle as string;
      expect(bundle).not.toBeNull();
      // esbuild names each module it bundles in a comment line, by its path from the
      // configuration's directory (here a temp directory): made relative to the repository.
      const fromConfig = `${relative(result.dir, REPO).split(sep).join('/')}/`;
      const modules = [...bundle.matchAll(/^\/\/ (\S+\.[mc]?[jt]s)$/gm)].map((m) => {
        const path = m[1] as string;
        return path.startsWith(fromConfig) ? path.slice(fromConfig.length) : path;
      });
      expect(modules).toContain('generator/deploy/cloudflare/worker.ts');
      expect(modules).toContain('generator/core/handler.ts');
      for (const m of modules)
        expect(m).toMatch(
          /^(generator\/(core\/(search\/)?[\w-]+|deploy\/(web|read-body)|deploy\/cloudflare\/[\w-]+)\.ts|node_modules\/@orama\/stemmers\/dist\/en\.js|node_modules\/entities\/dist\/esm\/[\w/-]+\.js)$/,
        );
      expect(bundle).not.toMatch(/from\s*["']node:|require\(["']node:/);
      // Far below the smallest Worker size limit (3 MB after gzip, Workers Free).
      expect(gzipSync(bundle).length).toBeLessThan(100 * 1024);
    });

    it('refuses to deploy a build made for a placeholder origin, as in the sample site.yaml', async () => {
      const placeholder = await dryRun('https://pepys.example.org');
      expect(placeholder.status).not.toBe(0);
      expect(placeholder.output).toContain('a placeholder origin (apiOrigin in site.yaml)');
      expect(placeholder.bundle).toBeNull();
    });

    it("refuses to deploy a build made for a loopback origin (a local server's, e.g. npm start -- --out public)", async () => {
      const loopback = await dryRun('http://127.0.0.1:8888');
      expect(loopback.status).not.toBe(0);
      expect(loopback.output).toContain('was built for http://127.0.0.1:8888');
      expect(loopback.bundle).toBeNull();
    });
  });
}
