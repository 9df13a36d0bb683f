// A page that needs many files (a search's records, a filtered page of topics) reads them a few at
// a time (core/read-files.ts), not one after another: on a CDN each read is a round trip. The
// bytes of every answer are those of reading one file at a time, whatever order the reads end in.

import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../generator/content/load.ts';
import type { ReadFile } from '../generator/core/answer-types.ts';
import { fileKeeper, ISOLATE_KEPT_BYTES } from '../generator/core/bounded-cache.ts';
import { searchDocsFile, searchShardFile } from '../generator/core/files.ts';
import { handle } from '../generator/core/handler.ts';
import { READS_AT_ONCE, readFiles } from '../generator/core/read-files.ts';
import { shardCount, shardOf } from '../generator/core/search/postings.ts';
import type { SiteIndex } from '../generator/core/site-index.ts';
import { renderedSite } from './helpers/rendered.ts';

const CONTENT = join(import.meta.dirname, '..', 'content');
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A reader of `files` that answers after a delay, counting the reads in flight. */
function slowReader(files: ReadonlyMap<string, Uint8Array>, delays: () => number) {
  const stats = { inFlight: 0, most: 0, reads: new Map<string, number>() };
  const read = async (file: string): Promise<Uint8Array | null> => {
    stats.inFlight++;
    stats.most = Math.max(stats.most, stats.inFlight);
    stats.reads.set(file, (stats.reads.get(file) ?? 0) + 1);
    await delay(delays());
    stats.inFlight--;
    return files.get(file) ?? null;
  };
  return { read, stats };
}

describe('readFiles', () => {
  it('gives each file its bytes in the order asked, with at most READS_AT_ONCE reads in flight', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'none'), fc.nat(3)), { maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        async (asked, limit) => {
          const files = new Map(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((f) => [f, new TextEncoder().encode(f)]));
          const waits = asked.map(([, ms]) => ms);
          let n = 0;
          const { read, stats } = slowReader(files, () => waits[n++] ?? 0);
          const names = asked.map(([file]) => file);
          const got = await readFiles(read, names, limit);
          expect(got.map((b) => (b === null ? null : new TextDecoder().decode(b)))).toEqual(
            names.map((f) => (files.has(f) ? f : null)),
          );
          expect(stats.most).toBeLessThanOrEqual(limit);
          // Every reader starts at once: as many in flight as there are files, up to the limit.
          expect(stats.most).toBe(Math.min(limit, names.length));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('takes the reads that answer at once as they come, with at most `limit` of the others in flight', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'none'), fc.boolean(), fc.nat(3)), { maxLength: 30 }),
        fc.integer({ min: 1, max: 8 }),
        async (asked, limit) => {
          const files = new Map(['a', 'b'].map((f) => [f, new TextEncoder().encode(f)]));
          const stats = { inFlight: 0, most: 0, calls: 0 };
          let n = 0;
          // The n-th read answers at once or after a delay, as `asked` says.
          const read: ReadFile = (file) => {
            const [, atOnce, ms] = asked[n++] as [string, boolean, number];
            stats.calls++;
            if (atOnce) return files.get(file) ?? null;
            stats.inFlight++;
            stats.most = Math.max(stats.most, stats.inFlight);
            return delay(ms).then(() => {
              stats.inFlight--;
              return files.get(file) ?? null;
            });
          };
          const names = asked.map(([file]) => file);
          const got = await readFiles(read, names, limit);
          expect(got.map((b) => (b === null ? null : new TextDecoder().decode(b)))).toEqual(
            names.map((f) => (files.has(f) ? f : null)),
          );
          expect(stats.calls).toBe(names.length);
          expect(stats.most).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads from a synchronous reader too', async () => {
    const got = await readFiles((f) => (f === 'x' ? new Uint8Array([1]) : null), ['x', 'y', 'x']);
    expect(got).toEqual([new Uint8Array([1]), null, new Uint8Array([1])]);
  });

  it('fails as the reader fails', async () => {
    const read: ReadFile = async (f) => {
      await delay(1);
      if (f === 'bad') throw new Error('the static assets answered 500 for bad');
      return new Uint8Array(0);
    };
    await expect(readFiles(read, ['a', 'bad', 'c', 'd'])).rejects.toThrow(/answered 500/);
  });
});

