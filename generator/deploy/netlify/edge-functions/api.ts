// Netlify edge function `api`: every request under /api/ (declared in netlify.toml, which also
// names this directory). Deno runs it; it is the only Netlify-specific file of the function, and
// it imports nothing but the runtime-free handler beside it.
//
// Files of the published site (the index, pre-rendered answers) are read with `context.next()`:
// it continues the request chain past the edge functions to the site's static files, inside
// Netlify, without a public round trip and without running this function again.

import { handle, indexLoader, SITE_INDEX_PATH } from '../handler.ts';

/** The part of Netlify's edge function context this function uses. */
export interface NetlifyContext {
  next(request: Request): Promise<Response>;
}

const siteIndex = indexLoader();

export default async function api(request: Request, context: NetlifyContext): Promise<Response | undefined> {
  const readFile = (path: string) => context.next(new Request(new URL(path, request.url)));
  let site;
  try {
    site = await siteIndex(() => readFile(SITE_INDEX_PATH));
  } catch (err) {
    // Without the index nothing can be computed: returning nothing hands the request on to the
    // redirect rules, which still serve every pre-rendered answer from its file.
    console.error(`api: ${String(err)}; the redirect rules answer this request`);
    return undefined;
  }
  return handle(request, site, readFile);
}

// Paths and caching are declared in netlify.toml. If the function throws, Netlify hands the
// request on to the redirect rules and static files instead of failing it.
export const config = { onError: 'bypass' };
