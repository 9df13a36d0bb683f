// Loads a module of this project apart from the command's own code: in a bundle of its own
// (ts-bundle.mjs) when run from the repository, as the package's JavaScript when installed. A
// command's bundle holds everything it imports, the packages of every module in it included, and
// loads them at its start; `npm run build` first asks whether there is anything to do (unchanged.ts),
// and only then loads the build, whose packages (the feeds', the downloads', the search's) take
// longer to load than that question takes to answer.

import { fileURLToPath, pathToFileURL } from 'node:url';

type Bundler = { bundleOf(entry: string): Promise<string | null> };

/** Set once TypeScript's hooks are registered in this process (node-ts.mjs sets it too). */
const TS_HOOKS = Symbol.for('pepys.ts-hooks');

/** Imports `specifier` (a `.ts` path relative to `base`, a module's import.meta.url). */
export async function importApart<T>(specifier: string, base: string): Promise<T> {
  const url = new URL(specifier, base);
  // The package's build: plain JavaScript beside this file.
  if (base.endsWith('.js')) return (await import(url.href.replace(/\.ts$/, '.js'))) as T;
  if (process.env.PEPYS_NO_BUNDLE !== '1') {
    // By a computed address, so that no bundler folds it (or its packages) into the caller's bundle.
    const bundler = (await import(new URL('./ts-bundle.mjs', import.meta.url).href)) as Bundler;
    const bundle = await bundler.bundleOf(fileURLToPath(url));
    if (bundle !== null) return (await import(pathToFileURL(bundle).href)) as T;
  }
  // Module by module. A Node that cannot strip types (20) needs TypeScript's hooks first: when the
  // command ran from its bundle, node-ts.mjs registered none. They must come before the first try:
  // once an import of a `.ts` file has failed, Node 20 fails it again with them.
  const features = process.features as { typescript?: unknown };
  const hooks = globalThis as { [TS_HOOKS]?: true };
  if (!features.typescript && hooks[TS_HOOKS] !== true) {
    (await import('node:module')).register(new URL('./ts-hooks.mjs', import.meta.url).href);
    hooks[TS_HOOKS] = true;
  }
  return (await import(url.href)) as T;
}
