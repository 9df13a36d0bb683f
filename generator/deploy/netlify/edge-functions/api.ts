// Netlify edge function `api`: every request under /api/ (declared in netlify.toml). A thin
// adapter: Netlify's Request to the core's handler and back, with Netlify's cache headers.

import { errorResponse, handle } from '../../../core/handler.ts';
import { SITE_INDEX_FILE } from '../../../core/files.ts';
import { parseSiteIndex, type SiteIndex } from '../../../core/site-index.ts';
import { fromRequest, toResponse } from '../../web.ts';
import { netlifyHeaders } from '../cache.ts';

/** The part of Netlify's edge function context this function uses. */
export interface NetlifyContext {
  next(request: Request): Promise<Response>;
}

let index: Promise<SiteIndex | string> | null = null;

export default async function api(request: Request, context: NetlifyContext): Promise<Response> {
  const apiRequest = fromRequest(request);
  const readFile = async (file: string) => {
    const res = await context.next(new Request(new URL(`/${file}`, request.url)));
    if (!res.ok) {
      await res.body?.cancel();
      return null;
    }
    return new Uint8Array(await res.arrayBuffer());
  };
  index ??= readFile(SITE_INDEX_FILE).then((bytes) => {
    if (bytes === null) return 'the site index is missing';
    const loaded = parseSiteIndex(new TextDecoder().decode(bytes));
    return loaded.ok ? loaded.value : loaded.error;
  });
  const site = await index;
  if (typeof site === 'string') {
    index = null;
    const r = errorResponse(apiRequest, { status: 503, detail: `The API is unavailable: ${site}.` });
    return toResponse(r, netlifyHeaders(r));
  }
  const r = await handle(apiRequest, site, readFile);
  return toResponse(r, netlifyHeaders(r));
}
