// How a command that watches (`npm run build -- --watch`, `npm start -- --watch`) stops on a
// signal: it stops watching, and the process ends once the last edit's downloads and the record a
// build leaves (manifest, sources, basis) are written, so that the next build or start has nothing
// to do; a second signal ends it without them (the live site stays as it is; the next build
// renders again). `npm start` stops through it with or without --watch: without, nothing is left
// to finish once it stops serving.

/** How long the first signal's wait goes unmentioned: a wait this short needs no explaining. */
const QUIET_MS = 200;

/**
 * On SIGINT or SIGTERM: `first()` (a server stops taking requests), then `finish()`, then the
 * process exits; a second signal exits at once.
 */
export function stopOnSignals(finish: () => Promise<void>, say: (line: string) => void, first = () => {}): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(0);
      stopping = true;
      first();
      const slow = setTimeout(
        () =>
          say(
            `stopping: finishing the last edit's downloads (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to stop without them)\n`,
          ),
        QUIET_MS,
      );
      finish().finally(() => {
        clearTimeout(slow);
        process.exit(0);
      });
    });
  }
}
