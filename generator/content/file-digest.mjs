// What one file gives a build's fingerprint (fingerprint.ts): the SHA-256 of its bytes, or why
// there are none. Plain JavaScript, so that the thread that hashes a big content directory
// (digest-worker.mjs, which has no TypeScript) computes exactly what the calling thread does.

import * as nodeCrypto from 'node:crypto';
import { lstatSync } from 'node:fs';
import { readRegular } from './read-regular.mjs';

/**
 * The SHA-256 of some bytes, base64url: one call where Node has crypto.hash (20.12 and later), a
 * Hash object else (a hundred thousand files: ≈30 ms against ≈100 ms).
 * @type {(bytes: Uint8Array) => string}
 */
const sha256 =
  typeof nodeCrypto.hash === 'function'
    ? (bytes) => nodeCrypto.hash('sha256', bytes, 'base64url')
    : (bytes) => nodeCrypto.createHash('sha256').update(bytes).digest('base64url');

/**
 * A file read now, as the build reads content (read-regular.mjs: a FIFO or a device in its place
 * is a failure, never waited on nor read): its bytes, or the failure that stopped it, or neither
 * when it is absent.
 * @param {string} path @param {number} maxBytes
 * @returns {{ bytes: Uint8Array | null, failure?: string }}
 */
export function readInput(path, maxBytes) {
  const read = readRegular(path, maxBytes);
  if (read.bytes !== null) return { bytes: read.bytes };
  if (read.stats !== null) return { bytes: null, failure: read.stats.isFile() ? 'too large' : 'not a regular file' };
  const code = read.error?.code ?? String(read.error);
  if (code !== 'ENOENT') return { bytes: null, failure: `unreadable ${code}` };
  // A link to nothing is not a file gone: the build refuses it (read-file.ts), so it must change
  // the fingerprint, or a build over the last output would find nothing to do.
  let link = false;
  try {
    link = lstatSync(path).isSymbolicLink();
  } catch {}
  return link ? { bytes: null, failure: 'dangling symbolic link' } : { bytes: null };
}

/**
 * What an input gives the fingerprint: its bytes' SHA-256, or `!` and its failure (`!absent`
 * for a file that is not there).
 * @param {{ bytes: Uint8Array | null, failure?: string }} input
 */
export function inputDigest(input) {
  return input.bytes !== null ? sha256(input.bytes) : `!${input.failure ?? 'absent'}`;
}

/**
 * The digest of the file at `path` (inputDigest), or null when it is absent without a failure:
 * a record's file gone since it was listed, which the build reads as if it had not been listed.
 * @param {string} path @param {number} maxBytes @returns {string | null}
 */
export function fileDigest(path, maxBytes) {
  const input = readInput(path, maxBytes);
  return input.bytes === null && input.failure === undefined ? null : inputDigest(input);
}
