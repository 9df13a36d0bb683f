// A damaged pack (core/packs.ts) never answers with another record's bytes nor with bytes its build
// did not write (issue 36, item 2), and an oversized file is never read whole (item 3): in memory,
// read whole (the edges, the build's readers) and by parts (the local server); through the Worker
// and the Netlify function with their static layers played here; and on the local server over
// files on disk, sparse files of gigabytes among them. The same damage on the runtimes themselves
// (Deno, workerd): test/heavy/pack-damage.test.ts.

import { mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadContent } from '../generator/content/load.ts';
import type { ReadFile } from '../generator/core/answer-types.ts';
import { detailFile, SITE_INDEX_FILE, searchShardFile } from '../generator/core/files.ts';
import { handle } from '../generator/core/handler.ts';
import {
  MAX_TABLE_BYTES,
  type OpenFile,
  packText,
  readPacked,
  recordPackFile,
  unpack,
  unpacking,
} from '../generator/core/packs.ts';
import { MAX_FILE_BYTES } from '../generator/core/read-files.ts';
import { shardCount, shardOf } from '../generator/core/search/postings.ts';
import { parseSiteIndex, type SiteIndex } from '../generator/core/site-index.ts';
import type { Env } from '../generator/deploy/cloudflare/worker.ts';
import { createEdgeFunction } from '../generator/deploy/netlify/edge.ts';
import { boundedBody } from '../generator/deploy/read-body.ts';
import { renderSite } from '../generator/render/render-site.ts';
import { expectedFromBuilt } from '../generator/verify/expected.ts';
import { packPath } from './helpers/files.ts';
import { type LocalSite, sampleSite, startLocalSite } from './helpers/local-server.ts';
import { damagePack, PACK_DAMAGES } from './helpers/pack-damage.ts';

const CONTENT = join(import.meta.dirname, '..', 'content');
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Records as a build writes them: pretty JSON naming their key, of a few hundred bytes each. */
function records(count: number): Array<readonly [string, string]> {
  return Array.from({ length: count }, (_, i) => {
    const key = `1660-01-${String(i + 1).padStart(2, '0')}`;
    return [key, JSON.stringify({ date: key, text: `Day ${i} ${'é and ſ, '.repeat(20 + i)}` }, null, 2)] as const;
  });
}

/** A file of these bytes opened by parts, counting the bytes read. */
function opener(files: ReadonlyMap<string, Uint8Array>, sizes: ReadonlyMap<string, number> = new Map()) {
  const stats = { read: 0, open: 0 };
  const open: OpenFile = (file) => {
    const bytes = files.get(file);
    if (bytes === undefined) return null;
    stats.open++;
    // A file may be larger than its bytes: zeros after them, as a sparse file reads.
    const size = sizes.get(file) ?? bytes.length;
    return {
      size,
      read(from, length) {
        const out = new Uint8Array(Math.max(0, Math.min(length, size - from)));
        out.set(bytes.subarray(from, from + out.length));
        stats.read += out.length;
        return out;
      },
      close: () => stats.open--,
    };
  };
  return { open, stats };
}

/** The record `key` of the pack `bytes` as a ReadFile reads it whole, and as the local server reads it by parts. */
function bothWays(bytes: Uint8Array, key: string): Array<Uint8Array | null> {
  const site = { entryDates: [key], categorySlugs: new Set(), topicIds: new Set() } as unknown as SiteIndex;
  const pack = recordPackFile('entries', key, 1);
  const whole = unpacking((file) => (file === pack ? bytes : null), site)(detailFile('entries', key));
  const { open, stats } = opener(new Map([[pack, bytes]]));
  const parts = readPacked(open, pack, key, MAX_FILE_BYTES);
  expect(stats.open, 'every file opened is closed').toBe(0);
  return [whole as Uint8Array | null, parts];
}

