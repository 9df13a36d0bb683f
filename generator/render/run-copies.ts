// Which runs of a database's steps are copied from an earlier database rather than run again
// (sqlite-steps.mjs says why the rows are then the same). Decided here, on the thread that makes
// the steps, which holds a run back while each of its steps hashes as the earlier database's did:
// the steps held are the rows it made (mostly strings the model holds anyway), not copies of them
// waiting on the database's thread, and a run that is copied is never sent there.

import { type DatabaseStep, HELD_AT_MOST, type SqlStep, stepHash, stepWeight } from './sqlite-steps.mjs';

/** Each run's steps' hashes in a database (null: not hashed), by the run's tables joined by a space. */
export type RunHashes = ReadonlyMap<string, readonly string[] | null>;

/** A run under way whose steps so far are those of the earlier database: held back, its bounds first. */
interface HeldRun {
  tables: readonly string[];
  hashes: readonly string[];
  held: DatabaseStep[] | null;
  weight: number;
}

/**
 * `steps`, but each run whose steps all hash as the run of the same tables in `earlier` did (the
 * same count, each the same) given as `{ copy: tables }`. A run's steps are held back while they
 * hash the same, and given as they were at the first that differs; a run heavier than `most` (its
 * text) is given as it comes, as is one `earlier` did not hash. Without `earlier`, `steps` as they are.
 */
export function* copyingRuns(
  steps: Iterable<DatabaseStep>,
  earlier: RunHashes | undefined,
  most = HELD_AT_MOST,
): Generator<DatabaseStep> {
  if (earlier === undefined) return yield* steps;
  let run: HeldRun | null = null;
  for (const step of steps) {
    if ('reusable' in step && step.reusable !== null) {
      const hashes = earlier.get(step.reusable.join(' '));
      if (hashes == null) yield step;
      else run = { tables: step.reusable, hashes, held: [step], weight: 0 };
    } else if (run === null) yield step;
    else if ('reusable' in step) {
      // The run's end: copied when every step was the earlier one's, and there are as many.
      if (run.held !== null && run.held.length - 1 === run.hashes.length) yield { copy: run.tables };
      else {
        if (run.held !== null) yield* run.held;
        yield step;
      }
      run = null;
    } else if (run.held === null) yield step;
    else {
      const s = step as SqlStep;
      run.weight += stepWeight(s);
      // The hash goes with the step: the database's thread, which hashes the runs it runs, need not again.
      if (run.weight <= most) s.hash = stepHash(s);
      if (s.hash !== undefined && run.hashes[run.held.length - 1] === s.hash) run.held.push(step);
      else {
        yield* run.held;
        run.held = null;
        yield step;
      }
    }
  }
}
