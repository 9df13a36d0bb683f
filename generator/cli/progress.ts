// The build's progress line on stderr: what is being done, counts, time. Silent when quiet.

export interface Progress {
  step(message: string): void;
  done(message: string): void;
}

export function createProgress(quiet: boolean, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(2)} s`;
  if (quiet) return { step: () => {}, done: () => {} };
  // On a terminal one line is rewritten in place; in a log each step is its own line.
  const tty = stream.isTTY === true;
  return {
    step(message) {
      if (tty) stream.write(`\r\x1b[K[${elapsed()}] ${message}`);
      else stream.write(`[${elapsed()}] ${message}\n`);
    },
    done(message) {
      stream.write(`${tty ? '\r\x1b[K' : ''}[${elapsed()}] ${message}\n`);
    },
  };
}
