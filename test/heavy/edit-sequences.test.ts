// Incremental equals cold, the long run (the everyday suite runs a short one:
// test/edit-sequences.test.ts, whose head says how to replay a seed): many longer random
// sequences of edits through the one-shot rebuild and the watch mode (events, rescans alone),
// every output held to a cold build of the same content after every step. 26 runs: 25, and the
// one the everyday run gave up (it ran three, now two).

import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import {
  ColdBuilds,
  type FamilyCount,
  familySummary,
  newCount,
  replayParameters,
  runSequence,
  stepArb,
} from '../helpers/edit-sequences.ts';

const { seed, path } = replayParameters();
const colds = new ColdBuilds({ overrides: { apiOrigin: 'http://mirror.test' } });
const count: FamilyCount = newCount();

afterAll(() => {
  process.stdout.write(familySummary('edit-sequences (heavy)', seed, count, colds));
});

describe('incremental equals cold: long random edit sequences through rebuild and watch', () => {
  it('every output is a cold build of the same content after every step', { timeout: 1_800_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 20 }), (steps) =>
        runSequence(steps, colds, { rebuild: true, watchEvents: true, watchRescans: true, answers: true }, count),
      ),
      { seed, path, numRuns: 26, endOnFailure: process.env.EDIT_SHRINK !== '1' },
    );
  });
});
