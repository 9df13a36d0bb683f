// Long work of the watch mode done a slice at a time on the server's thread: between two slices
// the event loop turns, so the server answers meanwhile, and the work asks whether it is still
// wanted (an edit, a rebuild or a swap may have made it stale).

import { setImmediate as nextTurn } from 'node:timers/promises';

/** Milliseconds of work between two turns of the event loop. */
const SLICE_MS = 5;

/**
 * A `go()` to call between two steps of the work: it lets the event loop turn once a slice of
 * time is spent since the last turn, then says whether the work is still `wanted()`.
 */
export function slices(wanted: () => boolean): () => Promise<boolean> {
  let turn = performance.now();
  return async () => {
    if (performance.now() - turn < SLICE_MS) return true;
    await nextTurn();
    turn = performance.now();
    return wanted();
  };
}
