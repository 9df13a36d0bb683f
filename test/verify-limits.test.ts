// npm run verify against hostile mirrors on loopback: an endless body, a compression bomb and a
// drip each end as a failed request saying why (which the verifier reports as a difference),
// within bounds of memory and time, never a crash or a hang.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorClient } from '../generator/verify/http.ts';

let server: Server;
let origin = '';
const timers = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  // 64 MiB of zeros compress to about 64 KiB.
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
  server = createServer((req, res) => {
    if (req.url === '/endless') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (res.write(chunk)) {}
      };
      res.on('drain', more);
      res.on('close', () => res.off('drain', more));
      more();
    } else if (req.url === '/bomb') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(bomb);
    } else if (req.url === '/drip') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const t = setInterval(() => res.write(' '), 100);
      timers.add(t);
      res.on('close', () => {
        clearInterval(t);
        timers.delete(t);
      });
    } else {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const t of timers) clearInterval(t);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('verify against a hostile mirror', () => {
  const client = (deadlineMs = 1_500) =>
    mirrorClient(origin, {
      concurrency: 2,
      timeoutMs: 10_000,
      retryDelayMs: 10,
      deadlineMs,
      maxBodyBytes: 1024 * 1024,
      maxDecodedBytes: 4 * 1024 * 1024,
    });

  it('stops reading an endless body at its cap and says so', async () => {
    const c = client();
    const r = await c.request('GET', '/endless', {});
    c.close();
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.error).toMatch(/the body is longer than 1 MiB/);
  });

  it('refuses to inflate a compression bomb past its cap', async () => {
    const c = client();
    const r = await c.request('GET', '/bomb', {});
    c.close();
    expect(r.ok ? '' : r.error).toMatch(/the gzip body decodes to more than 4 MiB/);
  });

  it('gives up on a drip at the deadline of the whole answer', async () => {
    // A drip of a byte every 100 ms never idles past the 10 s timeout; the deadline is short, for
    // the suite's time (each try is cut at it).
    const c = client(500);
    const started = Date.now();
    const r = await c.request('GET', '/drip', {});
    c.close();
    expect(r.ok ? '' : r.error).toMatch(/the whole answer did not come within 0.5 s/);
    // Two tries (one retry), each cut at its deadline: nowhere near the idle timeout's endlessness.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('still reads an ordinary answer', async () => {
    const c = client();
    const r = await c.request('GET', '/ok', {});
    c.close();
    expect(r.ok && Buffer.from(r.value.body).toString()).toBe('{}');
  });
});
