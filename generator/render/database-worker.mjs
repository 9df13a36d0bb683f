// The thread that makes the downloads' SQLite database while the build's main thread renders the
// rest, or while the watch mode serves (downloads.ts, downloadFilesInThread): about a second of
// SQLite's work on the whole diary (the inserts and their full-text indexing, the optimize, the
// VACUUM) that a second core does instead of the first. The steps come as messages, one piece of
// rows at a time, so that this thread starts on the first while the main thread makes the next;
// each is answered with null once run, so that the main thread keeps only a few ahead; null ends
// them, and the database's bytes go back, moved rather than copied.

import { parentPort } from 'node:worker_threads';
import initSqlJs from 'sql.js';
import { databaseWriter } from './sqlite-steps.mjs';

const SQL = await initSqlJs();
const writer = databaseWriter(SQL);
// Messages sent before this listener was added wait for it, in order.
parentPort.on('message', (step) => {
  if (step !== null) {
    writer.step(step);
    // Done: the main thread sends the next (it keeps a few steps ahead, not all of them).
    parentPort.postMessage(null);
    return;
  }
  const bytes = writer.end();
  // Moved when the array is its buffer whole (sql.js's export is a copy of its own), copied otherwise.
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  parentPort.postMessage(bytes, whole ? [bytes.buffer] : []);
  parentPort.close();
});
