// What the watch mode's last render was made of, in the terms a build records beside its tree
// (content/fingerprint.ts: the fingerprint, and the same file by file): the manifest's `inputs`
// and sources file, which `npm run build` compares with the content it reads. The session's state
// keeps each file's parse, not its bytes, so they are read again here, each file checked against
// what the render was made of: one whose signature is the one read (and trusted: not written just
// before it was read) holds the bytes that were parsed; any other is parsed again and must parse
// as it did, so that a build of these bytes renders what the session rendered. Anything else (a
// file come, gone or changed since): null, and nothing is recorded until the session renders it.
//
// The hash of a file read so is kept (KeptDigests) with that signature: at the next record, a file
// whose parse is the same one and whose signature on disk is still that one holds the same bytes,
// and is looked at (a stat), not read and hashed again. After an edit, only the edited files are.

import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { readSiteConfig, SITE_FILE } from '../content/config.ts';
import { listContent } from '../content/discover.ts';
import { inputOf, inputsHash, type LoadOptions, type Sources } from '../content/fingerprint.ts';
import { CATEGORIES_FILE, readCategories } from '../content/load.ts';
import { parseContentFile } from '../content/parse-file.ts';
import { readContentFile, signatureAt } from '../content/read-file.ts';
import { problemsKey, type RenderBasis } from './fast-path.ts';

/** Milliseconds of reading between two turns of the event loop (the server answers in between). */
const SLICE_MS = 5;

export interface RenderInputs {
  fingerprint: string;
  sources: Sources;
}

/** A signature that says the bytes read are the ones parsed (read-file.ts: racy ones never do). */
const trusted = (signature: string) => !signature.startsWith('racy:');

/** The hash of each file's bytes, by path, with the trusted signature they were read at. */
export type KeptDigests = Map<string, { signature: string; digest: string }>;

/**
 * The inputs of the render `basis` (see above), read from `contentDir` now with `options`, or null
 * when the content there is no longer what it was rendered from. `stale` is asked between turns:
 * true stops the reading (the session rendered again meanwhile), and gives null. `kept` is read
 * and brought up to date (see above).
 */
export async function renderInputs(
  contentDir: string,
  basis: RenderBasis,
  options: LoadOptions,
  stale: () => boolean,
  kept: KeptDigests,
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
      const hashed = kept.get(file);
      if (
        hashed !== undefined &&
        hashed.signature === known.signature &&
        signatureAt(join(contentDir, file)) === known.signature
      ) {
        inputs.file(file, { digest: hashed.digest });
      } else {
        kept.delete(file);
        const read = readContentFile(contentDir, file);
        if (!read.ok) return null;
        const sameRead = trusted(known.signature) && read.value.signature === known.signature;
        const same =
          sameRead ||
          isDeepStrictEqual(
            (({ parsed, problems }) => [parsed, problems])(
              parseContentFile(contentDir, { kind, file }, site.config, read),
            ),
            [known.parsed, known.problems],
          );
        if (!same) return null;
        const digest = inputs.file(file, { bytes: read.value.bytes });
        if (sameRead) kept.set(file, { signature: known.signature, digest });
      }
      if (performance.now() - turn >= SLICE_MS) {
        await nextTurn();
        if (stale()) return null;
        turn = performance.now();
      }
    }
  }
  // Files gone from the content are not kept for ever.
  for (const file of kept.keys()) if (!basis.parsed.has(file)) kept.delete(file);
  return { fingerprint: inputs.digest(), sources: inputs.sources() };
}
