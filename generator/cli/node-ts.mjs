// Runs a TypeScript entry point of this project in this very Node process, with no second process
// and no build step: Node's own type stripping where the running Node has it (22.18 and later;
// the code keeps to erasable syntax, which tsconfig.json enforces), else the hooks of
// ts-hooks.mjs (Node 20). Usage: node generator/cli/node-ts.mjs <file.ts> [arguments…]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [entry, ...rest] = process.argv.slice(2);
if (entry === undefined) {
  process.stderr.write('usage: node generator/cli/node-ts.mjs <file.ts> [arguments…]\n');
  process.exit(2);
}
if (!process.features.typescript) {
  // Stack traces name the TypeScript lines (ts-hooks.mjs keeps a source map with each file).
  process.setSourceMapsEnabled(true);
  (await import('node:module')).register('./ts-hooks.mjs', import.meta.url);
}
// The entry point sees the command line as if Node had started it: [node, entry, …arguments].
process.argv = [process.argv[0], resolve(entry), ...rest];
await import(pathToFileURL(resolve(entry)).href);
