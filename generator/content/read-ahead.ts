// Reading the content files on a second thread (read-worker.mjs) while this one parses them: a
// cold build of the whole diary opens and reads ~13,000 files, ≈0.2 s of system calls that a
// second core can make meanwhile (docs/performance.md). The outcome of each file is exactly what
// read-file.ts readContentFile gives: the thread reads only regular files of a size a content file
// may have, as readContentFile does, and this thread reads everything else itself (an error, a
// directory, a FIFO...), so that every problem is the one readContentFile reports.
//
// Files are taken in the order they were given; the thread sends them in batches through a
// message port that this thread reads synchronously (receiveMessageOnPort), waiting on a shared
// counter when the thread has not caught up. Until its first batch arrives (the thread takes a
// few tens of milliseconds to start), this thread reads files itself and says how far it got
// (CLAIMED), so that the other starts after them; a batch that overlaps them is skipped over.

import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { MAX_FILE_BYTES, outcomeOfRead, type ReadOutcome, readContentFile, type StatFacts } from './read-file.ts';

/** Fewer files than this are read on the calling thread: starting a thread costs more. */
export const READ_AHEAD_MIN_FILES = 1000;
const SENT = 0;
const TAKEN = 1;
const CLAIMED = 2;
/** No batch for this long: the thread has died (its 'exit' cannot be seen while this waits). */
const STALL_MS = 10_000;

type Item = { facts: StatFacts; readAt: number; offset: number; length: number } | null;
type Batch = { first: number; items: Item[]; buffer: ArrayBuffer };

export interface ReadAhead {
  /** The outcome of reading the next file of the list, which must be `file`. */
  next(file: string): ReadOutcome;
  close(): void;
}

/** Reads `files` (relative to `contentDir`) on a second thread, in this order. */
export function startReadAhead(contentDir: string, files: readonly string[]): ReadAhead {
  const control = new Int32Array(new SharedArrayBuffer(12));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('./read-worker.mjs', import.meta.url), {
    workerData: { dir: contentDir, files, maxBytes: MAX_FILE_BYTES, port: port2, control: control.buffer },
    transferList: [port2],
  });
  // A thread that fails leaves the rest of the files to this one (see next()).
  worker.on('error', () => {});
  /** The batch being used, its first file's index in `files`. */
  let batch: Batch = { first: 0, items: [], buffer: new ArrayBuffer(0) };
  let taken = 0;
  /** Index of the next file asked for. */
  let index = 0;
  /** Until the first batch arrives, files are read here. */
  let started = false;
  let alive = true;

  const take = (m: Batch): void => {
    batch = m;
    Atomics.store(control, TAKEN, ++taken);
    Atomics.notify(control, TAKEN);
  };
  /** Waits for the next batch; false when the thread has stopped sending. */
  const receive = (): boolean => {
    let waited = 0;
    for (;;) {
      const sent = Atomics.load(control, SENT);
      const m = receiveMessageOnPort(port1)?.message as Batch | undefined;
      if (m !== undefined) {
        take(m);
        return true;
      }
      // Sent but not yet arrived on the port: look again at once.
      if (sent > taken) continue;
      if (Atomics.wait(control, SENT, sent, 1000) !== 'timed-out') continue;
      waited += 1000;
      if (waited >= STALL_MS) return false;
    }
  };
  /** The item of the file at `i` from the thread, or null when this thread must read it. */
  const itemAt = (i: number): Item => {
    if (!started) {
      const m = receiveMessageOnPort(port1)?.message as Batch | undefined;
      if (m === undefined) {
        Atomics.store(control, CLAIMED, i + 1);
        return null;
      }
      take(m);
      started = true;
    }
    while (alive && i >= batch.first + batch.items.length) alive = receive();
    return alive ? (batch.items[i - batch.first] ?? null) : null;
  };

  return {
    next(file) {
      const i = index++;
      if (files[i] !== file) throw new Error(`read-ahead: ${file} asked out of order`);
      const item = itemAt(i);
      if (item === null) return readContentFile(contentDir, file);
      return outcomeOfRead(file, item.facts, item.readAt, new Uint8Array(batch.buffer, item.offset, item.length));
    },
    close() {
      port1.close();
      void worker.terminate();
    },
  };
}
