// What the watch mode's last render was made of, in the terms a build records beside its tree
// (content/fingerprint.ts: the fingerprint, and the same file by file): the manifest's `inputs`
// and sources file, which `npm run build` compares with the content it reads. The session's state
// keeps each file's parse, not its bytes, so they are read again here, each file checked against
// what the render was made of: one whose signature is the one read (and trusted: not written just
// before it was read) holds the bytes that were parsed; any other is parsed again and must parse
// as it did, so that a build of these bytes renders what the session rendered. Anything else (a
// file come, gone or changed since): null, and nothing is recorded until the session renders it.

import { setImmediate as nextTurn } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { readSiteConfig, SITE_FILE } from '../content/config.ts';
import { listContent } from '../content/discover.ts';
import { inputOf, inputsHash, type LoadOptions, type Sources } from '../content/fingerprint.ts';
import { CATEGORIES_FILE, readCategories } from '../content/load.ts';
import { parseContentFile } from '../content/parse-file.ts';
import { readContentFile } from '../content/read-file.ts';
import { problemsKey, type RenderBasis } from './fast-path.ts';

/** Milliseconds of reading between two turns of the event loop (the server answers in between). */
const SLICE_MS = 5;

export interface RenderInputs {
  fingerprint: string;
  sources: Sources;
}

/** A signature that says the bytes read are the ones parsed (read-file.ts: racy ones never do). */
const trusted = (signature: string) => !signature.startsWith('racy:');

/**
 * The inputs of the render `basis` (see above), read from `contentDir` now with `options`, or null
 * when the content there is no longer what it was rendered from. `stale` is asked between turns:
 * true stops the reading (the session rendered again meanwhile), and gives null.
 */
export async function renderInputs(
  contentDir: string,
  basis: RenderBasis,
  options: LoadOptions,
  stale: () => boolean,
): Promise<RenderInputs | null> {
  const siteRead = readContentFile(contentDir, SITE_FILE);
  const site = readSiteConfig(contentDir, options.overrides ?? {}, options.env ?? {}, siteRead);
  if (!isDeepStrictEqual([site.config, site.problems], [basis.config, basis.siteProblems])) return null;
  const categoriesRead = readContentFile(contentDir, CATEGORIES_FILE);
  const categories = readCategories(contentDir, categoriesRead);
  if (!isDeepStrictEqual({ ...categories, signature: null }, { ...basis.categories, signature: null })) return null;
  const listing = listContent(contentDir);
  const files = [...listing.entryFiles, ...listing.topicFiles];
  if (problemsKey(listing.problems) !== basis.listProblems || files.length !== basis.parsed.size) return null;
  // In the order a build reads them (content/load.ts readContent).
  const inputs = inputsHash(options);
  inputs.file(SITE_FILE, inputOf(siteRead) ?? { bytes: null });
  inputs.file(CATEGORIES_FILE, inputOf(categoriesRead) ?? { bytes: null });
  inputs.problems(listing.problems);
  let turn = performance.now();
  for (const [kind, list] of [
    ['entry', listing.entryFiles],
    ['topic', listing.topicFiles],
  ] as const) {
    for (const file of list) {
      const known = basis.parsed.get(file);
      if (known === undefined || known.kind !== kind) return null;
      const read = readContentFile(contentDir, file);
      if (!read.ok) return null;
      const same =
        (trusted(known.signature) && read.value.signature === known.signature) ||
        isDeepStrictEqual(
          (({ parsed, problems }) => [parsed, problems])(
            parseContentFile(contentDir, { kind, file }, site.config, read),
          ),
          [known.parsed, known.problems],
        );
      if (!same) return null;
      inputs.file(file, { bytes: read.value.bytes });
      if (performance.now() - turn >= SLICE_MS) {
        await nextTurn();
        if (stale()) return null;
        turn = performance.now();
      }
    }
  }
  return { fingerprint: inputs.digest(), sources: inputs.sources() };
}
