import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// `npm test`: the everyday suite, quick. The heavy suites (whole diary, Netlify's emulation,
// Deno, Cloudflare's workerd, a real browser) live in test/heavy/ and run with `npm run test:heavy`
// (vitest.heavy.config.ts), which CI runs after this one.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/heavy/**', '**/node_modules/**'],
    // The second builds the sample once for the suites that only read it (sampleSite()).
    globalSetup: ['test/global-setup.ts', 'test/helpers/sample-site-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // HTTP tests start servers on loopback ports of their own; files run in parallel workers, at
    // least two (vitest's default leaves one worker on a two-core machine; most of the suite
    // waits on processes and the file system, so two halve its time there).
    pool: 'forks',
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
