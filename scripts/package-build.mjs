// Finishes the package's JavaScript build (`npm run build:package`): tsc has written dist/ from
// the TypeScript sources (tsconfig.build.json, relative imports rewritten to .js); this copies the
// worker scripts and the module they share with the TypeScript (JavaScript already), and points
// the stemmer's import, written by file path for Deno (core/search/tokenize.ts), at its package,
// which an installed copy resolves.

import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
for (const script of [
  'generator/content/read-regular.mjs',
  'generator/content/read-worker.mjs',
  'generator/output/write-worker.mjs',
  'generator/render/database-worker.mjs',
  'generator/render/sqlite-steps.mjs',
])
  copyFileSync(`${repo}/${script}`, `${repo}/dist/${script}`);
const tokenize = `${repo}/dist/generator/core/search/tokenize.js`;
const source = readFileSync(tokenize, 'utf8');
const byPath = "'../../../node_modules/@orama/stemmers/dist/en.js'";
if (!source.includes(byPath)) throw new Error(`${tokenize} no longer imports the stemmer by ${byPath}`);
writeFileSync(tokenize, source.replace(byPath, "'@orama/stemmers/english'"));
process.stdout.write('dist/ ready\n');
