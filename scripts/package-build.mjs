// Finishes the package's JavaScript build (`npm run build:package`): tsc has written dist/ from
// the TypeScript sources (tsconfig.build.json, relative imports rewritten to .js); this copies the
// worker scripts and the module they share with the TypeScript (JavaScript already), and points
// the imports written by file path for Deno (the stemmer's in core/search/tokenize.ts, the HTML
// decoder's in core/search/text.ts) at their packages, which an installed copy resolves.

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
// So is the HTML decoder's, in core/search/text.ts (`entities/decode` is the same file).
for (const [file, byPath, name] of [
  ['tokenize.js', "'../../../node_modules/@orama/stemmers/dist/en.js'", "'@orama/stemmers/english'"],
  ['text.js', "'../../../node_modules/entities/dist/esm/decode.js'", "'entities/decode'"],
]) {
  const path = `${repo}/dist/generator/core/search/${file}`;
  const source = readFileSync(path, 'utf8');
  if (!source.includes(byPath)) throw new Error(`${path} no longer imports ${name} by ${byPath}`);
  writeFileSync(path, source.replace(byPath, name));
}
process.stdout.write('dist/ ready\n');
