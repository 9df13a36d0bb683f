// A parse worker: claims chunks of the job list from the shared counter until none is left, then
// sends back everything it parsed. See parse-pool.ts.

import { parentPort } from 'node:worker_threads';
import { type ParsedFile, parseContentFile } from './parse-file.ts';
import { CHUNK, IDLE, type RunMessage, WORKING, type WorkerReply } from './parse-pool.ts';

const port = parentPort;
if (port === null) throw new Error('parse-worker.ts runs as a worker thread');

port.on('message', (m: RunMessage) => {
  const states = new Int32Array(m.states);
  // The main thread may have finished everything before this worker was ready.
  if (Atomics.compareExchange(states, m.slot, IDLE, WORKING) !== IDLE) {
    port.postMessage({ type: 'released' } satisfies WorkerReply);
    return;
  }
  const counter = new Int32Array(m.counter);
  const chunks: Array<{ from: number; files: ParsedFile[] }> = [];
  for (let from = Atomics.add(counter, 0, CHUNK); from < m.jobs.length; from = Atomics.add(counter, 0, CHUNK)) {
    const files: ParsedFile[] = [];
    for (let i = from; i < Math.min(m.jobs.length, from + CHUNK); i++) {
      files.push(parseContentFile(m.contentDir, m.jobs[i]!, m.defaultModified));
    }
    chunks.push({ from, files });
  }
  port.postMessage({ type: 'done', chunks } satisfies WorkerReply);
});
