// Reading a file only when it is a regular file, and never more of it than the size it had when
// opened: the one rule of every reader of content (read-file.ts readContentFile, the reading
// thread read-worker.mjs, the fingerprint's check fingerprint.ts) and of the build's own records
// in an output (output/manifest.ts, output/lock.ts, output/rebuild.ts). A FIFO, socket or device
// is never opened for reading: opening a FIFO waits for a writer, reading a device (/dev/zero)
// never ends. Plain JavaScript, so that the reading thread (which has no TypeScript) shares it.
//
// The type is checked before opening (stat, following links as content may), then again on what
// was opened (fstat), since the path may have been replaced in between: opened non-blocking, a
// FIFO swapped in is refused without waiting, and O_NOCTTY keeps a terminal swapped in from
// becoming this process's.

import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * True when `stats` are of a regular file of at most `maxBytes`.
 * @param {import('node:fs').Stats} stats @param {number} maxBytes
 */
function readable(stats, maxBytes) {
  return stats.isFile() && stats.size <= maxBytes;
}

/**
 * The bytes of the regular file at `path`, at most `maxBytes` (see above). Never throws: the
 * outcome says what stopped it.
 *
 * @param {string} path
 * @param {number} maxBytes
 */
export function readRegular(path, maxBytes) {
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    return { bytes: null, stats: null, error };
  }
  if (!readable(stats, maxBytes)) return { bytes: null, stats, error: null };
  let fd;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    return { bytes: null, stats: null, error };
  }
  try {
    stats = fstatSync(fd);
    const readAt = Date.now();
    if (!readable(stats, maxBytes)) return { bytes: null, stats, error: null };
    // As many bytes as fstat said, not up to an end of file: a file that grows meanwhile is
    // read as it was opened (the next reading sees the rest).
    const bytes = Buffer.allocUnsafeSlow(stats.size);
    let at = 0;
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return { bytes: at === bytes.length ? bytes : bytes.subarray(0, at), stats, readAt };
  } catch (error) {
    return { bytes: null, stats: null, error };
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Only read: nothing was lost.
    }
  }
}