describe('a damaged pack, in memory', () => {
  const written = records(5);
  const pack = encoder.encode(packText(written));
  const bodies = new Map(written);

  it('reads back every record of a sound pack, whole and by parts', () => {
    for (const [key, body] of written)
      for (const got of bothWays(pack, key)) expect(decoder.decode(got as Uint8Array), key).toBe(body);
  });

  it.each(PACK_DAMAGES)('%s: the record it would misread is missing, whole and by parts', (kind) => {
    const { bytes, victim } = damagePack(pack, kind);
    // Before the table was checked: another record's bytes (overlap, swapped, duplicated), a
    // changed body, an empty or cut one, each served as 200.
    expect(bothWays(bytes, victim)).toEqual([null, null]);
    // Any other record reads as it was written, or not at all.
    for (const [key, body] of written)
      for (const got of bothWays(bytes, key)) if (got !== null) expect(decoder.decode(got), key).toBe(body);
  });

  it('a byte changed in one body leaves the other records of its pack readable', () => {
    const { bytes, victim } = damagePack(pack, 'flipped byte');
    for (const [key, body] of written) {
      const expected = key === victim ? null : body;
      for (const got of bothWays(bytes, key)) expect(got === null ? null : decoder.decode(got), key).toBe(expected);
    }
    // As a whole, it is not a sound pack.
    expect(unpack(bytes)).toBeNull();
  });

  it('any byte changed anywhere, or any number of the table changed: every read is the record written, or missing', () => {
    const end = pack.indexOf(0x0a);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ at: fc.nat(pack.length - 1), xor: fc.integer({ min: 1, max: 255 }) }),
          fc.record({ row: fc.nat(written.length - 1), field: fc.integer({ min: 1, max: 3 }), value: fc.nat() }),
        ),
        (damage) => {
          let bytes: Uint8Array;
          if ('at' in damage) {
            bytes = pack.slice();
            bytes[damage.at] = (bytes[damage.at] as number) ^ damage.xor;
          } else {
            const rows = JSON.parse(decoder.decode(pack.subarray(0, end))) as unknown[][];
            (rows[damage.row] as unknown[])[damage.field] = damage.value;
            bytes = new Uint8Array([...encoder.encode(JSON.stringify(rows)), ...pack.subarray(end)]);
          }
          for (const [key, body] of bodies)
            for (const got of bothWays(bytes, key)) if (got !== null) expect(decoder.decode(got), key).toBe(body);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('reads by parts the table and the record only, however large the file has grown', () => {
    const file = '_data/records/entries/0/0.pack';
    const key = written[4]?.[0] as string;
    // A sound pack: its first 16 KiB (the table, and the records in reach), then the record if past them.
    const big = encoder.encode(packText(records(60)));
    const far = records(60)[59] as readonly [string, string];
    const sound = opener(new Map([[file, big]]));
    expect(decoder.decode(readPacked(sound.open, file, far[0], MAX_FILE_BYTES) as Uint8Array)).toBe(far[1]);
    expect(sound.stats.read).toBe(16 * 1024 + encoder.encode(far[1]).length);
    // The same pack said to be 1.5 GB (zeros after it): its table does not end where the file
    // does, and nothing past the first read is read.
    const grown = opener(new Map([[file, pack]]), new Map([[file, 1.5e9]]));
    expect(readPacked(grown.open, file, key, MAX_FILE_BYTES)).toBeNull();
    expect(grown.stats.read).toBeLessThanOrEqual(16 * 1024);
    // A file of zeros, or of a table without end: no further than a table may reach.
    const zeros = opener(new Map([[file, new Uint8Array(0)]]), new Map([[file, 3 * 2 ** 30]]));
    expect(readPacked(zeros.open, file, key, MAX_FILE_BYTES)).toBeNull();
    expect(zeros.stats.read).toBeLessThanOrEqual(16 * 1024 + MAX_TABLE_BYTES + 1);
    // A record longer than a file may be is not read.
    const long = opener(new Map([[file, pack]]));
    expect(readPacked(long.open, file, key, 10)).toBeNull();
    expect(long.stats.read).toBe(pack.length);
  });
});

describe('a damaged pack, through the handler', () => {
  let files: Map<string, Uint8Array>;
  let site: SiteIndex;
  beforeAll(async () => {
    const { model } = await loadContent(CONTENT);
    files = new Map(
      renderSite(model).map((f) => [f.path, typeof f.body === 'string' ? encoder.encode(f.body) : f.body]),
    );
    const index = parseSiteIndex(decoder.decode(files.get(SITE_INDEX_FILE)));
    if (!index.ok) throw new Error(index.error);
    site = index.value;
  });

  const get = async (path: string, read: ReadFile) => {
    const r = await handle({ method: 'GET', path, query: '', header: () => null }, site, read);
    return { status: r.status, body: decoder.decode(r.body) };
  };

  it.each(PACK_DAMAGES)('%s: the detail asked for is the 503 of a file the site lacks, never 200', async (kind) => {
    const date = site.entryDates[40] as string;
    const pack = recordPackFile('entries', date, site.entryDates.length);
    const { bytes, victim } = damagePack(files.get(pack) as Uint8Array, kind);
    const damaged = new Map(files).set(pack, bytes);
    expect(await get(`/api/v1/entries/${victim}`, (f) => damaged.get(f) ?? null)).toEqual({
      status: 503,
      body: expect.stringContaining(
        `"The built site is incomplete: it lacks api/v1/entries/${victim}.json, which its index lists.`,
      ),
    });
  });
});

