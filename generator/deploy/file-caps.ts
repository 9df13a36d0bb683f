// The CDNs' caps on a deploy's files, held against a built output: a build that passes one is
// told so (a warning: the output is right, it is the deploy that would be refused). The caps, as
// docs/cloudflare.md and docs/output.md give them: Cloudflare allows 20,000 static files a Worker
// version on the free plan and 100,000 on a paid one; Netlify deploys at most 54,000 files in one
// directory. Since the years and months without entries are no files (core/prerendered.ts), the
// count follows the content: only a very large encyclopedia, or a very small page size, gets there.

import { readManifest } from '../output/manifest.ts';

const CLOUDFLARE_FREE_FILES = 20_000;
const CLOUDFLARE_PAID_FILES = 100_000;
const NETLIFY_FILES_A_DIRECTORY = 54_000;

const count = (n: number) => n.toLocaleString('en-US');

/** The caps `paths` (an output's files, `/`-separated, relative to it) would pass, one line each. */
export function capWarnings(paths: Iterable<string>): string[] {
  let files = 0;
  const byDirectory = new Map<string, number>();
  for (const path of paths) {
    files++;
    const dir = path.slice(0, Math.max(0, path.lastIndexOf('/')));
    byDirectory.set(dir, (byDirectory.get(dir) ?? 0) + 1);
  }
  const warnings: string[] = [];
  if (files > CLOUDFLARE_PAID_FILES)
    warnings.push(
      `${count(files)} files: past the ${count(CLOUDFLARE_PAID_FILES)} a Cloudflare Worker version may have on any plan (its deploy is refused); a larger pageSize makes fewer list pages`,
    );
  else if (files > CLOUDFLARE_FREE_FILES)
    warnings.push(
      `${count(files)} files: past the ${count(CLOUDFLARE_FREE_FILES)} a Cloudflare Worker version may have on the free plan (${count(CLOUDFLARE_PAID_FILES)} on a paid one)`,
    );
  for (const [dir, n] of [...byDirectory].sort((a, b) => b[1] - a[1])) {
    if (n <= NETLIFY_FILES_A_DIRECTORY) break;
    warnings.push(
      `${dir === '' ? 'the output' : dir} holds ${count(n)} files: past the ${count(NETLIFY_FILES_A_DIRECTORY)} Netlify deploys in one directory`,
    );
  }
  return warnings;
}

/** capWarnings of the output built in `outDir`, read from its manifest (none: nothing to say). */
export function outputCapWarnings(outDir: string): string[] {
  const manifest = readManifest(outDir);
  return manifest === null ? [] : capWarnings(manifest.files.keys());
}
