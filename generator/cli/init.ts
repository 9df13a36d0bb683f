// `pepys-api init <dir>`: a new content directory (init-command.ts), made from this process's
// command line and working directory; exits with the command's status.

import { processIo } from './command-io.ts';
import { init } from './init-command.ts';

const status = init(process.argv.slice(2), processIo());
if (status !== 0) process.exit(status);
