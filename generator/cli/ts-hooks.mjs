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
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

// esbuild as tsx (a dependency of this project) installs it: resolved from tsx's own place, so
// that it is found however npm lays out node_modules.
const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));

// PEPYS_TS_CACHE: another directory (the tests use a temporary one).
const CACHE_DIR = process.env.PEPYS_TS_CACHE
  ? pathToFileURL(`${process.env.PEPYS_TS_CACHE}/`)
  : new URL('../../node_modules/.cache/node-ts/', import.meta.url);
const OPTIONS = {
  loader: 'ts',
  format: 'esm',
  target: 'node20',
  sourcemap: 'inline',
  tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
};

let esbuild = null;
let esbuildVersion = null;

/** esbuild's version, read once: a new version may strip differently. */
function version() {
  if (esbuildVersion === null) {
    try {
      esbuildVersion = JSON.parse(readFileSync(fromTsx.resolve('esbuild/package.json'), 'utf8')).version;
    } catch {
      esbuildVersion = 'unknown';
    }
  }
  return esbuildVersion;
}

/** Keeps the JavaScript of one file; a cache that cannot be written is no cache, not an error. */
function keep(file, code) {
  const temp = `${fileURLToPath(file)}.${process.pid}.tmp`;
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(temp, code);
    renameSync(temp, file);
  } catch {
    rmSync(temp, { force: true });
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const source = readFileSync(path, 'utf8');
  const key = createHash('sha256')
    .update(`${version()}\0${JSON.stringify(OPTIONS)}\0${path}\0`)
    .update(source)
    .digest('hex');
  const cached = new URL(`${key.slice(0, 40)}.mjs`, CACHE_DIR);
  try {
    return { format: 'module', source: readFileSync(cached, 'utf8'), shortCircuit: true };
  } catch {
    // Not stripped yet.
  }
  esbuild ??= await import(pathToFileURL(fromTsx.resolve('esbuild')).href);
  const { code } = esbuild.transformSync(source, { ...OPTIONS, sourcefile: path });
  keep(cached, code);
  return { format: 'module', source: code, shortCircuit: true };
}
