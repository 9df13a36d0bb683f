// The local server computes searches one at a time, each in a turn of the event loop of its own:
// a search's CPU (up to a few milliseconds, core/search/engine.ts MAX_SEARCH_WORK) runs in one go,
// and twenty clients' searches answered back to back made a detail request that came meanwhile
// wait for all of them (1.9 s, issue 36). Now the requests that came in the meantime (details,
// lists, files read) are served between two searches: a request waits for one search at most,
// whatever the number queued.

/** Runs each task given after the ones before it have ended, each from a turn of its own. */
export type Turns = <T>(task: () => Promise<T>) => Promise<T>;

/** How long a task may hold its turn while it waits (for a file, usually read in a millisecond). */
const WAIT_MS = 100;

export function oneAtATime(): Turns {
  const queue: Array<() => Promise<void>> = [];
  let running = false;
  const next = (): void => {
    const task = queue.shift();
    if (task === undefined) {
      running = false;
      return;
    }
    // The next one after this one ends, from a turn of its own (setImmediate runs after the I/O
    // that is ready: other requests come first); or after WAIT_MS, should this one wait on a read
    // that does not end (its CPU is spent by then: a search computes once its files are read).
    let passed = false;
    const pass = (): void => {
      if (passed) return;
      passed = true;
      clearTimeout(timer);
      setImmediate(next);
    };
    const timer = setTimeout(pass, WAIT_MS);
    timer.unref();
    task().finally(pass);
  };
  return <T>(task: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push(() => Promise.resolve().then(task).then(resolve, reject));
      if (!running) {
        running = true;
        setImmediate(next);
      }
    });
}

/** Does a request's query ask for a search (a `search` parameter with something in it)? */
export function asksSearch(query: string): boolean {
  return query.includes('search=') && new URLSearchParams(query).getAll('search').some((v) => v.trim() !== '');
}
