// Work made a piece at a time (a generator that yields between pieces, so that a caller may let its
// event loop turn there: build.ts), run in one go by a caller that has nothing to let run meanwhile.

/** A generator run to its end: what it returns. */
export function runToEnd<R>(steps: Generator<unknown, R>): R {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}
