// The thread that makes the downloads' files while the build's main thread renders the rest, or
// while the watch mode serves (downloads.ts, downloadFilesInThread): the SQLite database, about a
// second of SQLite's work on the whole diary (the inserts and their full-text indexing, the
// optimize, the VACUUM) that a second core does instead of the first, and the gzip of each
// collection's NDJSON. The gzip is run from here, not from the main thread: each piece deflate
// takes on libuv's pool comes back to the thread that wrote it before the next, and the main
// thread, rendering the search index in one go (≈0.6 s on the whole diary), held back the pieces
// and, through them, the database's next rows.
//
// Messages, run in order: `{ begin: { streams, backlog, room, stop, keep, last } }`, a new job (a new
// database, and `streams` gzip streams), answered (with `keep` only) with `{ from }`, the hashes of
// the runs of the database it may copy from (null: none); a step of the database; `{ stream, bytes }`, NDJSON for a
// gzip stream; null, the job's end. Each but `begin` is answered with null once done with (a piece
// of NDJSON: once its stream's backlog is small), so that the main thread keeps only a few ahead;
// at the end, the database's bytes and each stream's gzip, moved rather than copied. The thread
// then waits for the next job (kept-threads.ts): sql.js is set up once a thread, and each job's
// database and streams are new, so that a job's bytes are those a new thread would make. A failure
// ends the thread.
//
// A job is stopped (the watch mode's next edit) by `{ stopped: true }`, after the main thread has
// set the job's `stop` flag (shared memory): the messages queued before it are the job's, and
// the flag lets the thread drop them at once rather than run them first. It is answered with
// `{ stopped: true }` once the job is dropped, and the thread waits for the next: stopping a job
// costs the step under way, not a new thread and sql.js set up again (about 0.25 s of CPU).
//
// `{ spare: room }`, sent while the thread waits for a job the watch mode will want soon, makes
// the next job's empty database ahead: giving its file that room is about 0.3 s of fresh memory on
// the whole diary, otherwise the first thing the next edit's downloads wait for. A job whose room
// is no more than the spare's (nor less than half) takes it; the room changes no byte of the
// database (sqlite-steps.mjs roomyDatabase).
//
// A job with `keep` (the watch mode's) hashes its runs of steps (sqlite-steps.mjs, `reuse`) and
// leaves its database open once made, until the next job's end: that one copies from it the runs
// it is told to copy (`{ copy }`, in place of a run whose steps hash the same: run-copies.ts, on
// the main thread, which the job's first answer tells the kept runs' hashes). A stopped job's
// database is dropped; the one kept stays. A job without `keep` closes it. A job given `last` (a
// rebuild: the last build's database, read back) copies from that one the tables it is told to,
// and closes it at its end.

import { parentPort, workerData } from 'node:worker_threads';
import { createGzip } from 'node:zlib';
import initSqlJs from 'sql.js';
import { databaseWriter, openedDatabase } from './sqlite-steps.mjs';

/** @typedef {{ streams: number, backlog: number, room: number, stop: SharedArrayBuffer, keep: boolean, last?: Uint8Array }} Job */
/** @typedef {import('./sqlite-steps.d.mts').DatabaseStep | { stream: number, bytes: Uint8Array } | { begin: Job } | { spare: number } | { stopped: true } | null} Message */

/** @type {{ gzip: import('node:zlib').ZlibOptions }} */
const { gzip } = workerData;
/** The main thread's port (this module runs only as a worker thread). */
const port = (() => {
  if (parentPort === null) throw new Error('database-worker.mjs runs as a worker thread');
  return parentPort;
})();

/**
 * A gzip stream whose output is kept; deflate gives the same bytes however its input is cut.
 * Big output chunks: each is a round trip between the pool and this thread.
 */
function gzipStream() {
  const zip = createGzip({ ...gzip, chunkSize: 1 << 20 });
  /** @type {Buffer[]} */
  const out = [];
  /** @type {Promise<Buffer>} */
  const done = new Promise((resolve, reject) => {
    zip.on('data', (chunk) => out.push(chunk));
    zip.once('end', () => resolve(Buffer.concat(out)));
    zip.once('error', reject);
  });
  return { zip, done };
}

const SQL = await initSqlJs();

/** @type {{ room: number, writer: ReturnType<typeof databaseWriter> } | undefined} */
let spare;
/** The last database made by a job with `keep`, open. @type {import('./sqlite-steps.d.mts').KeptDatabase | undefined} */
let kept;

