// The local server (and offline mirror): a thin Node adapter around the core's dispatch
// (core/dispatch.ts), the one the edge's fetch runs (deploy/web.ts createFetch). Node's request
// becomes the core's ApiRequest directly, not a web Request, whose URL parser would resolve dot
// segments and re-escape the target, and which refuses TRACE and CONNECT; the ApiResponse is sent
// as it is: headers in their order and case, a HEAD's Content-Length that of its GET. It reads
// the built files itself (site.ts), whole and by one open each, so that Content-Length always
// matches the bytes sent, and it answers every request, even one that HTTP itself rejects, with
// the contract's JSON and headers.
//
// The handler's answer is a function of the generation of the site and of the request: its
// method, its target and the few headers it reads (ANSWER_HEADERS). So each generation keeps its
// answers by those (site.ts, core/bounded-cache.ts), and a request asked before is answered without the
// handler: no parsing of the query, no hashing of the bytes for the ETag, no compression. Should
// the handler ever read another header, that answer is not kept. Server errors are never kept.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createDispatch } from '../core/dispatch.ts';
import { type ApiError, messageOf, methodNotAllowed, REASON_PHRASES } from '../core/errors.ts';
import { type ApiRequest, type ApiResponse, errorResponse, splitTarget } from '../core/handler.ts';
import { ok, type Result } from '../core/result.ts';
import { compression } from './compress.ts';
import { asksSearch, oneAtATime, readingInTurn, type Wait } from './search-turns.ts';
import { type Site, siteLoader } from './site.ts';

export interface ServerOptions {
  /** The built output directory. */
  publicDir: string;
  /** Where to report unexpected failures (default: stderr). */
  log?: (line: string) => void;
  /** Compress bodies of 1 KiB or more when the client accepts gzip or br (default: true; compress.ts). */
  compress?: boolean;
}

/** The request as the core sees it: path and query as sent, headers by lower-case name. */
function apiRequest(method: string, target: string, headers: IncomingMessage['headers']): ApiRequest {
  return {
    method,
    ...splitTarget(target),
    header: (name) => headerValue(headers, name),
  };
}

function headerValue(headers: IncomingMessage['headers'], name: string): string | null {
  const v = headers[name];
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
}

/** The request headers the handler reads (core/handler.ts, compress.ts): the key of a kept answer. */
const ANSWER_HEADERS = [
  'accept',
  'accept-encoding',
  'if-none-match',
  'origin',
  'access-control-request-method',
  'access-control-request-headers',
];
const KEYED = new Set(ANSWER_HEADERS);

/** What an answer is kept by: the method, the target as sent, the values of ANSWER_HEADERS. */
function answerKey(method: string, target: string, headers: IncomingMessage['headers']): string {
  let key = `${method} ${target}`;
  // A header value has no line break (HTTP forbids it); \0 stands for an absent header.
  for (const name of ANSWER_HEADERS) key += `\n${headerValue(headers, name) ?? '\0'}`;
  return key;
}

/** The headers sent with an answer, made once per answer: kept answers are sent many times. */
const sentHeaders = new WeakMap<ApiResponse, Record<string, string | number>>();

function send(res: ServerResponse, r: ApiResponse): void {
  let headers = sentHeaders.get(r);
  if (headers === undefined) {
    headers = { ...r.headers };
    if (r.status !== 304) headers['Content-Length'] = r.body.length;
    sentHeaders.set(r, headers);
  }
  res.writeHead(r.status, headers);
  res.end(r.sendBody ? r.body : undefined);
}

/** What a request is answered with: the generation it is answered from, and its turn (a search's). */
interface Turn {
  site: Result<Site, ApiError>;
  /** For a search: gives its turn up while it reads (search-turns.ts). */
  wait?: Wait;
  /** The request as the log names it (`GET /api/v1?page=2`). */
  label: string;
}

/** The server error of an unexpected failure, its cause in the log. */
const SERVER_ERROR: ApiError = { status: 500, detail: 'Server error.' };

/** The API's server, which a process that swaps its output itself tells of each swap. */
export type ApiServer = Server & {
  /** The output was just swapped by this process: requests from now on are answered from the new tree. */
  outputReplaced(): void;
};

