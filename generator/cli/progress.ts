// The build's progress on stderr: what is being done, counts, time. Silent when quiet. On a
// terminal, one line rewritten in place, with a bar (cli-progress) while the content's files are
// read; in a log, each step on its own line and no bar.

import { SingleBar } from 'cli-progress';
import { stderrColours as c } from './colour.ts';

export interface Progress {
  step(message: string): void;
  /** A step with a known number of units: a bar on a terminal, one line elsewhere. */
  counted(message: string, total: number): void;
  /** One more unit of the counted step done. */
  tick(): void;
  done(message: string): void;
}

const SILENT: Progress = { step: () => {}, counted: () => {}, tick: () => {}, done: () => {} };

export function createProgress(quiet: boolean, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (quiet) return SILENT;
  const started = performance.now();
  const elapsed = () => c.dim(`[${((performance.now() - started) / 1000).toFixed(2)} s]`);
  const tty = stream.isTTY === true;
  let bar: SingleBar | null = null;
  const stopBar = () => {
    if (bar === null) return;
    bar.stop();
    bar = null;
  };
  return {
    step(message) {
      stopBar();
      if (tty) stream.write(`\r\x1b[K${elapsed()} ${message}`);
      else stream.write(`${elapsed()} ${message}\n`);
    },
    counted(message, total) {
      stopBar();
      if (!tty) {
        stream.write(`${elapsed()} ${message}: ${total} files\n`);
        return;
      }
      stream.write('\r\x1b[K');
      bar = new SingleBar({
        stream,
        format: `${elapsed()} ${message} ${c.cyan('{bar}')} {value}/{total}`,
        barsize: 30,
        hideCursor: true,
        clearOnComplete: true,
        // Redrawn at most 10 times a second: the build is not to wait on its terminal.
        fps: 10,
      });
      bar.start(total, 0);
    },
    tick() {
      bar?.increment();
    },
    done(message) {
      stopBar();
      stream.write(`${tty ? '\r\x1b[K' : ''}${elapsed()} ${c.green(message)}\n`);
    },
  };
}
