// The one handler of every runtime: a request in, status, headers and bytes out. Each adapter
// runs it through the one dispatch (dispatch.ts: the site to answer from, its errors). What it
// adds to answer(): the representation (JSON, or the browsable HTML page when the client prefers
// it), the contract's headers, the validator and If-None-Match, HEAD and OPTIONS, CORS preflights.
// Runtime-free: nothing here imports anything but the core.

import { answer } from './answer.ts';
import type { Answer, ReadFile } from './answer-types.ts';
import { type ApiError, errorBody, methodNotAllowed, NOT_FOUND } from './errors.ts';
import { etagOf, ifNoneMatchHits } from './etag.ts';
import { DOWNLOAD_TYPES } from './files.ts';
import {
  API_HEADERS,
  CLIENT_CACHE_CONTROL,
  HTML_CSP,
  HTML_TYPE,
  JSON_TYPE,
  NO_STORE,
  preflightHeaders,
} from './headers.ts';
import { renderHtmlView } from './html-view.ts';
import { IncompleteSite } from './incomplete-site.ts';
import { type ListQuery, listQuery } from './lists.ts';

import { prefersHtml } from './negotiation.ts';
import { unpacking } from './packs.ts';
import type { SiteIndex } from './site-index.ts';

export interface ApiRequest {
  method: string;
  /** The path as the client sent it, without the query: dot segments and escapes untouched. */
  path: string;
  /** The query string, without its `?`. */
  query: string;
  /** A request header's value, or null. */
  header(name: string): string | null;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** The representation's bytes; for HEAD, those GET would send (for Content-Length). */
  body: Uint8Array;
  /** False for HEAD and 304: the body is not sent. */
  sendBody: boolean;
  /** May a shared cache (a CDN) keep this answer until the next deploy? */
  cacheable: boolean;
}

/**
 * The path and query of a request target as sent: origin-form (`/api/v1?page=2`) or an absolute
 * URL (what a proxy gets, and what web runtimes give as `Request.url`). Nothing is normalised.
 */
export function splitTarget(target: string): { path: string; query: string } {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  const rest = origin === null ? target : target.slice(origin[0].length) || '/';
  const hash = rest.indexOf('#');
  const noHash = hash === -1 ? rest : rest.slice(0, hash);
  const q = noHash.indexOf('?');
  return q === -1 ? { path: noHash, query: '' } : { path: noHash.slice(0, q), query: noHash.slice(q + 1) };
}

/**
 * A content coding an adapter applies to bodies (the local server compresses; the CDNs compress
 * themselves). The representation, its validator and the 304 are still decided here, once.
 */
export interface ContentCoder {
  /** The coding to send this body in for this request (e.g. `br`), or null for none. */
  choose(request: ApiRequest, body: Uint8Array): string | null;
  /** The body in that coding; `etag` is the identity body's, when it has one (for a cache). */
  encode(body: Uint8Array, coding: string, etag: string | undefined): Uint8Array;
}

/**
 * The ETag of the `coding` form of a representation whose identity ETag is `etag`: another strong
 * validator (RFC 9110, 8.8.3), still a function of the identity bytes alone.
 */