export function createApiServer(options: ServerOptions): ApiServer {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const failed = (label: string, err: unknown): ApiError => {
    log(`error answering ${label}: ${messageOf(err)}`);
    return SERVER_ERROR;
  };
  const site = siteLoader(options.publicDir);
  const coder = options.compress === false ? undefined : compression;
  // Searches one at a time, other requests served between two (search-turns.ts).
  const searchTurn = oneAtATime();
  const dispatch = createDispatch<Turn>({
    site: ({ site, wait }) =>
      site.ok && wait !== undefined
        ? ok({ index: site.value.index, read: readingInTurn(site.value.read, wait) })
        : site,
    coder,
    failure: (err, _request, { label }) => failed(label, err),
  });

  /** The answer from the live generation; `wait`, for a search, gives its turn up while it reads. */
  const answer = async (request: ApiRequest, label: string, wait?: Wait): Promise<ApiResponse> => {
    const loaded = site.current();
    const first = await dispatch(request, { site: loaded, wait, label });
    // A file its index lists was missing: a rebuild swapped generations in between. Once more,
    // with the generation that is live now.
    if (first.status !== 503 || !loaded.ok) return first;
    const again = site.fresh();
    return again.ok && again.value !== loaded.value ? dispatch(request, { site: again, wait, label }) : first;
  };

  /** The answer, kept by the generation it came from when it may be given again (see above). */
  const answerKept = async (
    method: string,
    target: string,
    headers: IncomingMessage['headers'],
  ): Promise<ApiResponse> => {
    const loaded = site.current();
    const key = answerKey(method, target, headers);
    const kept = loaded.ok ? loaded.value.answers.get(key) : undefined;
    if (kept !== undefined) return kept;
    let keyed = true;
    const request: ApiRequest = {
      method,
      ...splitTarget(target),
      header: (name) => {
        if (!KEYED.has(name)) keyed = false;
        return headerValue(headers, name);
      },
    };
    const label = `${method} ${target}`;
    const r = asksSearch(request.query)
      ? await searchTurn((wait) => answer(request, label, wait))
      : await answer(request, label);
    // Kept only when it surely came from the generation looked up first (no retry, no swap seen).
    const now = site.current();
    if (keyed && r.status < 500 && loaded.ok && now.ok && now.value === loaded.value)
      loaded.value.answers.set(key, r, r.body.length + key.length);
    return r;
  };

  // Bounds against a client that pipelines without reading (each answer waits in memory until it
  // reads): so many answers waiting on one connection, or so many bytes unread, and it is closed.
  const waiting = new WeakMap<object, number>();
  const server = createServer(SERVER_LIMITS, (req, res) => {
    const socket = req.socket;
    const queued = (waiting.get(socket) ?? 0) + 1;
    if (queued > MAX_WAITING_ANSWERS || socket.writableLength > MAX_UNREAD_BYTES) {
      socket.destroy();
      return;
    }
    waiting.set(socket, queued);
    res.on('close', () => waiting.set(socket, (waiting.get(socket) ?? 1) - 1));
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    answerKept(method, target, req.headers).then(
      (r) => send(res, r),
      (err: unknown) => {
        const error = failed(`${req.method} ${req.url}`, err);
        if (res.headersSent) res.destroy();
        else send(res, errorResponse(apiRequest(method, target, req.headers), error, coder));
      },
    );
  });

  // Requests that HTTP itself rejects still get the contract's JSON and headers.
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    socket.on('error', () => socket.destroy());
    socket.end(rawResponse(rejection(err)));
  });
  // CONNECT names a host, not a path of the API.
  // Node removes its own 'error' listener before it emits 'connect': without this one, a client
  // that resets the connection before the answer is written would crash the process.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    answer(apiRequest(req.method ?? 'CONNECT', req.url ?? '', req.headers), `CONNECT ${req.url}`).then(
      (r) => {
        if (socket.writable) socket.end(rawResponse(r));
        else socket.destroy();
      },
      (err: unknown) => {
        failed(`CONNECT ${req.url}`, err);
        socket.destroy();
      },
    );
  });
  server.maxConnections = MAX_CONNECTIONS;
  return Object.assign(server, { outputReplaced: () => site.forget() });
}

/** Answers of one connection that may wait for it to read them (HTTP/1.1 pipelining). */
const MAX_WAITING_ANSWERS = 256;
/** Bytes of answers one connection may leave unread. */
const MAX_UNREAD_BYTES = 4 * 1024 * 1024;
/** Connections at once; past it the server refuses new ones until some close. */
const MAX_CONNECTIONS = 4096;
/**
 * Node's own bounds: requests per connection (then `Connection: close`), and times for the
 * headers, the whole request and an idle connection, so that slow clients cannot hold sockets.
 */
const SERVER_LIMITS = {
  maxRequestsPerSocket: 10_000,
  headersTimeout: 20_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
} as const;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BLANK: ApiRequest = { method: 'GET', path: '/api/', query: '', header: () => null };

/** The answer to a request the HTTP parser refused. */
function rejection(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): ApiResponse {
  let error: ApiError = { status: 400, detail: 'Bad request: the request is not valid HTTP.' };
  if (err.code === 'HPE_HEADER_OVERFLOW') error = { status: 431, detail: 'Request header fields too large.' };
  else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') error = { status: 408, detail: 'Request timeout.' };
  else if (err.code === 'HPE_INVALID_METHOD') {
    const method = err.rawPacket?.toString('latin1').split(' ', 1)[0] ?? '';
    if (TOKEN.test(method)) error = methodNotAllowed(method);
  }
  return errorResponse(BLANK, error);
}

/** A whole HTTP/1.1 response, for a socket the server no longer parses; the connection closes. */
function rawResponse(r: ApiResponse): Buffer {
  const lines = [`HTTP/1.1 ${r.status} ${REASON_PHRASES[r.status] ?? ''}`];
  for (const [k, v] of Object.entries(r.headers)) lines.push(`${k}: ${v}`);
  lines.push(`Content-Length: ${r.body.length}`, 'Connection: close', '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), r.sendBody ? r.body : Buffer.alloc(0)]);
}
