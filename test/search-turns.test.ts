// The local server's searches one at a time (generator/server/search-turns.ts): the requests that
// come meanwhile are served between two searches, not after all of them (issue 36, item 4).

import { describe, expect, it } from 'vitest';
import { asksSearch, oneAtATime } from '../generator/server/search-turns.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('searches one at a time', () => {
  it('runs one task at a time, in the order given, and gives each its answer', async () => {
    const run = oneAtATime();
    let running = 0;
    let most = 0;
    const task = (i: number) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 2));
      running--;
      if (i === 3) throw new Error('three');
      return i;
    };
    const results = await Promise.allSettled([1, 2, 3, 4].map((i) => run(task(i))));
    expect(most).toBe(1);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      1,
      2,
      'three',
      4,
    ]);
  });

  it('lets what came meanwhile run between two tasks, not after all of them', async () => {
    const run = oneAtATime();
    const order: string[] = [];
    const searches = [1, 2, 3].map((i) =>
      run(async () => {
        order.push(`search ${i}`);
      }),
    );
    // Another request, come while the three wait (as an I/O callback would).
    setImmediate(() => order.push('detail'));
    await Promise.all(searches);
    expect(order).toEqual(['search 1', 'detail', 'search 2', 'search 3']);
  });

  it('passes the turn on when a task waits too long', async () => {
    const run = oneAtATime();
    void run(() => new Promise<never>(() => {}));
    const started = Date.now();
    expect(await run(async () => 'next')).toBe('next');
    expect(Date.now() - started).toBeLessThan(5_000);
    await turn();
  });

  it('knows a search by its non-blank `search` parameter', () => {
    expect(asksSearch('search=plague')).toBe(true);
    expect(asksSearch('start=1660-01-01&search=a%20b')).toBe(true);
    expect(asksSearch('search=&search=lute')).toBe(true);
    expect(asksSearch('search=')).toBe(false);
    expect(asksSearch('search=+%20')).toBe(false);
    expect(asksSearch('start=1660-01-01')).toBe(false);
    expect(asksSearch('research=x')).toBe(false);
  });
});
