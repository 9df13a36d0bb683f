// Every command's --help, --version and unknown option, and the bench tools' bad values: the
// sweep over all of them (about forty processes), moved from test/cli-usage.test.ts, which keeps
// the same checks for `build` and `init` and the other tools' bad values.

import { describe, it } from 'vitest';
import { TOOLS } from '../helpers/cli.ts';
import { checkBadValues, checkHelpAndVersion, checkUnknownOption } from '../helpers/cli-usage.ts';

const COMMANDS = Object.keys(TOOLS) as Array<keyof typeof TOOLS>;

describe.concurrent('every command', () => {
  it.each(COMMANDS)('%s: --help prints its usage to stdout, --version the version; exit 0', (tool) =>
    checkHelpAndVersion(tool),
  );

  it.each(COMMANDS)('%s: an unknown option is one line naming it and where help is, exit 2', (tool) =>
    checkUnknownOption(tool),
  );

  it('a bad value of a bench tool is one line naming the option, exit 2: never NaN rounds or a stack trace', () =>
    checkBadValues([
      ['bench', ['--runs', 'abc'], /^error: --runs must be a whole number from 1, not "abc"\n$/],
      ['bench:search', ['--runs', '0'], /^error: --runs must be a whole number from 1, not "0"\n$/],
      ['bench:rebuild', ['--runs', '0'], /^error: --runs must be a whole number from 1, not "0"\n$/],
      ['bench', ['--corpus', '/no/such/corpus'], /^error: --corpus: \/no\/such\/corpus does not exist\n$/],
    ]));
});
