// npm run build: content/ → public/, atomically. Exit 1 with every problem on invalid content.

import { build } from '../build/build.ts';
import { ContentError } from '../content/problems.ts';
import { CONFIG_HELP, CONFIG_OPTIONS, configOverrides, parseOrExit } from './options.ts';

const { values } = parseOrExit({ options: CONFIG_OPTIONS });
if (values.help) {
  process.stdout.write(`usage: npm run build -- [options]\n\n${CONFIG_HELP}\n`);
  process.exit(0);
}

try {
  await build({
    contentDir: values.content as string,
    outDir: values.out as string,
    quiet: values.quiet === true,
    overrides: configOverrides(values),
    env: process.env,
  });
} catch (err) {
  if (err instanceof ContentError) {
    process.stderr.write(`\nerror: ${err.message}\nThe build stopped; ${values.out} was left as it was.\n`);
    process.exit(1);
  }
  throw err;
}
