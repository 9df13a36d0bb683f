// Module hooks that let Node 20 (which cannot strip types itself) load this project's TypeScript:
// a `.ts` file is handed to esbuild's type stripping once, and the JavaScript is kept in
// node_modules/.cache/node-ts/, named by a hash of the file's path and text and of esbuild's
// version, so that every later start only reads it back. node-ts.mjs registers these hooks; they
// replace tsx's, which cost about 0.15 s more at every start (tsx's own module graph, started in
// Node's hooks thread, and its checks of tsconfig files), a fifth of a cold build on the
// benchmark machine (docs/performance.md).
//
// Only `.ts` files are touched; everything else goes to Node's own loader. The code keeps to
// erasable TypeScript (tsconfig.json), so stripping is all it needs: imports are kept as written
// (verbatimModuleSyntax), as Node's own type stripping keeps them.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR, esbuildOf, esbuildVersion, writeAtomically } from './ts-bundle.mjs';

const OPTIONS = {
  loader: 'ts',
  format: 'esm',
  target: 'node20',
  sourcemap: 'inline',
  tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
};
const VERSION = esbuildVersion() ?? 'unknown';

/** Keeps the JavaScript of one file; a cache that cannot be written is no cache, not an error. */
function keep(file, code) {
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    writeAtomically(file, code);
  } catch {
    // Stripped again next time.
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const source = readFileSync(path, 'utf8');
  const key = createHash('sha256')
    .update(`${VERSION}\0${JSON.stringify(OPTIONS)}\0${path}\0`)
    .update(source)
    .digest('hex');
  const cached = join(CACHE_DIR, `${key.slice(0, 40)}.mjs`);
  try {
    return { format: 'module', source: readFileSync(cached, 'utf8'), shortCircuit: true };
  } catch {
    // Not stripped yet.
  }
  const { code } = esbuildOf().transformSync(source, { ...OPTIONS, sourcefile: path });
  keep(cached, code);
  return { format: 'module', source: code, shortCircuit: true };
}
