// The thread that reads a build's content files ahead of the main thread (read-ahead.ts), so that
// opening and reading ~13,000 files overlaps parsing them. Plain JavaScript, so that it starts in
// a few milliseconds under any Node (Node 20 gives worker threads no module hooks).
//
// It reads the files in the order given, as read-file.ts readContentFile does (read-regular.mjs:
// only a regular file of at most maxBytes, no more than its size), and sends them in
// batches through `port`: for each file its stats, the time it was read and its bytes (one buffer
// per batch, transferred), or null for anything else (an error, not a regular file, too large),
// which the main thread then reads itself, to report exactly what readContentFile reports.
// `control`: [batches sent, batches taken, files the main thread read itself]; it waits while it
// is too far ahead, and starts each batch after the files the main thread has read itself (it
// reads the first few while this thread starts), sending the index of its first file.

import { join } from 'node:path';
import { workerData } from 'node:worker_threads';
import { readRegular } from './read-regular.mjs';

const SENT = 0;
const TAKEN = 1;
const CLAIMED = 2;
/** Batches sent and not yet taken, at most. */
const AHEAD = 8;
const BATCH_FILES = 64;
const BATCH_BYTES = 1024 * 1024;

const { dir, files, maxBytes, port } = workerData;
const control = new Int32Array(workerData.control);

/**
 * The file's facts and bytes, or null for the main thread to read.
 * @param {string} file
 */
function readOne(file) {
  const read = readRegular(join(dir, file), maxBytes);
  if (read.bytes === null || read.stats === null) return null;
  const s = read.stats;
  const facts = { dev: s.dev, ino: s.ino, mode: s.mode, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs };
  return { facts, readAt: read.readAt, bytes: read.bytes };
}

let sent = 0;
for (let i = 0; i < files.length; ) {
  while (sent - Atomics.load(control, TAKEN) >= AHEAD) Atomics.wait(control, TAKEN, sent - AHEAD);
  i = Math.max(i, Atomics.load(control, CLAIMED));
  if (i >= files.length) break;
  const first = i;
  const read = [];
  let size = 0;
  for (; i < files.length && read.length < BATCH_FILES && size < BATCH_BYTES; i++) {
    const r = readOne(files[i]);
    read.push(r);
    if (r !== null) size += r.bytes.length;
  }
  const buffer = new ArrayBuffer(size);
  const all = new Uint8Array(buffer);
  let offset = 0;
  const items = read.map((r) => {
    if (r === null) return null;
    all.set(r.bytes, offset);
    const item = { facts: r.facts, readAt: r.readAt, offset, length: r.bytes.length };
    offset += r.bytes.length;
    return item;
  });
  port.postMessage({ first, items, buffer }, [buffer]);
  sent++;
  Atomics.store(control, SENT, sent);
  Atomics.notify(control, SENT);
}
port.close();
