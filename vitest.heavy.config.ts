import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// `npm run test:heavy`: the suites too slow or too demanding for every run (see vitest.config.ts).
// Not merged with the everyday config: merging would concatenate include and exclude lists.
export default defineConfig({
  test: {
    include: ['test/heavy/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    // Each file's temporary directories removed when it ends (test/helpers/temp.ts).
    setupFiles: ['test/helpers/per-file.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // As vitest.config.ts: transforms kept on disk between runs.
    experimental: { fsModuleCache: true },
    pool: 'forks',
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
