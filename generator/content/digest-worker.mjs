// The thread that hashes a big content directory's files for the check of whether a build has
// anything to do (fingerprint.ts contentFingerprint), so that the calling thread is free
// meanwhile. It answers with each file's digest, in the order given (file-digest.mjs fileDigest),
// and before that, as soon as it finds one, 'newer': a file modified after `since` (the last
// build's record), a hint that there will be a build to load (cli/build-command.ts loads it then,
// while this thread reads on). The hint decides nothing: the digests do.

import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { fileDigest } from './file-digest.mjs';

/** @type {{ root: string, files: string[], maxBytes: number, since: number | null }} */
const { root, files, maxBytes, since } = workerData;
const port = parentPort;
if (port === null) throw new Error('digest-worker.mjs runs as a worker thread');
if (since !== null) {
  for (const file of files) {
    if ((statSync(root + file, { throwIfNoEntry: false })?.mtimeMs ?? 0) > since) {
      port.postMessage('newer');
      break;
    }
  }
}
port.postMessage(files.map((file) => fileDigest(root + file, maxBytes)));