describe('a file too large for an edge to read', () => {
  /** A body of `size` zeros in 1 MiB chunks, counting the bytes pulled; stated or not. */
  function huge(size: number, stated: boolean) {
    const stats = { pulled: 0 };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (stats.pulled >= size) return controller.close();
        // A new chunk each time: a reader may take the one it is given (transfer its buffer).
        stats.pulled += 1024 * 1024;
        controller.enqueue(new Uint8Array(1024 * 1024));
      },
    });
    const headers: Record<string, string> = stated ? { 'Content-Length': String(size) } : {};
    return { response: new Response(body, { headers }), stats };
  }

  it('is not read past the bound, and not at all when its length is stated', async () => {
    const unstated = huge(64 * 1024 * 1024, false);
    // Lengths compared, not bytes: a failure would print megabytes.
    expect((await boundedBody(unstated.response, MAX_FILE_BYTES))?.length ?? null).toBeNull();
    expect(unstated.stats.pulled).toBeLessThanOrEqual(MAX_FILE_BYTES + 2 * 1024 * 1024);
    const stated = huge(64 * 1024 * 1024, true);
    expect((await boundedBody(stated.response, MAX_FILE_BYTES))?.length ?? null).toBeNull();
    expect(stated.stats.pulled).toBeLessThanOrEqual(1024 * 1024);
    expect(await boundedBody(new Response('{}'), MAX_FILE_BYTES)).toEqual(encoder.encode('{}'));
  });

  describe('the Worker and the Netlify function', () => {
    let files: Map<string, Uint8Array>;
    let index: unknown;
    let pack = '';
    beforeAll(async () => {
      const { model } = await loadContent(CONTENT);
      files = new Map(
        renderSite(model).map((f) => [f.path, typeof f.body === 'string' ? encoder.encode(f.body) : f.body]),
      );
      index = JSON.parse(decoder.decode(files.get(SITE_INDEX_FILE)));
      const site = parseSiteIndex(decoder.decode(files.get(SITE_INDEX_FILE)));
      if (!site.ok) throw new Error(site.error);
      pack = recordPackFile('entries', '1660-01-01', site.value.entryDates.length);
    });

    /** The static layer: the built files, the pack of 1660-01-01 a huge body of no stated length. */
    const serve = (path: string, stats: { pulled: number }[]) => {
      const file = path.slice(1);
      if (file === pack) {
        const h = huge(64 * 1024 * 1024, false);
        stats.push(h.stats);
        return h.response;
      }
      const bytes = files.get(file);
      return bytes === undefined ? new Response('Not Found', { status: 404 }) : new Response(bytes);
    };

    it('answer 503 for a record of a pack too large, having read no more than the bound', async () => {
      vi.resetModules();
      const worker = (await import('../generator/deploy/cloudflare/worker.ts')).default;
      const edge = createEdgeFunction(index);
      const runtimes = {
        worker: (stats: { pulled: number }[]) => {
          const env: Env = { ASSETS: { fetch: async (url) => serve(new URL(url).pathname, stats) } };
          return worker.fetch(new Request('http://127.0.0.1/api/v1/entries/1660-01-01'), env);
        },
        netlify: (stats: { pulled: number }[]) =>
          edge(new Request('http://127.0.0.1/api/v1/entries/1660-01-01'), {
            next: async (request) => serve(new URL(request.url).pathname, stats),
          }),
      };
      for (const [name, run] of Object.entries(runtimes)) {
        const stats: { pulled: number }[] = [];
        const res = await run(stats);
        expect(res.status, name).toBe(503);
        expect(await res.json(), name).toEqual({
          detail:
            'The built site is incomplete: it lacks api/v1/entries/1660-01-01.json, which its index lists. Build and publish it again.',
          status_code: 503,
        });
        expect(stats.length, name).toBe(1);
        expect(stats[0]?.pulled, name).toBeLessThanOrEqual(MAX_FILE_BYTES + 2 * 1024 * 1024);
      }
    });
  });
});

