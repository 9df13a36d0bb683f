// The watch mode's fast path against its general path and a cold build, on random edits
// (test/helpers/fast-path.ts: what is compared, and FAST_SEED=<n> to replay a seed). One
// sequence of 30 edits every day; test/heavy/watch-fast.test.ts runs nine (the everyday suite
// ran two until issue 33: the second moved there, to keep `npm test` quick).

import { describe, it } from 'vitest';
import { checkFastPath } from './helpers/fast-path.ts';

describe("the watch mode's fast path", () => {
  it('gives exactly what the general path and a cold build give, on random edits', { timeout: 90_000 }, async () => {
    await checkFastPath(1);
  });
});
