#!/usr/bin/env node
// The package's one command: `pepys-api <command> [options]`. In an installed package it runs the
// build's JavaScript (dist/, made by `npm run build:package`, which `npm pack` runs); in a checkout,
// the TypeScript sources through generator/cli/node-ts.mjs.

import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const COMMANDS = {
  init: ['init', 'a new content directory: pepys-api init <dir>'],
  build: ['build', 'the API of a content directory: pepys-api build --content <dir> --out <dir>'],
  serve: ['start', 'build and serve it on loopback: pepys-api serve --content <dir> [--watch]'],
  verify: ['verify', 'check a published copy against a build: pepys-api verify <url>'],
};

const args = process.argv.slice(2);
// The version line every command prints (generator/cli/options.ts versionLine).
if (args[0] === '--version') args.splice(0, 1, 'build', '--version');
const [command, ...rest] = args;
const known = Object.hasOwn(COMMANDS, command ?? '') ? COMMANDS[command] : undefined;
if (known === undefined) {
  const list = Object.entries(COMMANDS).map(([name, [, what]]) => `  ${name.padEnd(8)} ${what}`);
  const help = `usage: pepys-api <command> [options]   (pepys-api <command> --help for its options)\n\n${list.join('\n')}\n`;
  if (command === undefined || command === '-h' || command === '--help') {
    process.stdout.write(help);
    process.exit(command === undefined ? 2 : 0);
  }
  process.stderr.write(`error: unknown command ${JSON.stringify(command)}\n\n${help}`);
  process.exit(2);
}
const [module] = known;
// For the usage lines: `pepys-api build`, not `npm run build --` (generator/cli/options.ts).
process.env.PEPYS_API_COMMAND = `pepys-api ${command}`;
// A checkout runs its sources (a dist/ left by npm pack may be older); the package, its build.
const source = fileURLToPath(new URL(`../generator/cli/${module}.ts`, import.meta.url));
if (existsSync(source)) {
  const nodeTs = fileURLToPath(new URL('../generator/cli/node-ts.mjs', import.meta.url));
  process.argv = [process.argv[0], nodeTs, source, ...rest];
  await import(pathToFileURL(nodeTs).href);
} else {
  const built = fileURLToPath(new URL(`../dist/generator/cli/${module}.js`, import.meta.url));
  process.argv = [process.argv[0], built, ...rest];
  await import(pathToFileURL(built).href);
}
