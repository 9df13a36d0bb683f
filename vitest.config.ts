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
    // HTTP tests start servers on loopback ports of their own; files run in parallel workers, one
    // more than the cores (vitest's default is one fewer). With one a core, the cores were busy
    // 1.77 of 2 on this machine: a fifth of the time a file waits on a child process, a timer or
    // the file system. A third worker fills it: five runs 51-57 s against 56-66 s with two.
    pool: 'forks',
    maxWorkers: availableParallelism() + 1,
    // A young generation of up to 64 MB a semi-space (V8's default here is 16): the suite makes
    // garbage fast (sites built and compared in memory), and fewer scavenges took about 5 % of its
    // CPU off: three alternating pairs of runs, 90.7-103.8 s of user CPU against 101.5-106.8 s.
    execArgv: ['--max-semi-space-size=64'],
    // Files share their worker's modules: a fresh process and a fresh import of the generator for
    // each of ~90 files cost about half a second of CPU each. What a file must not leave behind is
    // undone per file by vitest (vi.setConfig, spies) or by test/helpers/per-file.ts (temporary
    // directories). So no file replaces a module (vi.mock): it would stay replaced for the files
    // after it in the worker. A built-in's export can be replaced and put back instead
    // (test/rebuild-no-symlinks.test.ts), and a build can be reached at a given moment through its
    // progress reporter (test/rebuild-inputs.test.ts). A file whose build in the test's process
    // must agree with a command's build on the generator's fingerprint (computed once a process,
    // content/fingerprint.ts: a worker's may be minutes old) runs that command in the same process
    // (test/helpers/in-process.ts), as test/output-safety.test.ts's sweep test does.
    isolate: false,
    setupFiles: ['test/helpers/per-file.ts'],
    testTimeout: 30_000,
    // The TypeScript each run transforms (the generator, the tests), kept on disk between runs
    // (node_modules/.experimental-vitest-cache, keyed by each file's content and the config; Vitest
    // 5 makes it the default): a second run's transforms took 1.7 s instead of 7.6 s here, about
    // 4 s of CPU less. A fresh clone's first run builds it.
    experimental: { fsModuleCache: true },
    hookTimeout: 120_000,
  },
});
