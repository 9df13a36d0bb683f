// Cloudflare Worker: every request under /api (wrangler.jsonc `assets.run_worker_first`). A thin
// adapter over the one fetch handler (deploy/web.ts), like the Netlify edge function: workerd's
// Request to the core's handler and back. The pre-rendered answers and the site index are the
// build's files, read through the static-assets binding; docs/cloudflare.md says what runs where
// and why.

import { SITE_INDEX_FILE } from '../../core/files.ts';
import { MAX_FILE_BYTES } from '../../core/read-files.ts';
import { fail, type Result } from '../../core/result.ts';
import { parseSiteIndex, type SiteIndex } from '../../core/site-index.ts';
import { boundedBody } from '../read-body.ts';
import { createFetch } from '../web.ts';

/** The part of the static-assets binding (`env.ASSETS`) this Worker uses. */
export interface AssetsBinding {
  fetch(input: string): Promise<Response>;
}

export interface Env {
  ASSETS: AssetsBinding;
}

// The binding looks a file up by the URL's path alone (exactly: html_handling "none"); the host is
// never contacted. A plain URL, never the client's request: its If-None-Match or Range would
// change what comes back.
const ASSETS_BASE = 'https://assets.invalid/';

/**
 * One file of the build: its bytes, 'missing' when there is no such file, 'too large' past
 * MAX_FILE_BYTES (not read); throws on any other failure.
 */
async function readAsset(assets: AssetsBinding, file: string): Promise<Uint8Array | 'missing' | 'too large'> {
  const res = await assets.fetch(ASSETS_BASE + file);
  if (res.status === 200) return (await boundedBody(res, MAX_FILE_BYTES)) ?? 'too large';
  await res.body?.cancel();
  if (res.status === 404) return 'missing';
  throw new Error(`the static assets answered ${res.status} for ${file}`);
}

/** A file of the build as the handler reads it: a file too large reads as missing (its 503). */
async function readFile(assets: AssetsBinding, file: string): Promise<Uint8Array | null> {
  const bytes = await readAsset(assets, file);
  return typeof bytes === 'string' ? null : bytes;
}

/** The site index, read once an isolate (deploy/web.ts keeps it): one deploy's. */
async function siteIndex(assets: AssetsBinding): Promise<Result<SiteIndex, string>> {
  const bytes = await readAsset(assets, SITE_INDEX_FILE);
  if (bytes === 'missing') return fail(`the site index ${SITE_INDEX_FILE} is not among the deployed assets`);
  if (bytes === 'too large') return fail(`the site index ${SITE_INDEX_FILE} is larger than a file of the build may be`);
  const parsed = parseSiteIndex(new TextDecoder().decode(bytes));
  if (!parsed.ok) return fail(`the site index ${SITE_INDEX_FILE} is broken: ${parsed.error}`);
  return parsed;
}

// An error of the binding becomes the contract's 503 naming it (its message), never workerd's
// bare error page; nothing may keep it, the next request tries again.
export default {
  fetch: createFetch<Env>({
    loadIndex: (env) => siteIndex(env.ASSETS),
    readFile: (file, _request, env) => readFile(env.ASSETS, file),
  }),
};
