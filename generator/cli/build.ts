// npm run build: content/ → public/, atomically (build-command.ts), from this process's command
// line; exits with the command's status. Exit 1 with every problem on invalid content, or one
// line for a fault of the machine; exit 2 for a bad option or a refused --content or --out (see
// exit.ts, output/guard.ts). With --watch, stays running and rebuilds what changed after every
// edit (see watch/session.ts).

import { printable } from '../content/problems.ts';
import { endIdleThreadsAtOnce } from '../output/kept-threads.ts';
import { buildCommand } from './build-command.ts';
import { processIo } from './command-io.ts';
import { exitOnUncaught, writeErrorSync } from './exit.ts';

const status = await buildCommand(process.argv.slice(2), processIo(), (failure, watch) => {
  // What nobody caught (a rejected promise, an exception in a callback) ends as a failure too.
  exitOnUncaught(failure);
  // A build stopped by a signal (Ctrl-C, a CI's timeout) ends as a failed one: the output as it
  // was, the lock released (by the exit, which a signal's default action skips, leaving a lock
  // whose pid may later be another process's), status 128 + the signal's number. The watch mode
  // has its own.
  if (watch) return;
  endIdleThreadsAtOnce();
  for (const [signal, number] of [
    ['SIGINT', 2],
    ['SIGTERM', 15],
  ] as const) {
    process.on(signal, () => {
      const kept = failure.kept === undefined ? '' : `; ${failure.kept} was left as it was`;
      writeErrorSync(printable(`error: stopped by ${signal}${kept}\n`));
      process.exit(128 + number);
    });
  }
});
if (status !== 0) process.exit(status);
