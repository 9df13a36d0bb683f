// The local server computes searches one at a time, each in a turn of the event loop of its own:
// a search's CPU (up to a few milliseconds, core/search/engine.ts MAX_SEARCH_WORK) runs in one go,
// and twenty clients' searches answered back to back made a detail request that came meanwhile
// wait for all of them (1.3–3.9 s, issue 36). Now the requests that came in the meantime
// (details, lists, files read) are served between two searches: a request waits for one search
// at most, whatever the number queued. A search gives its turn up while it waits for a file (a
// search of records not read before reads their packs), and takes a turn again to go on.

import type { ReadFile } from '../core/answer-types.ts';

/** While a task waits for `pending`, others take turns; it goes on once it has a turn again. */
export type Wait = <T>(pending: Promise<T>) => Promise<T>;

/** Runs each task given when no other holds the turn, each from a turn of its own. */
export type Turns = <T>(task: (wait: Wait) => Promise<T>) => Promise<T>;

export function oneAtATime(): Turns {
  /** Those waiting for the turn, first come first. */
  const queue: Array<() => void> = [];
  /** Whether a task holds the turn or is about to be given it. */
  let busy = false;
  // setImmediate runs after the I/O that is ready: the other requests that came go first.
  const pass = (): void => {
    const next = queue.shift();
    if (next === undefined) busy = false;
    else next();
  };
  const release = (): void => {
    setImmediate(pass);
  };
  const acquire = (): Promise<void> =>
    new Promise((resolve) => {
      queue.push(resolve);
      if (!busy) {
        busy = true;
        setImmediate(pass);
      }
    });

  return async <T>(task: (wait: Wait) => Promise<T>): Promise<T> => {
    await acquire();
    let holding = true;
    let done = false;
    // Reads waited for together (a page's packs) take the turn back once, together.
    let again: Promise<void> | null = null;
    const wait: Wait = async (pending) => {
      if (holding) {
        holding = false;
        release();
      }
      try {
        return await pending;
      } finally {
        if (!holding && !done) {
          again ??= acquire().then(() => {
            again = null;
            // A read the task no longer waits for (it ended meanwhile): the turn goes on.
            if (done) release();
            else holding = true;
          });
          await again;
        }
      }
    };
    try {
      return await task(wait);
    } finally {
      done = true;
      if (holding) release();
    }
  };
}

/** A ReadFile whose reads that wait give the turn up meanwhile (see above). */
export function readingInTurn(read: ReadFile, wait: Wait): ReadFile {
  return (file) => {
    const bytes = read(file);
    return bytes instanceof Promise ? wait(bytes) : bytes;
  };
}

/** Does a request's query ask for a search (a `search` parameter with something in it)? */
export function asksSearch(query: string): boolean {
  return query.includes('search=') && new URLSearchParams(query).getAll('search').some((v) => v.trim() !== '');
}
