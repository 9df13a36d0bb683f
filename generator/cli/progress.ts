// The build's progress on stderr: what is being done, counts, time. Silent when quiet. On a
// terminal, one line rewritten in place, with a bar (cli-progress) while the content's files are
// read; in a log, each step on its own line and no bar. The build's BuildProgress (build-types.ts),
// passed to build() by the CLI.

import { SingleBar } from 'cli-progress';
import { type BuildProgress, SILENT_PROGRESS } from '../build-types.ts';
import { stderrColours as c } from './colour.ts';

/** Where the progress goes: the process's standard error, or a command's io run in-process (command-io.ts). */
export type ProgressStream = Pick<NodeJS.WriteStream, 'isTTY' | 'write'> | { isTTY: false; write(text: string): void };

export function createProgress(quiet: boolean, stream: ProgressStream = process.stderr): BuildProgress {
  if (quiet) return SILENT_PROGRESS;
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
        // A terminal: the process's own standard error (command-io.ts processIo).
        stream: stream as NodeJS.WriteStream,
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
