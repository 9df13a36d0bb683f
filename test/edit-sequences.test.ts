// Incremental equals cold, the family (test/helpers/edit-sequences.ts): random sequences of edits
// of every kind, valid and invalid (bursts, atomic saves, renames, deleted directories, broken
// YAML, FIFOs...), drawn by fast-check and applied to a content directory that three outputs
// follow: `build()` again over the last output (the one-shot rebuild), a watch session on
// file-system events and one on rescans alone (startWatching). After every step each output is
// a cold build's bytes (made once per content, by its digest), the local server over it answers
// as one over the cold build does, and for invalid content it reports the cold load's problems.
// The long run is test/heavy/edit-sequences.test.ts. Two runs here, not three as before: the
// third moved to the long run (26 runs, not 25), to keep \`npm test\` quick (issue 33).
//
// Replay: the seed is printed at the end of the file's run; on a failure fast-check prints the
// seed, the path and the sequence. EDIT_SEED=<seed> replays a run; with EDIT_PATH=<path> too, just
// the failing sequence. EDIT_SHRINK=1 lets fast-check shrink a failure to a shorter sequence
// (slow: every try runs builds and watchers).

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
} from './helpers/edit-sequences.ts';

const { seed, path } = replayParameters();
const colds = new ColdBuilds({ overrides: { apiOrigin: 'http://mirror.test' } });
const count: FamilyCount = newCount();

afterAll(() => {
  process.stdout.write(familySummary('edit-sequences', seed, count, colds));
});

describe('incremental equals cold: random edit sequences through rebuild and watch', () => {
  it('every output is a cold build of the same content after every step', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 3, maxLength: 6 }), (steps) =>
        runSequence(steps, colds, { rebuild: true, watchEvents: true, watchRescans: true, answers: true }, count),
      ),
      { seed, path, numRuns: 2, endOnFailure: process.env.EDIT_SHRINK !== '1' },
    );
  });
});