describe('answers that read many files', () => {
  let files: Map<string, Uint8Array>;
  let site: SiteIndex;

  beforeAll(async () => {
    const { model } = await loadContent(CONTENT);
    ({ files, site } = renderedSite(model));
  });

  const answer = async (target: string, read: ReadFile) => {
    const [path, query = ''] = target.split('?');
    const r = await handle({ method: 'GET', path: path as string, query, header: () => null }, site, read);
    return `${r.status} ${new TextDecoder().decode(r.body)}`;
  };

  // Pages of several records, out of several files: searches of the sample's entries and topics
  // (out of packs; the sample is small: its searches match a few records a page), and the people of
  // a category (its detail, the kinds file and its pages: core/topic-lists.ts).
  const targets = [
    '/api/v1/entries?search=the',
    '/api/v1/entries?search=the&page=2',
    '/api/v1/entries?search=the&ordering=relevance',
    '/api/v1/topics?search=the',
    '/api/v1/topics?category=navy-board&kind=person',
  ];

  it('are the bytes of reading one file at a time, with reads in flight together', async () => {
    const sync: ReadFile = (file) => files.get(file) ?? null;
    for (const target of targets) {
      const expected = await answer(target, sync);
      expect(expected.startsWith('200 '), target).toBe(true);
      // Each page shows records, each read out of its pack.
      expect(JSON.parse(expected.slice(4)).results.length, target).toBeGreaterThan(1);
      const { read, stats } = slowReader(files, () => Math.floor(Math.random() * 3));
      expect(await answer(target, read), target).toBe(expected);
      expect(stats.most, target).toBeLessThanOrEqual(READS_AT_ONCE);
      // One after another, a page never had two reads in flight.
      expect(stats.most, target).toBeGreaterThan(1);
    }
  });

  it("read each pack once a request through an edge isolate's keeper, however many of its records a page shows", async () => {
    for (const target of targets) {
      const { read, stats } = slowReader(files, () => 1);
      const keep = fileKeeper(ISOLATE_KEPT_BYTES);
      expect(await answer(target, keep(read)), target).toBe(await answer(target, (f) => files.get(f) ?? null));
      for (const [file, times] of stats.reads) expect(times, `${target}: ${file}`).toBe(1);
      // A second request finds every file kept: nothing is read again.
      const before = [...stats.reads.values()].reduce((a, b) => a + b, 0);
      await answer(target, keep(read));
      expect([...stats.reads.values()].reduce((a, b) => a + b, 0)).toBe(before);
    }
  });

  it("read a search's statistics and the shards of its words together, before either is answered", async () => {
    for (const collection of ['entries', 'topics'] as const) {
      // What was asked for before the first read ended.
      const asked: string[] = [];
      let ended = false;
      const read: ReadFile = async (file) => {
        if (!ended) asked.push(file);
        await delay(1);
        ended = true;
        return files.get(file) ?? null;
      };
      const target = `/api/v1/${collection}?search=the`;
      expect(await answer(target, read)).toBe(await answer(target, (f) => files.get(f) ?? null));
      expect(asked, collection).toContain(searchDocsFile(collection));
      expect(asked, collection).toContain(
        searchShardFile(
          collection,
          shardOf(
            'the',
            shardCount(collection, collection === 'entries' ? site.entryDates.length : site.topicIds.size),
          ),
        ),
      );
    }
  });

  it('answer 503 naming the first record of the page whose pack is missing, however the reads end', async () => {
    let unavailable = 0;
    for (const target of targets) {
      // Each pack the page reads, gone in turn.
      const read: string[] = [];
      await answer(target, (file) => {
        read.push(file);
        return files.get(file) ?? null;
      });
      for (const gone of new Set(read.filter((f) => f.endsWith('.pack')))) {
        const damaged = new Map(files);
        damaged.delete(gone);
        const one: ReadFile = (file) => damaged.get(file) ?? null;
        const expected = await answer(target, one);
        const slow = slowReader(damaged, () => Math.floor(Math.random() * 2));
        expect(await answer(target, slow.read), `${target} without ${gone}`).toBe(expected);
        if (!expected.startsWith('503 ')) continue;
        unavailable++;
        expect(expected).toMatch(/The built site('s search index)? is incomplete: [^ ]+\.json is missing/);
      }
    }
    expect(unavailable).toBeGreaterThan(0);
  });

  it('fail as the reader fails', async () => {
    const read: ReadFile = async (file) => {
      await delay(file.endsWith('.pack') ? 1 : 0);
      if (file.endsWith('.pack')) throw new Error(`the static assets answered 500 for ${file}`);
      return files.get(file) ?? null;
    };
    await expect(answer('/api/v1/entries?search=the', read)).rejects.toThrow(/answered 500/);
  });
});
