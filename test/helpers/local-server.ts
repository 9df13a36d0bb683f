// Builds a content directory for a loopback origin and serves it with the local server.

import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { inject } from 'vitest';
import { build } from '../../generator/build.ts';
import type { ConfigOverrides } from '../../generator/content/config.ts';
import { createApiServer } from '../../generator/server/server.ts';
import { tempDir } from './temp.ts';

export interface LocalSite {
  origin: string;
  publicDir: string;
  stop: () => Promise<void>;
}

/** Listens first (port 0), so that the site can be built for the origin it is served from. */
export async function startLocalSite(contentDir: string, overrides: ConfigOverrides = {}): Promise<LocalSite> {
  const dir = tempDir('pepys-public-');
  const publicDir = join(dir, 'public');
  const server: Server = createApiServer({ publicDir });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await build({ contentDir, outDir: publicDir, quiet: true, overrides: { ...overrides, apiOrigin: origin }, env: {} });
  return {
    origin,
    publicDir,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The sample (content/) as startLocalSite() would build and serve it, but built once for the whole
 * run and served by the run's main process (test/helpers/sample-site-setup.ts): for suites that
 * only read it. Do not change its files or attack its server; stop() leaves it to the run.
 */
export function sampleSite(): LocalSite {
  const { origin, publicDir } = inject('sampleSite');
  return { origin, publicDir, stop: async () => {} };
}
