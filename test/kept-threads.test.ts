// Threads kept between jobs (output/kept-threads.ts): a thread given back is lent again, one
// dropped never is; at most one waits idle, for a while, and it never keeps a process alive (the
// one-shot build exits as soon as it is done).

import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { endIdleThreadsAtOnce, keptThreads, type LentThread } from '../generator/output/kept-threads.ts';
import { startCli } from './helpers/cli.ts';
import { tempDir } from './helpers/temp.ts';

/** A thread's script that answers each message with its thread's id. */
function echoScript(): URL {
  const path = join(tempDir(), 'echo-worker.mjs');
  writeFileSync(
    path,
    "import { parentPort, threadId } from 'node:worker_threads';\nparentPort.on('message', () => parentPort.postMessage(threadId));\n",
  );
  return new URL(`file://${path}`);
}

/** The id of the thread a job was lent. */
async function idOf(thread: LentThread): Promise<number> {
  const answer = once(thread.worker, 'message') as Promise<[number]>;
  thread.worker.postMessage('who');
  return (await answer)[0];
}

const exited = (worker: Worker) => once(worker, 'exit');

/** Gives a thread back and waits for it to end (it is not kept). */
async function givenBackEnds(thread: LentThread): Promise<void> {
  const gone = exited(thread.worker);
  thread.give();
  await gone;
}

describe('threads kept between jobs', () => {
  it('lends a thread given back to the next job, never one dropped', async () => {
    const threads = keptThreads(echoScript(), 60_000);
    const a = threads.take();
    const id = await idOf(a);
    a.give();
    const b = threads.take();
    expect(b.worker).toBe(a.worker);
    expect(await idOf(b)).toBe(id);
    expect(threads.started).toBe(1);
    await b.drop();
    // Given back after it was dropped: nothing (it is terminated, not kept).
    b.give();
    const c = threads.take();
    expect(await idOf(c)).not.toBe(id);
    expect(threads.started).toBe(2);
    await c.drop();
  });

  it('removes a job’s listeners when it ends, and dropping after giving back does nothing', async () => {
    const threads = keptThreads(echoScript(), 60_000);
    const a = threads.take();
    const heard: number[] = [];
    a.on('message', (id: number) => heard.push(id));
    await idOf(a);
    expect(heard).toHaveLength(1);
    a.give();
    await a.drop();
    const b = threads.take();
    expect(b.worker).toBe(a.worker);
    await idOf(b);
    expect(heard).toHaveLength(1);
    await b.drop();
  });

  it('keeps one idle thread: a second given back is terminated', async () => {
    const threads = keptThreads(echoScript(), 60_000);
    const a = threads.take();
    const b = threads.take();
    const [idA] = await Promise.all([idOf(a), idOf(b)]);
    a.give();
    const bExited = exited(b.worker);
    b.give();
    await bExited;
    const c = threads.take();
    expect(await idOf(c)).toBe(idA);
    const d = threads.take();
    expect(threads.started).toBe(3);
    await Promise.all([c.drop(), d.drop()]);
  });

  it('terminates the idle thread after its time', async () => {
    const threads = keptThreads(echoScript(), 50);
    const a = threads.take();
    await idOf(a);
    await givenBackEnds(a);
    const b = threads.take();
    expect(b.worker).not.toBe(a.worker);
    expect(threads.started).toBe(2);
    await b.drop();
  });

  it('keeps the idle thread while held, past its time, and lets it go after the release', async () => {
    const threads = keptThreads(echoScript(), 50);
    const release = threads.hold();
    const a = threads.take();
    await idOf(a);
    a.give();
    // Held: ten times its idle time later, the same thread is lent again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const b = threads.take();
    expect(b.worker).toBe(a.worker);
    expect(threads.started).toBe(1);
    const gone = exited(b.worker);
    b.give();
    release();
    // A second release does nothing; the thread goes after its idle time.
    release();
    await gone;
    const c = threads.take();
    expect(c.worker).not.toBe(a.worker);
    expect(threads.started).toBe(2);
    await c.drop();
  });

  it('ends a thread given back at once in a process that builds once, unless held', async () => {
    const undo = endIdleThreadsAtOnce();
    try {
      const threads = keptThreads(echoScript(), 60_000);
      const a = threads.take();
      await idOf(a);
      await givenBackEnds(a);
      // Held (the watch mode's session): kept as before.
      const release = threads.hold();
      const b = threads.take();
      await idOf(b);
      b.give();
      const c = threads.take();
      expect(c.worker).toBe(b.worker);
      release();
      await givenBackEnds(c);
      expect(threads.started).toBe(2);
    } finally {
      undo();
    }
    // Undone: kept again for its idle time.
    const threads = keptThreads(echoScript(), 60_000);
    const d = threads.take();
    await idOf(d);
    d.give();
    const e = threads.take();
    expect(e.worker).toBe(d.worker);
    await e.drop();
  });

  it('does not keep a one-shot build’s process alive: it exits at once once built', async () => {
    const out = join(tempDir(), 'out');
    const run = startCli('build', ['--out', out]);
    await run.waitFor('stderr', /\] built /, 60_000);
    const built = Date.now();
    const result = await run.done;
    expect(result.code).toBe(0);
    // A thread kept idle and referenced would hold it for the threads' idle time (5 s after its
    // job: 5.2 s after the line, when tried); the exit takes ≈0.3 s, more on a loaded machine.
    expect(Date.now() - built).toBeLessThan(3_500);
  });
});
