// Loads a module of this project apart from the command's own code: in a bundle of its own
// (ts-bundle.mjs) when run from the repository, as the package's JavaScript when installed. A
// command's bundle holds everything it imports, the packages of every module in it included, and
// loads them at its start; `npm run build` first asks whether there is anything to do (unchanged.ts),
// and only then loads the build, whose packages (the feeds', the downloads', the search's) take
// longer to load than that question takes to answer.

import { fileURLToPath, pathToFileURL } from 'node:url';

type Bundler = { bundleOf(entry: string): Promise<string | null> };

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
  try {
    return (await import(url.href)) as T;
  } catch (err) {
    // The command ran from its bundle, so TypeScript's hooks were never registered (Node 20).
    if ((err as NodeJS.ErrnoException).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
    (await import('node:module')).register(new URL('./ts-hooks.mjs', import.meta.url).href);
    return (await import(url.href)) as T;
  }
}
