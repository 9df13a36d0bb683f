// The local server (and offline mirror): pre-rendered files go through serve-handler, every
// other answer of the contract comes from the same renderers as the build and the edge function.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import handler from 'serve-handler';
import { answer } from '../core/answer.ts';
import { errorBody, NOT_FOUND } from '../core/errors.ts';
import { SITE_INDEX_FILE } from '../core/files.ts';
import { answerHead, API_HEADERS, CLIENT_CACHE_CONTROL } from '../core/headers.ts';
import { loadSiteIndex, type SiteIndex } from '../core/site-index.ts';

export interface ServerOptions {
  /** The built output directory. */
  publicDir: string;
}

const STATIC_HEADERS = [
  ...Object.entries({ ...API_HEADERS, 'Cache-Control': CLIENT_CACHE_CONTROL }).map(([key, value]) => ({ key, value })),
  // serve-handler would add these for downloads; an API answer has no use for them.
  { key: 'Content-Disposition', value: null as unknown as string },
  { key: 'Accept-Ranges', value: null as unknown as string },
];

/** Loads the site index, again whenever a rebuild has replaced it. */
function siteIndexLoader(publicDir: string): () => SiteIndex | null {
  const file = join(publicDir, SITE_INDEX_FILE);
  let cached: { key: string; site: SiteIndex } | null = null;
  return () => {
    let key: string;
    try {
      const s = statSync(file);
      key = `${s.ino}:${s.mtimeMs}:${s.size}`;
    } catch {
      return null;
    }
    if (cached?.key !== key) cached = { key, site: loadSiteIndex(JSON.parse(readFileSync(file, 'utf8'))) };
    return cached.site;
  };
}

function send(req: IncomingMessage, res: ServerResponse, status: number, body: string, etag: string | null): void {
  const head = answerHead(status, etag, req.headers['if-none-match'] ?? null);
  if (head.status === 304) {
    res.writeHead(304, head.headers).end();
    return;
  }
  res.writeHead(status, { ...head.headers, 'Content-Length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

export function handleRequest(publicDir: string, site: () => SiteIndex | null) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const index = site();
    if (index === null) {
      const error = { status: 503, detail: `No built site in ${publicDir}: run npm run build.` };
      send(req, res, 503, errorBody(error), null);
      return;
    }
    const a = answer(req.method ?? 'GET', url.pathname, url.search, index);
    if (a.kind === 'body') {
      send(req, res, a.status, a.body, a.etag);
      return;
    }
    if (!existsSync(join(publicDir, a.file))) {
      // The index names a file the output lacks: the output was changed by hand.
      send(req, res, 404, errorBody(NOT_FOUND), null);
      return;
    }
    req.url = '/' + a.file;
    await handler(req, res, {
      public: publicDir,
      etag: true,
      cleanUrls: false,
      directoryListing: false,
      headers: [{ source: '**', headers: STATIC_HEADERS }],
    });
  };
}

export function createApiServer(options: ServerOptions): Server {
  const handle = handleRequest(options.publicDir, siteIndexLoader(options.publicDir));
  return createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      process.stderr.write(`error answering ${req.method} ${req.url}: ${String(err)}\n`);
      if (!res.headersSent) send(req, res, 500, errorBody({ status: 500, detail: 'Server error.' }), null);
      else res.destroy();
    });
  });
}
