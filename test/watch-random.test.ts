// Random sequences of edits, creations, deletions, renames, directory re-creations, atomic saves
// and invalid edits against a running watch session on a small site: once things settle, the
// live output is byte for byte a cold build of the same content (and the local server serving it
// answers as one serving the cold build does), or, for invalid content, the session reports
// exactly the problems a cold load reports. The seed is printed on failure; WATCH_SEED=<n>
// replays it. test/heavy/watch-storm.test.ts runs longer sequences and a storm.

import { afterAll, describe, it } from 'vitest';
import { type RunCount, runRandomSequences } from './helpers/watch-random.ts';

const baseSeed = Number(process.env.WATCH_SEED ?? Date.now() % 1_000_000_000);

const totals: RunCount = { operations: 0, checkpoints: 0, invalidCheckpoints: 0 };
afterAll(() => {
  process.stdout.write(
    `watch-random: base seed ${baseSeed}; ${totals.operations} random operations, ` +
      `${totals.checkpoints} checkpoints compared with a cold build (${totals.invalidCheckpoints} with invalid content)\n`,
  );
});

describe('watch mode, random sequences', () => {
  it('settles on a cold build after random sequences, with file-system events only', async () => {
    const c = await runRandomSequences(baseSeed, {
      sequences: 6,
      opsPerSequence: 12,
      maxPauseMs: 20,
      options: { rescanMs: 0 },
      mode: 'events',
    });
    for (const k of Object.keys(totals) as Array<keyof RunCount>) totals[k] += c[k];
  });

  it('settles on a cold build after random sequences, by rescans alone (no events at all)', async () => {
    const c = await runRandomSequences(baseSeed + 1, {
      sequences: 4,
      opsPerSequence: 12,
      maxPauseMs: 0,
      options: { events: false, rescanMs: 0 },
      mode: 'rescan',
    });
    for (const k of Object.keys(totals) as Array<keyof RunCount>) totals[k] += c[k];
  });
});