function codedEtag(etag: string, coding: string): string {
  return etag.replace(/"$/, `-${coding}"`);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Answers a request under /api/ for a built site. */
export async function handle(
  request: ApiRequest,
  site: SiteIndex,
  readSite: ReadFile,
  coder?: ContentCoder,
): Promise<ApiResponse> {
  // Details are read out of their packs (core/packs.ts) by the name of a file of their own.
  const readFile = unpacking(readSite, site);
  const query = listQuery(new URLSearchParams(request.query));
  if (request.path === '/') return home(request);
  // DRF's format override: `json` and `api` (the HTML view) are its renderers; any other is a 404.
  if (query.format !== undefined && query.format !== '' && !FORMATS.has(query.format))
    return errorResponse(request, NOT_FOUND, coder);
  let a: Answer = answer(request.method, request.path, query, site);
  try {
    if (a.kind === 'compute') a = await a.run(readFile);
    if (a.kind === 'compute') throw new Error('a computed answer must resolve to a file or a body');
    if (a.kind === 'body') return represent(request, query, a.status, encoder.encode(a.body), site, coder);
    const bytes = await readFile(a.file);
    if (bytes === null) throw new IncompleteSite(a.file, null);
    return represent(request, query, 200, bytes, site, coder, a.type);
  } catch (err) {
    if (!(err instanceof IncompleteSite)) throw err;
    // The one 503 of an incomplete site. An answer's own file's is an error without a site (its
    // HTML view as errorResponse's); a computed answer's is a page of the site, as it always was.
    const json = encoder.encode(errorBody(err.error));
    return represent(request, query, err.error.status, json, err.why === null ? undefined : site, coder);
  }
}

/** Media types whose bodies no content coding is applied to (core/files.ts: the downloads). */
const PRECODED: ReadonlySet<string> = new Set(DOWNLOAD_TYPES.values());

/** Where `/` leads. */
const API_ROOT_PATH = '/api/v1';
const FORMATS: ReadonlySet<string> = new Set(['json', 'api']);

/**
 * `/`, where the API is not: a redirect to its root, as DRF's DefaultRouter leads there. Relative,
 * so that it stays on whatever origin was asked; cacheable like any answer.
 */
function home(request: ApiRequest): ApiResponse {
  const allowed = request.method === 'GET' || request.method === 'HEAD';
  return {
    status: allowed ? 302 : 405,
    headers: allowed
      ? { Location: API_ROOT_PATH, 'Cache-Control': CLIENT_CACHE_CONTROL }
      : { ...API_HEADERS, 'Content-Type': JSON_TYPE, 'Cache-Control': CLIENT_CACHE_CONTROL },
    body: allowed ? new Uint8Array(0) : encoder.encode(errorBody(methodNotAllowed(request.method))),
    sendBody: !allowed && request.method !== 'HEAD',
    cacheable: allowed,
  };
}

/** The contract's error answer for a request, without a site (e.g. no index could be loaded). */
export function errorResponse(request: ApiRequest, error: ApiError, coder?: ContentCoder): ApiResponse {
  return represent(
    request,
    listQuery(new URLSearchParams(request.query)),
    error.status,
    encoder.encode(errorBody(error)),
    undefined,
    coder,
  );
}

function represent(
  request: ApiRequest,
  query: ListQuery,
  status: number,
  json: Uint8Array,
  site: Pick<SiteIndex, 'apiOrigin' | 'period' | 'name' | 'calendar' | 'license'> | undefined,
  coder: ContentCoder | undefined,
  type: string = JSON_TYPE,
): ApiResponse {
  const method = request.method;
  const headers: Record<string, string> = {
    'Content-Type': type,
    ...API_HEADERS,
    'Cache-Control': status >= 500 ? NO_STORE : CLIENT_CACHE_CONTROL,
  };
  if (method === 'OPTIONS' && status === 200) {
    const preflight = request.header('origin') !== null && request.header('access-control-request-method') !== null;
    if (preflight) Object.assign(headers, preflightHeaders(request.header('access-control-request-headers')));
    return { status, headers, body: json, sendBody: true, cacheable: false };
  }
  let body = json;
  // A `.json` suffix always means JSON (it wins over `format`, as DRF's format suffix does).
  const html =
    type === JSON_TYPE &&
    !request.path.endsWith('.json') &&
    (query.format === 'api' || (query.format !== 'json' && prefersHtml(request.header('accept'))));
  if (html) {
    headers['Content-Type'] = HTML_TYPE;
    headers['Content-Security-Policy'] = HTML_CSP;
    const html = renderHtmlView({
      status,
      json: decoder.decode(json),
      jsonHeaders: { ...headers, 'Content-Type': JSON_TYPE, ...(status < 300 ? { ETag: etagOf(json) } : {}) },
      path: request.path,
      query,
      apiOrigin: site?.apiOrigin,
      period: site?.period,
      name: site?.name,
      calendar: site?.calendar,
      license: site?.license,
    });
    body = encoder.encode(html);
  }
  const cacheable = (method === 'GET' || method === 'HEAD') && status < 500;
  let etag = status >= 200 && status < 300 ? etagOf(body) : undefined;
  // The downloads are served as they are: their size and SHA-256 are of these bytes.
  const coding = PRECODED.has(type) ? null : (coder?.choose(request, body) ?? null);
  if (coder !== undefined && coding !== null) {
    body = coder.encode(body, coding, etag);
    headers.Vary = `${headers.Vary}, Accept-Encoding`;
    if (etag !== undefined) etag = codedEtag(etag, coding);
  }
  if (etag !== undefined) {
    headers.ETag = etag;
    // The client's copy is current: 304, with the headers of the answer it would get, no body.
    if (ifNoneMatchHits(request.header('if-none-match'), etag))
      return { status: 304, headers, body, sendBody: false, cacheable };
  }
  if (coding !== null) headers['Content-Encoding'] = coding;
  return { status, headers, body, sendBody: method !== 'HEAD', cacheable };
}
