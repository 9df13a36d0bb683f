// The HTTP contract suite of the local server, run against Netlify's own local emulation
// (@netlify/dev, with Deno from the deno npm package) serving the built site with netlify.toml,
// the generated _redirects and the edge function: see tools/netlify/emulator.ts.
//
// Needs `npm ci --prefix tools/netlify` (kept out of the everyday install). Without it these tests
// are skipped with a message, except under CI=true, where they must run and fail instead.
//
// Known differences between the emulator and production, and how these tests treat them, are
// listed in docs/netlify.md; none of them is patched over here.

import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { emulatorInstalled, type Emulation, startEmulation } from '../../tools/netlify/emulator.ts';
import { defineContractTests } from '../contract/suite.ts';

const CONTENT = join(import.meta.dirname, '..', '..', 'content');
const INSTALL = 'npm ci --prefix tools/netlify';

// The emulator starts a fresh Deno worker for every edge function request (a cold start each
// time, about 0.1 s): allow for it.
vi.setConfig({ testTimeout: 600_000, hookTimeout: 300_000 });

if (!emulatorInstalled()) {
  if (process.env.CI === 'true') {
    it('runs under Netlify emulation (CI)', () => {
      throw new Error(`CI=true but Netlify's emulation is not installed: run ${INSTALL}`);
    });
  } else {
    process.stderr.write(`\nSkipping the Netlify emulation tests: run ${INSTALL} to install @netlify/dev and Deno.\n`);
    describe.skip(`Netlify emulation (not installed: ${INSTALL})`, () => {
      it('API contract under Netlify emulation', () => {});
    });
  }
} else {
  let emulation: Emulation | null = null;
  const options = {
    start: async () => {
      emulation = await startEmulation({ contentDir: CONTENT });
      return { origin: emulation.origin };
    },
    stop: async () => {
      const answeredBy = emulation?.answeredBy ?? [];
      await emulation?.stop();
      // Every answer under /api/ came from the edge function: none fell through to the rules.
      expect(answeredBy.filter((t) => t !== 'edge-function')).toEqual([]);
    },
    randomRanges: 150,
    timeout: 600_000,
    // Deno's HTTP server, which serves the edge function in the emulator (and, as far as can be
    // told from here, on Netlify), adds Accept-Encoding to the Vary of every response with a
    // body; the function itself sends exactly `Vary: Cookie, Accept` (docs/netlify.md, item 7).
    varyAdded: ['Accept-Encoding'],
  };
  defineContractTests('Netlify emulation (@netlify/dev, edge function in Deno)', options);
}
