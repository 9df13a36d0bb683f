// One JavaScript file for a TypeScript entry point and everything of this project it imports,
// made by esbuild once and kept in node_modules/.cache/node-ts/, so that a start loads one module
// instead of ~85: measured on the whole-diary build's code, loading the modules one by one took
// ≈0.23 s on Node 20 (through ts-hooks.mjs) and ≈0.19 s on Node 24 (its own type stripping),
// loading the bundle ≈0.08 s and ≈0.03 s (docs/performance.md).
//
// A bundle is used only while every file it was made from is byte for byte what it was then (its
// manifest lists them with a hash of each; checking ~85 files costs a few milliseconds), so an
// edit is never run stale. Packages stay outside the bundle and are loaded from this project's
// node_modules, as they would be without it. `import.meta.url` (and dirname, filename) keep
// naming each source file, so that the worker threads and the files found beside a module are
// found as before. Anything that goes wrong here (no esbuild, a cache that cannot be written, a
// source esbuild cannot read) gives null, and node-ts.mjs loads the modules one by one, whose
// errors are Node's own.

import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** Where bundles and ts-hooks.mjs's stripped files are kept; PEPYS_TS_CACHE: elsewhere (the tests). */
export const CACHE_DIR = resolve(process.env.PEPYS_TS_CACHE || resolve(REPO, 'node_modules/.cache/node-ts'));
/** Changed whenever what this file makes changes: old bundles are then never used. */
const FORMAT = 1;
/**
 * How old another bundle of the same entry must be before a new one replaces it on disk: a
 * process that has just found it current imports it within milliseconds, and an edit a minute
 * does not leave a pile (each bundle is about 2 MB; nothing removed them before).
 */
export const STALE_MS = 10 * 60 * 1000;

const hash = (data) => createHash('sha256').update(data).digest('hex').slice(0, 40);

/** Loads packages as this project's modules do: esbuild is a dependency of its own. */
const require = createRequire(import.meta.url);

/** esbuild, loaded only when a bundle is to be made (a start with a fresh bundle never loads it). */
export function esbuildOf() {
  return require('esbuild');
}

/** esbuild's version (a new version may strip differently), or null when there is no esbuild. */
export function esbuildVersion() {
  try {
    return JSON.parse(readFileSync(require.resolve('esbuild/package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

/**
 * Bundles only what loads its packages from this project's own node_modules: files of this
 * project outside tools/ (whose folders have node_modules of their own) and node_modules.
 */
function bundleable(entry) {
  const rel = relative(REPO, entry);
  if (rel.startsWith('..') || rel.startsWith(`tools${sep}`) || rel.split(sep).includes('node_modules')) return false;
  return entry.endsWith('.ts');
}

/** The manifest's files, if each is as it was when the bundle was made. */
function fresh(manifest) {
  for (const [file, digest] of Object.entries(manifest.inputs)) {
    let text;
    try {
      text = readFileSync(file);
    } catch {
      return false;
    }
    if (hash(text) !== digest) return false;
  }
  return true;
}

/**
 * Whether a bundle holds the bytes its name was made from: a file cut short (a machine that
 * stopped before the disk had it) is made again, not run as an empty or broken module.
 */
function whole(bundle) {
  const named = bundle.slice(0, -'.mjs'.length).split('.').pop();
  try {
    return hash(readFileSync(bundle)) === named;
  } catch {
    return false;
  }
}

/** Writes `data` to `file` whole or not at all (another process may be reading or writing it). */
export function writeAtomically(file, data) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, data);
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/** This process's bundles being made, by entry: a second ask for one waits for the first. */
const making = new Map();

/** Bundles being made by this process: esbuild's service is stopped when none is. */
let building = 0;

/**
 * The path of an up-to-date bundle of `entry` (an absolute path), made now if need be, or null
 * when there cannot be one (node-ts.mjs then loads the modules one by one).
 */
export function bundleOf(entry) {
  let made = making.get(entry);
  if (made === undefined) {
    made = makeBundle(entry).finally(() => making.delete(entry));
    making.set(entry, made);
  }
  return made;
}

/** bundleOf's work, once at a time for an entry. */
async function makeBundle(entry) {
  if (!bundleable(entry)) return null;
  const version = esbuildVersion();
  if (version === null) return null;
  const key = hash(`${FORMAT}\0${version}\0${entry}`);
  const manifestFile = resolve(CACHE_DIR, `${key}.json`);
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    const bundle = resolve(CACHE_DIR, manifest.bundle);
    if (fresh(manifest) && whole(bundle)) return bundle;
  } catch {
    // No bundle yet, or one being replaced.
  }
  let esbuild;
  building++;
  try {
    esbuild = esbuildOf();
    /** The hash of each source as esbuild was given it: what the bundle was made from. */
    const read = new Map();
    const result = await esbuild.build({
      // The metafile's inputs are relative to it: the repository, whatever directory the command
      // runs from (from another, every bundle failed and the modules were loaded one by one).
      absWorkingDir: REPO,
      entryPoints: [entry],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'inline',
      logLevel: 'silent',
      plugins: [keepImportMeta(read)],
      tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
    });
    const code = result.outputFiles[0]?.contents;
    if (code === undefined) return null;
    const inputs = {};
    for (const input of Object.keys(result.metafile.inputs)) {
      const file = resolve(REPO, input);
      inputs[file] = read.get(file) ?? hash(readFileSync(file));
    }
    // Named by its bytes: a bundle once written never changes under a process that loads it.
    const bundle = `${key}.${hash(code)}.mjs`;
    mkdirSync(CACHE_DIR, { recursive: true });
    writeAtomically(resolve(CACHE_DIR, bundle), code);
    writeAtomically(manifestFile, JSON.stringify({ entry, bundle, inputs }));
    pruneBundles(CACHE_DIR, key, bundle);
    // The sources may have changed while they were bundled: then this bundle is not used.
    return fresh({ inputs }) ? resolve(CACHE_DIR, bundle) : null;
  } catch {
    return null;
  } finally {
    // esbuild's service process is not needed any more, unless another bundle is being made
    // (stopped under it, that one's build never ended: three in-process verifies at once hung).
    if (--building === 0) esbuild?.stop?.();
  }
}

/**
 * Removes the bundles of entry `key` in `dir` other than `keep` that are older than STALE_MS (at
 * `now`), and their temporary files left by a process that stopped. Never throws: a bundle that
 * stays only takes room.
 */
export function pruneBundles(dir, key, keep, now = Date.now()) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === keep || !name.startsWith(`${key}.`) || name === `${key}.json`) continue;
    const path = resolve(dir, name);
    try {
      if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
    } catch {
      // Gone already (another process pruned it), or not ours to remove.
    }
  }
}

/** esbuild plugin: each module of the project keeps its own import.meta (the bundle is elsewhere). */
function keepImportMeta(read) {
  return {
    name: 'keep-import-meta',
    setup(build) {
      build.onLoad({ filter: /\.(ts|mjs|js)$/ }, (args) => {
        if (args.path.split(sep).includes('node_modules')) return undefined;
        const bytes = readFileSync(args.path);
        read.set(args.path, hash(bytes));
        const contents = bytes
          .toString('utf8')
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path));
        return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
}
