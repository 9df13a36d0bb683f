// The caches that keep what is asked again within a budget: the local server's, and an edge
// isolate's files (fileKeeper).

import { describe, expect, it } from 'vitest';
import { boundedCache, fileKeeper } from '../generator/core/bounded-cache.ts';

describe('boundedCache', () => {
  it('keeps values until one more would pass the budget, then starts over', () => {
    const cache = boundedCache<string>(10, 3);
    cache.set('a', 'A', 4);
    cache.set('b', 'B', 4);
    expect([cache.get('a'), cache.get('b')]).toEqual(['A', 'B']);
    cache.set('c', 'C', 4); // 12 bytes: over
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, undefined, 'C']);
    cache.set('d', 'D', 1);
    cache.set('e', 'E', 1);
    cache.set('f', 'F', 1); // a fourth entry: over
    expect([cache.get('c'), cache.get('f')]).toEqual([undefined, 'F']);
  });

  it('never keeps a value larger than its whole budget, nor empties itself for one', () => {
    const cache = boundedCache<string>(10);
    cache.set('a', 'A', 4);
    // Issue 36: a 1.5 GB pack emptied a 64 MiB cache and was kept, to be read again next time.
    cache.set('huge', 'H', 11);
    expect([cache.get('a'), cache.get('huge')]).toEqual(['A', undefined]);
    cache.set('b', 'B', 6);
    expect([cache.get('a'), cache.get('b')]).toEqual(['A', 'B']);
  });
});

describe('fileKeeper', () => {
  const bytes = (n: number) => new Uint8Array(n).fill(n);

  it('reads a file once while it fits the budget, and absent files every time', async () => {
    const reads: string[] = [];
    const keep = fileKeeper(100);
    const reader = () =>
      keep(async (file) => {
        reads.push(file);
        return file === 'missing' ? null : bytes(file.length);
      });
    // Each request wraps its own reader; the bytes are shared.
    const first = await reader()('shard-1');
    const again = await reader()('shard-1');
    expect(again).toBe(first);
    expect(await reader()('missing')).toBeNull();
    expect(await reader()('missing')).toBeNull();
    expect(reads).toEqual(['shard-1', 'missing', 'missing']);
  });

  it('gives one copy to requests that read the same file at once, and never keeps more than it may', async () => {
    let reads = 0;
    const keep = fileKeeper(10);
    const reader = () =>
      keep(async (file) => {
        reads++;
        await new Promise((r) => setTimeout(r, 5));
        return bytes(file === 'big' ? 11 : 4);
      });
    // Two requests: a read in flight is not shared between them (workerd binds it to one).
    const [a, b] = await Promise.all([reader()('x'), reader()('x')]);
    expect(reads).toBe(2);
    expect(b).toBe(a);
    const read = reader();
    expect(await read('x')).toBe(a);
    await read('big');
    await read('big');
    expect(reads).toBe(4); // too big to keep: read each time
  });

  it('reads a file once within a request however many ask for it at once, kept or not', async () => {
    const reads: string[] = [];
    const keep = fileKeeper(10);
    const read = keep(async (file) => {
      reads.push(file);
      await new Promise((r) => setTimeout(r, 5));
      if (file === 'broken') throw new Error('read failed');
      return file === 'missing' ? null : bytes(file === 'big' ? 11 : 4);
    });
    const [a, b, big1, big2, none1, none2] = await Promise.all([
      read('x'),
      read('x'),
      read('big'),
      read('big'),
      read('missing'),
      read('missing'),
    ]);
    expect(b).toBe(a);
    expect(big2).toBe(big1);
    expect([none1, none2]).toEqual([null, null]);
    expect(reads).toEqual(['x', 'big', 'missing']);
    // A failure reaches every asker, and the next ask reads again.
    const failed = await Promise.allSettled([read('broken'), read('broken')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(read('broken')).rejects.toThrow('read failed');
    expect(reads.filter((f) => f === 'broken')).toHaveLength(2);
    // Once a read is over, a file not kept is read again.
    await read('big');
    expect(reads.filter((f) => f === 'big')).toHaveLength(2);
  });
});
