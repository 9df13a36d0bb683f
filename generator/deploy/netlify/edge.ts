// Netlify's edge function for every request under /api/, as a thin adapter over the one fetch
// handler (deploy/web.ts): Netlify's Request to the core's handler and back, with Netlify's CDN
// headers. The build generates the function's entry module (generate.ts), which hands this the
// site index bundled with it: nothing is fetched to start, so nothing can hand back a wrong body. Pre-rendered answers are read from the
// published files through context.next() (Netlify's static layer, inside Netlify).
//
// Every request gets a Response from here, whatever fails: never undefined and never a throw,
// either of which would let Netlify's chain answer with whatever the last context.next() read.
// A failure is the contract's 503 JSON error with `Cache-Control: no-store` and nothing that lets
// the CDN keep it. Runtime-free: Deno runs it as it is.

import { messageOf } from '../../core/errors.ts';
import { MAX_FILE_BYTES } from '../../core/read-files.ts';
import { loadSiteIndex } from '../../core/site-index.ts';
import { boundedBody } from '../read-body.ts';
import { createFetch } from '../web.ts';
import { netlifyHeaders } from './cache.ts';

/** The part of Netlify's edge function context this function uses. */
export interface NetlifyContext {
  next(request: Request): Promise<Response>;
}

export type EdgeFunction = (request: Request, context: NetlifyContext) => Promise<Response>;

/** The edge function over a site index (the parsed SITE_INDEX_FILE bundled with it). */
export function createEdgeFunction(bundledIndex: unknown): EdgeFunction {
  return createFetch<NetlifyContext>({
    // The bundled index: nothing is fetched to start, so nothing can hand back a wrong body.
    loadIndex: () => {
      const site = loadSiteIndex(bundledIndex);
      return site.ok ? site : { ok: false, error: `its bundled site index is invalid: ${site.error}` };
    },
    readFile: async (file, request, context) => {
      const res = await context.next(new Request(new URL(`/${file}`, request.url)));
      if (res.status !== 200) {
        await res.body?.cancel();
        return null;
      }
      // A file over the bound reads as missing: the handler's 503, as for a damaged pack.
      return boundedBody(res, MAX_FILE_BYTES);
    },
    failure: (err, request) => {
      // Netlify's function log gets the cause; the client gets the contract's error.
      console.error(`pepys-api: ${request.method} ${request.url}: ${messageOf(err)}`);
      return 'an unexpected error occurred';
    },
    headers: netlifyHeaders,
  });
}