describe('the local server over a damaged output on disk', () => {
  let site: LocalSite;
  let index: SiteIndex;
  beforeAll(async () => {
    site = await startLocalSite(CONTENT);
    const loaded = parseSiteIndex(readFileSync(join(site.publicDir, SITE_INDEX_FILE), 'utf8'));
    if (!loaded.ok) throw new Error(loaded.error);
    index = loaded.value;
  });
  afterAll(async () => {
    await site?.stop();
  });

  /** Writes `bytes` over a file of the output, or makes it that size (sparse: truncate). */
  const damage = (file: string, bytes: Uint8Array | number) => {
    const path = join(site.publicDir, file);
    if (typeof bytes === 'number') truncateSync(path, bytes);
    else writeFileSync(path, bytes);
  };
  const get = async (path: string) => {
    const res = await fetch(site.origin + path);
    return { status: res.status, body: await res.text() };
  };
  /** The entries whose packs are all different: one for each damage. */
  const onePerPack = (count: number) => {
    const seen = new Set<string>();
    const dates: string[] = [];
    for (const date of index.entryDates) {
      const pack = packPath(site.publicDir, 'entries', date);
      if (seen.has(pack)) continue;
      seen.add(pack);
      dates.push(date);
      if (dates.length === count) break;
    }
    return dates;
  };

  it('answers 503 for each damaged record, and 200 for the records its damage spares', async () => {
    const dates = onePerPack(PACK_DAMAGES.length + 1);
    const spared = dates.pop() as string;
    const victims: string[] = [];
    PACK_DAMAGES.forEach((kind, i) => {
      const file = packPath(site.publicDir, 'entries', dates[i] as string);
      const { bytes, victim } = damagePack(readFileSync(join(site.publicDir, file)), kind);
      damage(file, bytes);
      victims.push(victim);
    });
    for (const victim of victims) {
      const got = await get(`/api/v1/entries/${victim}`);
      expect(got.status, victim).toBe(503);
      expect(got.body, victim).toContain(`it lacks api/v1/entries/${victim}.json`);
    }
    const kept = await get(`/api/v1/entries/${spared}`);
    expect(kept.status).toBe(200);
    expect(JSON.parse(kept.body).date).toBe(spared);
  });

  it('answers 503, not 500, for a pack of 3 GB and a search shard of 1.5 GB, reading neither whole', async () => {
    const [date] = onePerPack(PACK_DAMAGES.length + 2).slice(-1);
    const pack = packPath(site.publicDir, 'entries', date as string);
    const shard = searchShardFile('entries', shardOf('the', shardCount('entries', index.entryDates.length)));
    damage(pack, 3 * 2 ** 30);
    damage(shard, 1.5 * 2 ** 30);
    const before = process.memoryUsage.rss();
    for (let i = 0; i < 3; i++) {
      const detail = await get(`/api/v1/entries/${date}`);
      expect(detail.status).toBe(503);
      expect(detail.body).toContain(`it lacks api/v1/entries/${date}.json`);
      const search = await get('/api/v1/entries?search=the');
      expect(search.status).toBe(503);
    }
    // Read whole, the shard alone was 1.5 GB a request.
    expect(process.memoryUsage.rss() - before).toBeLessThan(256 * 1024 * 1024);
  });

  it('names a damaged or missing site index as a file of the output, never by the server’s path to it', async () => {
    damage(SITE_INDEX_FILE, encoder.encode('{"version": 2, "buildId"'));
    const damaged = await get('/api/v1');
    expect(damaged.status).toBe(503);
    expect(damaged.body).toContain(`The site index ${SITE_INDEX_FILE} is damaged`);
    expect(damaged.body).not.toContain(site.publicDir);
    rmSync(join(site.publicDir, SITE_INDEX_FILE));
    const missing = await get('/api/v1');
    expect(missing.status).toBe(503);
    expect(missing.body).toContain('No built site');
    expect(missing.body).not.toContain(site.publicDir);
    mkdirSync(join(site.publicDir, SITE_INDEX_FILE));
    expect((await get('/api/v1')).status).toBe(503);
    rmSync(join(site.publicDir, SITE_INDEX_FILE), { recursive: true });
  });
});

describe('npm run verify, reading the packs of a build for another origin', () => {
  it('expects each record as the mirror serves it: mapped to its origin, in a pack made again for it', async () => {
    // The run's shared build of the sample, for its loopback origin (only read here).
    const { publicDir: out, origin: built } = sampleSite();
    // A longer origin: every body that links to the API grows. Mapped in place, the bodies no
    // longer lay where the table said (before the digests: 171 of 171 details broken).
    const mirror = 'https://a-much-longer-origin.example.org';
    const expected = expectedFromBuilt(out, mirror);
    if (!expected.ok) throw new Error(expected.error);
    const { index, read } = expected.value;
    for (const date of index.entryDates) {
      const r = await handle(
        { method: 'GET', path: `/api/v1/entries/${date}`, query: '', header: () => null },
        index,
        read,
      );
      const body = decoder.decode(r.body);
      expect(r.status, date).toBe(200);
      expect(JSON.parse(body).date, date).toBe(date);
      expect(body, date).toContain(`${mirror}/api/v1/entries/${date}`);
      expect(body, date).not.toContain(built);
    }
  });
});
