// Cloudflare Worker: every request under /api (wrangler.jsonc `assets.run_worker_first`). A thin
// adapter, like the Netlify edge function: workerd's Request to the core's handler and back. The
// pre-rendered answers and the site index are the build's files, read through the static-assets
// binding; docs/cloudflare.md says what runs where and why.

import { fileKeeper, ISOLATE_KEPT_BYTES } from '../../core/bounded-cache.ts';
import { SITE_INDEX_FILE } from '../../core/files.ts';
import { type ApiRequest, errorResponse, handle } from '../../core/handler.ts';
import { MAX_FILE_BYTES } from '../../core/read-files.ts';
import { fail, ok, type Result } from '../../core/result.ts';
import { parseSiteIndex, type SiteIndex } from '../../core/site-index.ts';
import { boundedBody } from '../read-body.ts';
import { fromRequest, toResponse } from '../web.ts';

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

// The index, once loaded, for the isolate's life (one deploy: a new deploy starts new isolates).
// Only a loaded index is kept, never a pending or failed load: workerd binds the I/O behind a
// promise to the request that started it, so another request awaiting it could hang if that one
// is cancelled; and a failure is retried by the next request. Concurrent first requests of a cold
// isolate each parse it, which costs each no more CPU than one.
let loaded: SiteIndex | null = null;

async function siteIndex(assets: AssetsBinding): Promise<Result<SiteIndex, string>> {
  if (loaded !== null) return ok(loaded);
  const bytes = await readAsset(assets, SITE_INDEX_FILE);
  if (bytes === 'missing') return fail(`the site index ${SITE_INDEX_FILE} is not among the deployed assets`);
  if (bytes === 'too large') return fail(`the site index ${SITE_INDEX_FILE} is larger than a file of the build may be`);
  const parsed = parseSiteIndex(new TextDecoder().decode(bytes));
  if (!parsed.ok) return fail(`the site index ${SITE_INDEX_FILE} is broken: ${parsed.error}`);
  loaded = parsed.value;
  return parsed;
}

// The build's files an isolate has read, kept for its life (8 MB of them): a warm search reads no
// shard again, and finds its postings and the records it showed before already parsed.
const keep = fileKeeper(ISOLATE_KEPT_BYTES);

/** The contract's 503 (Cache-Control: no-store): nothing may keep it, the next request tries again. */
function unavailable(request: ApiRequest, reason: string): Response {
  return toResponse(errorResponse(request, { status: 503, detail: `The API is unavailable: ${reason}.` }));
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const apiRequest = fromRequest(request);
    try {
      const site = await siteIndex(env.ASSETS);
      if (!site.ok) return unavailable(apiRequest, site.error);
      return toResponse(
        await handle(
          apiRequest,
          site.value,
          keep((file) => readFile(env.ASSETS, file)),
        ),
      );
    } catch (err) {
      // Never workerd's bare error page: the contract's JSON error, which no cache keeps.
      return unavailable(apiRequest, err instanceof Error ? err.message : String(err));
    }
  },
};
