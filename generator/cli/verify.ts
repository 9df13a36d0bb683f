// npm run verify -- <mirror-url>: proves that a mirror answers what the build says it should
// (verify-command.ts), from this process's command line; exits with the command's status: 0 when
// the mirror is whole, 1 when any answer differs, 2 on a usage error or when the mirror cannot be
// reached. A signal removes the temporary build and ends it with status 130.

import { processIo } from './command-io.ts';
import { EXIT_USAGE } from './exit.ts';
import { verifyCommand } from './verify-command.ts';

const status = await verifyCommand(process.argv.slice(2), processIo(), (stop) => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stop();
      process.exit(130);
    });
  }
});
// A usage error ends at once, as it always did; an answer (0 or 1) once all is written.
if (status === EXIT_USAGE) process.exit(status);
process.exitCode = status;