/**
 * A job's database and gzip streams, new; the database the spare, if it fits.
 * @param {Job} job
 */
function begin({ streams, backlog, room, stop, keep, last }) {
  const fits = spare !== undefined && spare.room >= room && spare.room <= 2 * room;
  if (!fits) spare?.writer.abandon();
  const writer = fits && spare !== undefined ? spare.writer : databaseWriter(SQL, room);
  spare = undefined;
  if (keep) writer.reuse(kept);
  else {
    kept?.close();
    kept = undefined;
  }
  const opened = last === undefined ? undefined : openedDatabase(SQL, last);
  if (opened !== undefined) writer.copyFrom(opened);
  // What a job with `keep` may copy from, before its steps (run-copies.ts decides which runs).
  if (keep) port.postMessage({ from: kept === undefined ? null : [...kept.runs] });
  const zips = Array.from({ length: streams }, gzipStream);
  return { writer, zips, backlog, spared: fits, keep, opened, stop: new Int32Array(stop) };
}

/**
 * Drops a stopped job: its database closed, its streams destroyed (their output never read).
 * @param {ReturnType<typeof begin>} stopped
 */
function drop({ writer, zips, opened }) {
  writer.abandon();
  opened?.close();
  for (const { zip, done } of zips) {
    done.catch(() => {});
    zip.destroy();
  }
}

/** @type {ReturnType<typeof begin> | undefined} */
let job;
/** Whether the messages are those of a stopped job, until its `{ stopped }`: dropped unread. */
let dropping = false;
/** @type {Message[]} */
const queue = [];
let waiting = false;

/**
 * Whole buffers are moved to the main thread; a view of a bigger buffer is copied.
 * @param {Uint8Array} bytes @returns {ArrayBuffer[]}
 */
const movable = (bytes) =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? [/** @type {ArrayBuffer} */ (bytes.buffer)]
    : [];

/** @param {ReturnType<typeof begin>} ending */
async function end({ writer, zips, spared, keep, opened }) {
  const copied = [...writer.copied];
  let database;
  if (keep) {
    const made = writer.endKept();
    kept?.close();
    kept = made.kept;
    database = made.bytes;
  } else database = writer.end();
  opened?.close();
  for (const { zip } of zips) zip.end();
  const gzipped = await Promise.all(zips.map((z) => z.done));
  port.postMessage({ database, gzipped, spared, copied }, [database, ...gzipped].flatMap(movable));
}

/** Runs the messages in order; a piece of NDJSON its stream cannot take yet waits for the stream. */
function pump() {
  while (!waiting && queue.length > 0) {
    // Stopped: the job is dropped now, whatever of it is still queued.
    if (job !== undefined && Atomics.load(job.stop, 0) === 1) {
      drop(job);
      job = undefined;
      dropping = true;
    }
    const message = /** @type {Message} */ (queue.shift());
    if (message !== null && 'stopped' in message) {
      // Also when the job ended before the flag was seen: its answer came first.
      dropping = false;
      port.postMessage({ stopped: true });
      continue;
    }
    if (dropping) continue;
    if (message !== null && 'begin' in message) {
      job = begin(message.begin);
      continue;
    }
    if (message !== null && 'spare' in message) {
      spare?.writer.abandon();
      spare = { room: message.spare, writer: databaseWriter(SQL, message.spare) };
      continue;
    }
    if (job === undefined) throw new Error('a message to the database thread before its job began');
    if (message === null) {
      // A failure here (of SQLite or of deflate) ends the thread with it: the main thread's error.
      // The next job's messages wait until this one's answer is sent.
      waiting = true;
      void end(job).then(() => {
        job = undefined;
        waiting = false;
        pump();
      });
      return;
    }
    if ('sql' in message || 'reusable' in message || 'copy' in message) {
      job.writer.step(message);
      port.postMessage(null);
      continue;
    }
    const { zip } = job.zips[message.stream] ?? {};
    if (zip === undefined) throw new Error(`no gzip stream ${message.stream}`);
    if (zip.write(message.bytes) || zip.writableLength <= job.backlog) {
      port.postMessage(null);
      continue;
    }
    waiting = true;
    zip.once('drain', () => {
      waiting = false;
      port.postMessage(null);
      pump();
    });
  }
}

// Messages sent before this listener was added wait for it, in order.
port.on('message', (message) => {
  queue.push(message);
  pump();
});
