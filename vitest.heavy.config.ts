import { defineConfig, mergeConfig } from 'vitest/config';
import everyday from './vitest.config.ts';

// `npm run test:heavy`: the suites too slow or too demanding for every run (see vitest.config.ts).
export default mergeConfig(everyday, defineConfig({
  test: {
    include: ['test/heavy/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
}));
