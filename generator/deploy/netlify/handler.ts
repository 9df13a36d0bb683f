// The edge function's whole logic, free of any runtime: web-standard Request and Response in, the
// generator's core modules (imported unchanged, by relative `.ts` paths) for every decision. Deno
// runs it on Netlify (generator/deploy/netlify/edge-functions/api.ts wires it to Netlify's context); Node runs it
// in the tests, in-process. It must import nothing else: no `node:` module, no Deno global.
//
// What it does with a request under /api/:
// - `answer()` of generator/core decides, exactly as for the local server;
// - an answer the build wrote as a file is read from the published site (`readFile`), so that its
//   bytes are the file's bytes;
// - any other answer (an arbitrary start/end/page range, every error) is rendered here from the
//   site index, by the same list module that wrote the files.
// Every response carries the contract's headers, set here: Netlify applies no header rules to
// what an edge function returns.

import { answer } from '../../core/answer.ts';
import { errorBody, NOT_FOUND } from '../../core/errors.ts';
import { SITE_INDEX_FILE } from '../../core/files.ts';
import { hash64 } from '../../core/hash.ts';
import { answerHead } from '../../core/headers.ts';
import { loadSiteIndex, type SiteIndex } from '../../core/site-index.ts';

/** The publish-directory path of the index the build writes, as a URL path. */
export const SITE_INDEX_PATH = `/${SITE_INDEX_FILE}`;

/**
 * For Netlify's CDN only (it strips the header before the client sees it): keep the answer until
 * the next deploy, which purges every cached response of the site. A year is the longest
 * lifetime the CDN honours; a deploy comes sooner.
 */
export const CDN_CACHE_CONTROL = 'public, max-age=31536000, must-revalidate';

/** Reads one file of the published site; `path` starts with `/` (e.g. `/api/v1/index.json`). */
export type ReadFile = (path: string) => Promise<Response>;

/** The parts of a request the answer depends on. */
export interface ApiRequest {
  method: string;
  url: string;
  headers: { get(name: string): string | null };
}

function respond(request: ApiRequest, status: number, body: string, etag: string | null): Response {
  const head = answerHead(status, etag, request.headers.get('if-none-match'));
  const headers = new Headers(head.headers);
  // A 304 is for this client alone: nothing for the CDN to keep.
  if (head.status === 304) return new Response(null, { status: 304, headers });
  if ((request.method === 'GET' || request.method === 'HEAD') && status < 500) headers.set('Netlify-CDN-Cache-Control', CDN_CACHE_CONTROL);
  // HEAD has GET's status and headers and no body; OPTIONS has an empty body.
  return new Response(request.method === 'HEAD' || body === '' ? null : body, { status, headers });
}

/** Answers one request under /api/ for a site, reading pre-rendered answers with `readFile`. */
export async function handle(request: ApiRequest, site: SiteIndex, readFile: ReadFile): Promise<Response> {
  const url = new URL(request.url);
  const a = answer(request.method, url.pathname, url.search, site);
  if (a.kind === 'body') return respond(request, a.status, a.body, a.etag);
  const file = await readFile(`/${a.file}`);
  if (!file.ok) {
    // The index names a file the published site lacks: the output was changed by hand.
    await file.body?.cancel();
    return respond(request, 404, errorBody(NOT_FOUND), null);
  }
  const body = await file.text();
  // A validator of the bytes themselves: a detail's body depends on more than the index does.
  return respond(request, 200, body, `"${hash64(body)}"`);
}

/**
 * Keeps the site index of an isolate: the first request loads it with the `fetchIndex` it gives,
 * every later one gets it from memory (no network in steady state). A failed load is forgotten,
 * so that the next request tries again.
 */
export function indexLoader(): (fetchIndex: () => Promise<Response>) => Promise<SiteIndex> {
  let loading: Promise<SiteIndex> | null = null;
  const load = async (fetchIndex: () => Promise<Response>): Promise<SiteIndex> => {
    const res = await fetchIndex();
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`site index ${SITE_INDEX_PATH}: HTTP ${res.status}`);
    }
    return loadSiteIndex(await res.json());
  };
  return (fetchIndex) => {
    if (loading === null) {
      const attempt = load(fetchIndex);
      loading = attempt;
      attempt.catch(() => {
        if (loading === attempt) loading = null;
      });
    }
    return loading;
  };
}
