// The watch mode's fast path against its general path and a cold build, on many sequences of
// random edits (test/helpers/fast-path.ts; the everyday suite runs one: test/watch-fast.test.ts).
// Nine: eight, and the one the everyday suite gave up.

import { describe, it } from 'vitest';
import { checkFastPath } from '../helpers/fast-path.ts';

describe("the watch mode's fast path, long", () => {
  it('gives exactly what the general path and a cold build give, on random edits', { timeout: 900_000 }, async () => {
    await checkFastPath(9);
  });
});
