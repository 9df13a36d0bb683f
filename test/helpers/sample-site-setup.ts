// The sample (content/) built once for the whole run and served on loopback by the run's main
// process, for the suites that only read it (test/helpers/local-server.ts' sampleSite()): one
// build instead of one per file. A suite that changes its output, or builds it otherwise (another
// page size, another origin), keeps its own with startLocalSite(). Runs after test/global-setup.ts,
// so the build goes under the run's TMPDIR.

import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { build } from '../../generator/build.ts';
import { createApiServer } from '../../generator/server/server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared build of the sample and the origin it is served from (built for that origin). */
    sampleSite: { origin: string; publicDir: string };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'pepys-shared-sample-'));
  const publicDir = join(dir, 'public');
  const server: Server = createApiServer({ publicDir });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const contentDir = join(import.meta.dirname, '..', '..', 'content');
  await build({ contentDir, outDir: publicDir, quiet: true, overrides: { apiOrigin: origin }, env: {} });
  project.provide('sampleSite', { origin, publicDir });
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  };
}
