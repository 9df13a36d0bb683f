// The thread that makes the downloads' SQLite database while the build's main thread renders the
// rest (downloads.ts, databaseInThread): about a second of SQLite's work (the inserts and their
// full-text indexing, the optimize, the VACUUM) that a second core does instead of the first.
// Its steps come in workerData; the database's bytes go back, moved rather than copied.

import { parentPort, workerData } from 'node:worker_threads';
import initSqlJs from 'sql.js';
import { makeDatabase } from './sqlite-steps.mjs';

const SQL = await initSqlJs();
const bytes = makeDatabase(SQL, workerData.steps);
// Moved when the array is its buffer whole (sql.js's export is a copy of its own), copied otherwise.
const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
parentPort.postMessage(bytes, whole ? [bytes.buffer] : []);
