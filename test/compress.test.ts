// Compression on the local server (generator/server/compress.ts): which coding for which
// Accept-Encoding; bodies of 1 KiB or more compressed, smaller ones not; Content-Encoding, Vary,
// Content-Length of the bytes sent; HEAD; an ETag per coding and If-None-Match against it (304).

import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_COMPRESSED_BYTES, negotiateCoding } from '../generator/server/compress.ts';
import { createApiServer } from '../generator/server/server.ts';
import { writeContent } from './helpers/content.ts';
import { type LocalSite, startLocalSite } from './helpers/local-server.ts';
import { mediumSite } from './helpers/medium-site.ts';

interface Raw {
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

function raw(origin: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(origin + path, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers as Record<string, string | undefined>,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (r: Raw) =>
  r.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(r.body)
    : r.headers['content-encoding'] === 'gzip'
      ? gunzipSync(r.body)
      : r.body;

describe('negotiateCoding', () => {
  it('picks brotli, then gzip, by quality; honours q=0, * and x-gzip; nothing else', () => {
    const cases: Array<[string | null, string | null]> = [
      [null, null],
      ['', null],
      ['identity', null],
      ['deflate', null],
      ['gzip', 'gzip'],
      ['x-gzip', 'gzip'],
      ['br', 'br'],
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['br;q=1, gzip;q=1', 'br'],
      ['gzip;q=0, br;q=0', null],
      ['*', 'br'],
      ['*;q=0', null],
      ['br;q=0, *', 'gzip'],
      ['GZIP;Q=0.5', 'gzip'],
      ['gzip;q=banana', null],
    ];
    for (const [accept, coding] of cases) expect(negotiateCoding(accept), String(accept)).toBe(coding);
  });
});

describe('compression on the local server', () => {
  let site: LocalSite;
  let plain: { origin: string; stop: () => Promise<void> };
  const list = '/api/v1/entries?page=2';
  const range = '/api/v1/entries?start=1660-03-01&end=1661-12-31&page=2';
  const small = '/api/v1/entries/1660-01-01';

  beforeAll(async () => {
    const content = writeContent(mediumSite());
    site = await startLocalSite(content);
    // The same site, served with compression off.
    const server: Server = createApiServer({ publicDir: site.publicDir, compress: false });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    plain = {
      origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      stop: async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  });
  afterAll(async () => {
    await plain.stop();
    await site.stop();
  });

  it('compresses bodies of 1 KiB or more: Content-Encoding, Vary, the length of the bytes sent, the same JSON', async () => {
    for (const path of [list, range]) {
      const identity = await raw(site.origin, path);
      expect(identity.body.length, path).toBeGreaterThanOrEqual(MIN_COMPRESSED_BYTES);
      expect(identity.headers['content-encoding'], path).toBeUndefined();
      expect(identity.headers.vary, path).toBe('Cookie, Accept');
      for (const [accept, coding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
      ] as const) {
        const r = await raw(site.origin, path, { 'accept-encoding': accept });
        const label = `${path} ${accept}`;
        expect(r.status, label).toBe(200);
        expect(r.headers['content-encoding'], label).toBe(coding);
        expect(r.headers.vary, label).toBe('Cookie, Accept, Accept-Encoding');
        expect(r.headers['content-type'], label).toBe('application/json');
        expect(Number(r.headers['content-length']), label).toBe(r.body.length);
        expect(r.body.length, label).toBeLessThan(identity.body.length / 2);
        expect(decode(r).equals(identity.body), label).toBe(true);
        // Another representation, another strong validator, derived from the identity one.
        expect(r.headers.etag, label).toBe((identity.headers.etag as string).replace(/"$/, `-${coding}"`));
        expect(r.headers['access-control-allow-origin'], label).toBe('*');
      }
    }
  });

  it('sends small bodies, and answers to clients that accept no coding, exactly as the core gives them', async () => {
    const identity = await raw(site.origin, small);
    expect(identity.body.length).toBeLessThan(MIN_COMPRESSED_BYTES);
    const r = await raw(site.origin, small, { 'accept-encoding': 'br, gzip' });
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers.vary).toBe('Cookie, Accept');
    expect(r.headers.etag).toBe(identity.headers.etag);
    expect(r.body.equals(identity.body)).toBe(true);
    for (const accept of ['identity', 'gzip;q=0, br;q=0', 'deflate']) {
      const none = await raw(site.origin, list, { 'accept-encoding': accept });
      expect(none.headers['content-encoding'], accept).toBeUndefined();
      expect(none.body.equals((await raw(site.origin, list)).body), accept).toBe(true);
    }
  });

  it('compresses the browsable page too', async () => {
    const accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const identity = await raw(site.origin, list, { accept });
    const r = await raw(site.origin, list, { accept, 'accept-encoding': 'br' });
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers.vary).toBe('Cookie, Accept, Accept-Encoding');
    expect(decode(r).equals(identity.body)).toBe(true);
  });

  it('answers HEAD with the headers of the compressed GET, Content-Length included, and no body', async () => {
    for (const path of [list, range]) {
      const g = await raw(site.origin, path, { 'accept-encoding': 'br' });
      const h = await raw(site.origin, path, { 'accept-encoding': 'br' }, 'HEAD');
      expect(h.status, path).toBe(200);
      expect(h.body.length, path).toBe(0);
      for (const name of ['content-encoding', 'content-length', 'etag', 'vary', 'content-type'])
        expect(h.headers[name], `${path} ${name}`).toBe(g.headers[name]);
    }
  });

  it('gives 304 to If-None-Match naming the representation this request gets, and only that one', async () => {
    const identity = await raw(site.origin, list);
    const br = await raw(site.origin, list, { 'accept-encoding': 'br' });
    const brTag = br.headers.etag as string;
    for (const inm of [brTag, `W/${brTag}`, `"other", ${brTag}`, '*']) {
      for (const method of ['GET', 'HEAD']) {
        const r = await raw(site.origin, list, { 'accept-encoding': 'br', 'if-none-match': inm }, method);
        const label = `${method} If-None-Match: ${inm}`;
        expect(r.status, label).toBe(304);
        expect(r.body.length, label).toBe(0);
        expect(r.headers.etag, label).toBe(brTag);
        expect(r.headers.vary, label).toBe('Cookie, Accept, Accept-Encoding');
        expect(r.headers['content-encoding'], label).toBeUndefined();
        expect(r.headers['x-content-type-options'], label).toBe('nosniff');
      }
    }
    // The identity tag names another representation than the brotli one this request would get.
    const cross = await raw(site.origin, list, {
      'accept-encoding': 'br',
      'if-none-match': identity.headers.etag as string,
    });
    expect(cross.status).toBe(200);
    expect(cross.headers['content-encoding']).toBe('br');
    // And the brotli tag is not the identity representation's.
    const back = await raw(site.origin, list, { 'if-none-match': brTag });
    expect(back.status).toBe(200);
    expect(back.headers['content-encoding']).toBeUndefined();
    const same = await raw(site.origin, list, { 'if-none-match': identity.headers.etag as string });
    expect(same.status).toBe(304);
    // Errors are never 304, compressed or not.
    const error = await raw(site.origin, '/api/v1/entries?page=0', { 'accept-encoding': 'br', 'if-none-match': '*' });
    expect(error.status).toBe(404);
  });

  it('can be turned off: the server then never compresses', async () => {
    const r = await raw(plain.origin, list, { 'accept-encoding': 'gzip, deflate, br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers.vary).toBe('Cookie, Accept');
    expect(r.body.equals((await raw(site.origin, list)).body)).toBe(true);
  });

  it('gives the same bytes for the same answer, request after request', async () => {
    const a = await raw(site.origin, range, { 'accept-encoding': 'br' });
    const b = await raw(site.origin, range, { 'accept-encoding': 'br' });
    expect(a.body.equals(b.body)).toBe(true);
    expect(a.headers.etag).toBe(b.headers.etag);
  });
});
