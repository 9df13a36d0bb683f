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

  it('lets the others run while a task waits for a read, then gives it a turn again', async () => {
    const run = oneAtATime();
    const order: string[] = [];
    let arrive = (): void => {};
    const read = new Promise<string>((resolve) => {
      arrive = () => resolve('bytes');
    });
    const a = run(async (wait) => {
      order.push('a reads');
      const [one, two] = await Promise.all([wait(read), wait(Promise.resolve('kept'))]);
      order.push(`a goes on with ${one} and ${two}`);
    });
    await run(async () => {
      order.push('b');
    });
    expect(order).toEqual(['a reads', 'b']);
    arrive();
    await a;
    await run(async () => {
      order.push('c');
    });
    expect(order).toEqual(['a reads', 'b', 'a goes on with bytes and kept', 'c']);
  });

  it('never runs two at once when tasks read, and passes the turn on after a task that left a read', async () => {
    const run = oneAtATime();
    let running = 0;
    let most = 0;
    // A stretch of a task holding its turn, across turns of the event loop (not through `wait`):
    // no other task may start one meanwhile.
    const compute = async () => {
      running++;
      most = Math.max(most, running);
      await turn();
      await turn();
      running--;
    };
    const late = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        run(async (wait) => {
          await compute();
          await Promise.all([wait(late(i)), wait(late(5 - i))]);
          await compute();
          await wait(late(1));
          await compute();
        }),
      ),
    );
    expect(most).toBe(1);
    // A task that ended while one of its reads was still out: the read's end takes no turn.
    let arrive = (): void => {};
    await run(async (wait) => {
      void wait(
        new Promise((resolve) => {
          arrive = () => resolve(null);
        }),
      );
      await turn();
    });
    arrive();
    await turn();
    expect(await run(async () => 'next')).toBe('next');
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
