// The local server as HTTP sees it: every response, 304 and refusals included, has the contract's
// headers; validators follow RFC 9110; what the path names is decided on the path as sent; a
// request HTTP itself rejects still gets JSON; a damaged index is a 503 saying what to do; and a
// reader never gets a torn or mixed answer while the output is swapped under it.

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { createApiServer } from '../generator/server/server.ts';
import { CONTRACT_HEADERS } from './contract/suite.ts';
import { entryFile, smallSite, writeContent } from './helpers/content.ts';
import { type LocalSite, sampleSite, startLocalSite } from './helpers/local-server.ts';
import { tempDir } from './helpers/temp.ts';

/** Sends raw bytes and returns the raw response (the server closes, or we stop after `wait`). */
function raw(origin: string, request: string | Buffer, wait = 2000): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), wait);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(request);
  });
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseRaw(text: string): RawResponse {
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

function expectContract(headers: Record<string, string> | Headers, label: string): void {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : (headers[name] ?? null));
  for (const [name, value] of Object.entries(CONTRACT_HEADERS)) expect(get(name), `${label}: ${name}`).toBe(value);
}

describe('local server: validators, ranges and paths', () => {
  let site: LocalSite;
  beforeAll(() => {
    site = sampleSite();
  });
  afterAll(async () => {
    await site.stop();
  });

  it('answers If-None-Match with 304 and every contract header, for files and computed answers alike', async () => {
    for (const path of [
      '/api/v1/entries/1660-01-01',
      '/api/v1/topics',
      '/api/v1',
      '/api/v1/entries?start=1660-01-05&end=1663-02-01&page=2',
    ]) {
      // Uncompressed (fetch asks for gzip otherwise): compressed 304s are test/compress.test.ts's.
      const first = await fetch(site.origin + path, { headers: { 'Accept-Encoding': 'identity' } });
      const etag = first.headers.get('etag') as string;
      expect(etag, path).toMatch(/^"[0-9a-f]{16}"$/);
      for (const ifNoneMatch of [etag, `W/${etag}`, '*', `"nope", ${etag}`, `W/"x",W/${etag}`]) {
        const again = await fetch(site.origin + path, {
          headers: { 'If-None-Match': ifNoneMatch, 'Accept-Encoding': 'identity' },
        });
        const label = `${path} If-None-Match: ${ifNoneMatch}`;
        expect(again.status, label).toBe(304);
        expectContract(again.headers, label);
        expect(again.headers.get('etag'), label).toBe(etag);
        expect(again.headers.get('cache-control'), label).toBe('public, max-age=0, must-revalidate');
        expect(await again.text(), label).toBe('');
      }
      const other = await fetch(site.origin + path, { headers: { 'If-None-Match': '"0000000000000000", W/"1"' } });
      expect(other.status, path).toBe(200);
    }
  });

  it('gives no 304 to errors, and a stable ETag that is a hash of the bytes', async () => {
    const missing = await fetch(`${site.origin}/api/v1/entries/1669-06-01`, { headers: { 'If-None-Match': '*' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
    const a = await fetch(`${site.origin}/api/v1/entries?start=1661-01-01&page=2`);
    const b = await fetch(`${site.origin}/api/v1/entries?page=2&start=1661-01-01&utm_source=x`);
    expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
    expect(await a.text()).toBe(await b.text());
  });

  it('ignores Range: the whole answer, 200, whatever is asked', async () => {
    const whole = await (await fetch(`${site.origin}/api/v1/entries/1660-01-01`)).text();
    for (const range of ['bytes=999999-', 'bytes=0-5', 'bytes=-10', 'bytes=5-1', 'lines=1-2']) {
      const res = await fetch(`${site.origin}/api/v1/entries/1660-01-01`, { headers: { Range: range } });
      expect(res.status, range).toBe(200);
      expect(res.headers.get('content-range'), range).toBeNull();
      expect(res.headers.get('accept-ranges'), range).toBeNull();
      expect(await res.text(), range).toBe(whole);
    }
  });

  it('sends a Content-Length equal to the bytes, for GET and HEAD', async () => {
    for (const path of [
      '/api/v1/entries/1660-01-01',
      '/api/v1/entries?start=1660-02-01&end=1662-01-01',
      '/api/v1/nothing',
    ]) {
      const get = parseRaw(await raw(site.origin, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      expect(Number(get.headers['content-length']), path).toBe(Buffer.byteLength(get.body));
      const head = parseRaw(await raw(site.origin, `HEAD ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      expect(head.headers['content-length'], path).toBe(get.headers['content-length']);
      expect(head.body, path).toBe('');
    }
  });

  it('takes the path as sent: dot segments, encoded or not, name nothing', async () => {
    const paths = [
      '/api/v1/categories/..',
      '/api/v1/categories/%2e%2e',
      '/api/v1/categories/%2E%2E/',
      '/api/v1/./entries',
      '/api/v1/entries/../topics',
      '/api/v1/entries/%2e%2e/topics',
      '/api/v1/topics/.',
      '/api/v1/entries/1660-01-01/..',
      '/api/v2/../v1/entries',
      '/api/v1/entries%2f1660-01-01',
      '/api/v1/entries/1660-01-01%00',
    ];
    for (const path of paths) {
      const r = parseRaw(await raw(site.origin, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      expect(r.status, path).toBe(404);
      expectContract(r.headers, path);
      expect(JSON.parse(r.body), path).toEqual({ detail: 'Not found.', status_code: 404 });
    }
    // An absolute-form target names its path.
    const absolute = parseRaw(
      await raw(
        site.origin,
        `GET ${site.origin}/api/v1/entries/1660-01-01 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      ),
    );
    expect(absolute.status).toBe(200);
  });

  it('answers requests HTTP rejects with the contract’s JSON error and headers', async () => {
    const cases: Array<[string, string | Buffer, number, RegExp]> = [
      ['unknown method token', 'FOO /api/v1 HTTP/1.1\r\nHost: x\r\n\r\n', 405, /^Method "FOO" not allowed\.$/],
      ['malformed request line', 'GARBAGE\r\n\r\n', 400, /not valid HTTP/],
      ['bad HTTP version', 'GET /api/v1 HTTP/9.9x\r\nHost: x\r\n\r\n', 400, /not valid HTTP/],
      ['bad header line', 'GET /api/v1 HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n', 400, /not valid HTTP/],
      [
        'oversized headers',
        `GET /api/v1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
        /too large/,
      ],
    ];
    for (const [label, request, status, detail] of cases) {
      const r = parseRaw(await raw(site.origin, request));
      expect(r.status, label).toBe(status);
      expectContract(r.headers, label);
      const body = JSON.parse(r.body) as { detail: string; status_code: number };
      expect(body.status_code, label).toBe(status);
      expect(body.detail, label).toMatch(detail);
      expect(Number(r.headers['content-length']), label).toBe(Buffer.byteLength(r.body));
    }
  });

  it('answers CONNECT instead of dropping the connection', async () => {
    const r = parseRaw(await raw(site.origin, 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n'));
    expect(r.status).toBe(404);
    expectContract(r.headers, 'CONNECT');
    expect(JSON.parse(r.body)).toEqual({ detail: 'Not found.', status_code: 404 });
  });
});

// The attacks below each have a server of their own (not the run's shared one), over a small
// site: what they test is the server's, whatever it serves (its bounds count answers, not bytes).
describe('local server: a client that resets a CONNECT (security)', () => {
  let site: LocalSite;
  beforeAll(async () => {
    site = await startLocalSite(writeContent(smallSite()));
  });
  afterAll(() => site.stop());

  it('stays up when CONNECT clients reset the connection without reading', async () => {
    const { hostname, port } = new URL(site.origin);
    // Each client sends CONNECT and resets at once (RST); before the fix the first write to such
    // a socket threw ECONNRESET out of the 'connect' path and ended the process.
    for (let i = 0; i < 20; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write('CONNECT /api/v1 HTTP/1.1\r\nHost: x\r\n\r\n', () => {
            socket.resetAndDestroy();
            resolve();
          });
        });
        socket.on('error', () => resolve());
      });
    }
    await new Promise((r) => setTimeout(r, 200));
    const res = await fetch(`${site.origin}/api/v1`);
    expect(res.status).toBe(200);
  });
});

describe('local server: a pipelining flood (security)', () => {
  let site: LocalSite;
  beforeAll(async () => {
    site = await startLocalSite(writeContent(smallSite()));
  });
  afterAll(() => site.stop());

  it('closes connections that pipeline without reading, and keeps answering others', async () => {
    const { hostname, port } = new URL(site.origin);
    const request = Buffer.from('GET /api/v1/entries HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3_000));
    // Each floods and never reads; before the bounds, their answers piled up in the server's
    // memory (200 such connections of 50,000 requests took it to 1.3 GB) and they stayed open.
    // Each client reads nothing for a while, then reads what it is sent until the server closes.
    const answered = Array.from(
      { length: 20 },
      () =>
        new Promise<number>((resolve) => {
          let text = '';
          const socket = connect(Number(port), hostname, () => {
            socket.pause();
            socket.write(request);
            setTimeout(() => socket.resume(), 2_000);
          });
          const timer = setTimeout(() => socket.destroy(), 30_000);
          socket.on('data', (d: Buffer) => {
            text += d.toString('latin1');
          });
          socket.on('error', () => {});
          socket.on('close', () => {
            clearTimeout(timer);
            resolve(text.split('HTTP/1.1 200 OK').length - 1);
          });
        }),
    );
    // Meanwhile an ordinary client is answered.
    const res = await fetch(`${site.origin}/api/v1`);
    expect(res.status).toBe(200);
    // Closed by the server after at most its bound of waiting answers, not all 3,000 sent.
    for (const n of await Promise.all(answered)) expect(n).toBeLessThan(1_000);
    expect((await fetch(`${site.origin}/api/v1/entries`)).status).toBe(200);
  });
});

describe('local server: a missing or damaged site', () => {
  let server: Server;
  let origin = '';
  let publicDir = '';
  beforeAll(async () => {
    publicDir = join(tempDir('pepys-damaged-'), 'public');
    server = createApiServer({ publicDir, log: () => {} });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const detail = async (path: string) => {
    const res = await fetch(origin + path);
    expectContract(res.headers, path);
    expect(res.headers.get('cache-control'), path).toBe('no-store');
    return { status: res.status, body: (await res.json()) as { detail: string; status_code: number } };
  };

  it('answers 503 naming the fix when nothing is built, the index is truncated or incomplete', async () => {
    expect(await detail('/api/v1')).toMatchObject({
      status: 503,
      body: { status_code: 503, detail: expect.stringMatching(/npm run build/) },
    });
    await build({ contentDir: writeContent(smallSite()), outDir: publicDir, quiet: true, env: {} });
    expect((await fetch(`${origin}/api/v1/entries?start=1660-01-02`)).status).toBe(200);
    const indexFile = join(publicDir, '_data', 'site-index.json');
    const text = readFileSync(indexFile, 'utf8');
    const damaged: Array<[string, RegExp]> = [
      [text.slice(0, text.length / 2), /truncated or damaged/],
      [JSON.stringify({ ...JSON.parse(text), pageSize: undefined }), /pageSize/],
      [
        JSON.stringify({
          ...JSON.parse(text),
          entries: [
            ['1660-01-02', 't', 'x'],
            ['1660-01-01', 't', 'x'],
          ],
        }),
        /ascending/,
      ],
      ['[]', /not a JSON object/],
      // An output of the generator before the details were packed (core/packs.ts): no detail
      // could be found in it, so its index is refused and the fix named.
      [JSON.stringify({ ...JSON.parse(text), version: 2 }), /version is 2, not 4: it was made by another version/],
    ];
    for (const [body, reason] of damaged) {
      writeFileSync(`${indexFile}.new`, body);
      renameSync(`${indexFile}.new`, indexFile);
      for (const path of ['/api/v1', '/api/v1/entries?start=1660-01-02', '/api/v1/entries/1660-01-01']) {
        const r = await detail(path);
        expect(r.status, path).toBe(503);
        expect(r.body.detail, path).toMatch(reason);
        expect(r.body.detail, path).toMatch(/npm run build/);
      }
    }
  });
});

describe('local server: answers while the output is swapped under it', () => {
  it('never sends a torn or mixed answer: every body is whole and is one generation’s', async () => {
    const root = tempDir('pepys-swap-');
    // Two generations with different bytes for the same paths, and one entry only in the second.
    const files = smallSite();
    const second = {
      ...files,
      'entries/1660/1660-01-02.html': entryFile('1660-01-02', 'topics: [1]\n', `<p>${'Changed. '.repeat(500)}</p>`),
      'entries/1660/1660-01-03.html': entryFile('1660-01-03'),
    };
    const trees = ['gen-a', 'gen-b'];
    await build({ contentDir: writeContent(files), outDir: join(root, 'gen-a'), quiet: true, env: {} });
    await build({ contentDir: writeContent(second), outDir: join(root, 'gen-b'), quiet: true, env: {} });
    const publicDir = join(root, 'public');
    symlinkSync('gen-a', publicDir);
    const paths = [
      '/api/v1/entries/1660-01-02',
      '/api/v1/entries/1660-01-03',
      '/api/v1/entries',
      '/api/v1/topics/1',
      '/api/v1/topics/2',
      '/api/v1/entries?start=1660-01-02',
      '/api/v1/entries?end=1660-01-02&page=last',
      '/api/v1/entries/1660-01-01',
    ];
    // The bytes each generation answers, from a server that does not move.
    const expected = new Map<string, Set<string>>(paths.map((p) => [p, new Set()]));
    for (const tree of trees) {
      const fixed = createApiServer({ publicDir: join(root, tree) });
      await new Promise<void>((r) => fixed.listen(0, '127.0.0.1', r));
      const o = `http://127.0.0.1:${(fixed.address() as AddressInfo).port}`;
      for (const p of paths)
        (expected.get(p) as Set<string>).add(`${(await fetch(o + p)).status} ${await (await fetch(o + p)).text()}`);
      await new Promise<void>((r) => fixed.close(() => r()));
    }
    // A separate process swaps the symlink as fast as it can, as a rebuild would.
    mkdirSync(join(root, 'swap'));
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `
      const fs = require('fs'); const path = require('path');
      const dir = ${JSON.stringify(root)}; let i = 0;
      const end = Date.now() + 2000;
      while (Date.now() < end) {
        const link = path.join(dir, 'swap', 'l' + (i % 2));
        try { fs.rmSync(link, { force: true }); fs.symlinkSync(i % 2 ? 'gen-b' : 'gen-a', link); fs.renameSync(link, path.join(dir, 'public')); } catch {}
        i++;
      }`,
      ],
      { stdio: 'ignore' },
    );
    const server = createApiServer({ publicDir });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const exited = new Promise<void>((r) => swapper.on('exit', () => r()));
    let answers = 0;
    const seen = new Set<string>();
    let running = true;
    void exited.then(() => (running = false));
    try {
      while (running) {
        await Promise.all(
          paths.map(async (p) => {
            const r = parseRaw(await raw(origin, `GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
            expect(Number(r.headers['content-length']), p).toBe(Buffer.byteLength(r.body));
            expect(expected.get(p)?.has(`${r.status} ${r.body}`), `${p}: ${r.status} ${r.body.slice(0, 80)}`).toBe(
              true,
            );
            if (p === '/api/v1/entries/1660-01-03') seen.add(String(r.status));
            answers++;
          }),
        );
      }
    } finally {
      swapper.kill();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(root, { recursive: true, force: true });
    }
    expect(answers).toBeGreaterThan(100);
    // Both generations were served while the swaps went on: 1660-01-03 exists only in the second.
    expect([...seen].sort()).toEqual(['200', '404']);
  });
});
