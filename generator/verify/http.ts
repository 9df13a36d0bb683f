// Requests to the mirror: HTTP/1.1 over node:http(s), the request sent exactly as planned (no
// header added but User-Agent and, for methods with a body, Content-Length: 0), the answer's raw
// status, headers and bytes. Nothing is followed (a redirect is an answer to compare) and no
// Accept-Encoding is sent; a mirror that compresses anyway is decoded. Concurrency is bounded by
// the agent's sockets; a request is retried once after a network error.

import http from 'node:http';
import https from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { fail, ok, type Result } from '../core/result.ts';

export interface MirrorAnswer {
  status: number;
  /** Values by lower-case name; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  /** The body, decoded if the mirror sent it compressed. */
  body: Uint8Array;
}

export interface MirrorClient {
  /** One request, retried once on a network error; the failure says why in a few words. */
  request(
    method: string,
    target: string,
    headers: Readonly<Record<string, string>>,
  ): Promise<Result<MirrorAnswer, string>>;
  /** HTTP requests made so far, retries included. */
  readonly made: number;
  close(): void;
}

export interface ClientOptions {
  /** Requests in flight at most. */
  concurrency: number;
  /** A request fails when the mirror sends nothing for this long. */
  timeoutMs: number;
  /** Wait before the one retry. */
  retryDelayMs?: number;
  /** A request fails when its whole answer has not come within this long (a drip). */
  deadlineMs?: number;
  /** A request fails when the mirror sends more bytes than this (an endless body). */
  maxBodyBytes?: number;
  /** A request fails when its body decodes to more bytes than this (a compression bomb). */
  maxDecodedBytes?: number;
}

/**
 * What a mirror may send for one answer: far above any answer of the API (its largest, the
 * OpenAPI document of the whole diary or a topic's detail, is well under a megabyte), far below
 * what would hurt the machine verifying it.
 */
const ANSWER_LIMITS = { deadlineMs: 60_000, maxBodyBytes: 32 * 1024 * 1024, maxDecodedBytes: 64 * 1024 * 1024 };

const USER_AGENT = 'pepys-static-api-verify';

/** A network error in a few words: what an operator can act on. */
function describeNetworkError(err: unknown, timeoutMs: number): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'connection refused (ECONNREFUSED)';
    case 'ENOTFOUND':
      return 'no such host (ENOTFOUND)';
    case 'EAI_AGAIN':
      return 'the host name could not be resolved now (EAI_AGAIN)';
    case 'ECONNRESET':
      return 'the connection was reset (ECONNRESET)';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `no route to the host (${e.code})`;
    case 'VERIFY_TIMEOUT':
      return `no answer within ${timeoutMs / 1000} s`;
    case 'VERIFY_LIMIT':
      return e.message;
  }
  // OpenSSL's messages run over lines and name source files: its reason is what matters.
  const message = /SSL routines:[^:]*:([^:\n]+)/.exec(e.message)?.[1] ?? (e.message.split('\n')[0] as string).trim();
  if (e.code === 'EPROTO') return `TLS failed: ${message} (EPROTO; is it an http:// mirror?)`;
  if (typeof e.code === 'string' && /CERT|TLS|SSL/.test(e.code)) return `TLS: ${message} (${e.code})`;
  return e.code === undefined ? message : `${message} (${e.code})`;
}

function decode(encoding: string | undefined, raw: Buffer, maxOutputLength: number): Result<Buffer, string> {
  const enc = (encoding ?? '').trim().toLowerCase();
  const limit = { maxOutputLength };
  try {
    if (enc === 'gzip' || enc === 'x-gzip') return ok(gunzipSync(raw, limit));
    if (enc === 'br') return ok(brotliDecompressSync(raw, limit));
    if (enc === 'deflate') {
      try {
        return ok(inflateSync(raw, limit));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw err;
        return ok(inflateRawSync(raw, limit));
      }
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      return fail(`the ${enc} body decodes to more than ${mib(maxOutputLength)} (a compression bomb?)`);
    // Undecodable: compared as sent, the difference then shows.
  }
  return ok(raw);
}

const mib = (bytes: number) => `${Math.round(bytes / 1048576)} MiB`;

function headerMap(raw: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

export function mirrorClient(origin: string, options: ClientOptions): MirrorClient {
  const url = new URL(origin);
  const secure = url.protocol === 'https:';
  const lib = secure ? https : http;
  const agent = new lib.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? undefined : Number(url.port);
  let made = 0;
  const deadlineMs = options.deadlineMs ?? ANSWER_LIMITS.deadlineMs;
  const maxBodyBytes = options.maxBodyBytes ?? ANSWER_LIMITS.maxBodyBytes;
  const maxDecodedBytes = options.maxDecodedBytes ?? ANSWER_LIMITS.maxDecodedBytes;
  const limitError = (message: string) => Object.assign(new Error(message), { code: 'VERIFY_LIMIT' });

  const once = (
    method: string,
    target: string,
    headers: Readonly<Record<string, string>>,
  ): Promise<Result<MirrorAnswer, string>> =>
    new Promise((resolve) => {
      made++;
      const sent: Record<string, string> = { 'User-Agent': USER_AGENT, ...headers };
      if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') sent['Content-Length'] = '0';
      const req = lib.request(
        { hostname, port, path: target, method, headers: sent, agent, timeout: options.timeoutMs },
        (res) => {
          const chunks: Buffer[] = [];
          let received = 0;
          res.on('data', (c: Buffer) => {
            received += c.length;
            if (received > maxBodyBytes) {
              req.destroy(limitError(`the body is longer than ${mib(maxBodyBytes)} (an endless body?)`));
              return;
            }
            chunks.push(c);
          });
          res.on('error', (err) => resolve(fail(describeNetworkError(err, options.timeoutMs))));
          res.on('end', () => {
            if (!res.complete) {
              resolve(fail('the connection closed before the whole answer came'));
              return;
            }
            const headers = headerMap(res.rawHeaders);
            const body = decode(headers['content-encoding'], Buffer.concat(chunks), maxDecodedBytes);
            resolve(body.ok ? ok({ status: res.statusCode ?? 0, headers, body: body.value }) : body);
          });
        },
      );
      req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'VERIFY_TIMEOUT' })));
      // A mirror that sends a byte now and then never times out: the whole answer has a deadline.
      const deadline = setTimeout(
        () => req.destroy(limitError(`the whole answer did not come within ${deadlineMs / 1000} s`)),
        deadlineMs,
      );
      req.on('close', () => clearTimeout(deadline));
      req.on('error', (err) => resolve(fail(describeNetworkError(err, options.timeoutMs))));
      req.end();
    });

  return {
    async request(method, target, headers) {
      const first = await once(method, target, headers);
      if (first.ok) return first;
      await new Promise((r) => setTimeout(r, options.retryDelayMs ?? 250));
      return once(method, target, headers);
    },
    get made() {
      return made;
    },
    close() {
      agent.destroy();
    },
  };
}
