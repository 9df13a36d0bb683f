// Runs a TypeScript entry point of this project in this very Node process, with no second process
// and no build step: from one bundle of it that ts-bundle.mjs keeps up to date (one module to
// load instead of ~85), else module by module, with Node's own type stripping where the running
// Node has it (22.18 and later; the code keeps to erasable syntax, which tsconfig.json enforces)
// or the hooks of ts-hooks.mjs (Node 20). Usage: node generator/cli/node-ts.mjs <file.ts> [arguments…]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleOf } from './ts-bundle.mjs';

const [entry, ...rest] = process.argv.slice(2);
if (entry === undefined) {
  process.stderr.write('usage: node generator/cli/node-ts.mjs <file.ts> [arguments…]\n');
  process.exit(2);
}
const bundle = process.env.PEPYS_NO_BUNDLE === '1' ? null : await bundleOf(resolve(entry));
// Stack traces name the TypeScript lines (the bundle and ts-hooks.mjs carry source maps).
if (bundle !== null || !process.features.typescript) process.setSourceMapsEnabled(true);
if (bundle === null && !process.features.typescript) {
  (await import('node:module')).register('./ts-hooks.mjs', import.meta.url);
  // For import-apart.ts, which registers them when the command runs from its bundle.
  globalThis[Symbol.for('pepys.ts-hooks')] = true;
}
// The entry point sees the command line as if Node had started it: [node, entry, …arguments].
process.argv = [process.argv[0], resolve(entry), ...rest];
await import(pathToFileURL(bundle ?? resolve(entry)).href);
