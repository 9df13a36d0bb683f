// Writing one file of a tree that others may be reading: never in place (a reader, or a hard-link
// snapshot of the tree, would see it change), always a new file renamed over the old one.

import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OutputFile } from './file.ts';

/** Bytes gathered before a write when a body comes in pieces (a basis's pieces are its lines). */
const BATCH_BYTES = 1 << 20;

/** `create()` of a file at `path`, tried again once its directory is made if that is missing. */
function inItsDirectory<T>(path: string, create: () => T): T {
  try {
    return create();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dirname(path), { recursive: true });
    return create();
  }
}

/** Creates `temp` (its directory too, when missing) and writes `body` into it. */
function writeTemp(temp: string, body: OutputFile['body'] | Iterable<Uint8Array>): void {
  if (typeof body === 'string' || body instanceof Uint8Array) {
    inItsDirectory(temp, () => writeFileSync(temp, body));
    return;
  }
  // Opened before a piece is asked for: pieces made once are never lost to a retry.
  const fd = inItsDirectory(temp, () => openSync(temp, 'w'));
  try {
    const writes = batchedWrites(fd);
    for (const piece of body) writes.add(piece);
    writes.end();
  } finally {
    closeSync(fd);
  }
}

/**
 * Pieces written to `fd` in batches of about a megabyte: `add` says whether it wrote one (each is
 * given to `written` first), `end` writes what is held. Few writes for a body of many small lines.
 */
export function batchedWrites(
  fd: number,
  written: (bytes: Uint8Array) => void = () => {},
): { add(piece: Uint8Array): boolean; end(): void } {
  const batch = Buffer.allocUnsafe(BATCH_BYTES);
  let held = 0;
  const flush = (bytes: Uint8Array) => {
    written(bytes);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  };
  return {
    add(piece) {
      let wrote = false;
      if (held + piece.length > BATCH_BYTES) {
        flush(batch.subarray(0, held));
        held = 0;
        wrote = true;
      }
      if (piece.length > BATCH_BYTES) {
        flush(piece);
        return true;
      }
      batch.set(piece, held);
      held += piece.length;
      return wrote;
    },
    end() {
      flush(batch.subarray(0, held));
      held = 0;
    },
  };
}

/**
 * Writes one file so that no reader ever opens it half-written: a temporary file, then rename.
 * On a failure the temporary file is removed: the tree holds the old file or the new one. A body
 * in pieces is written as they come, never held whole.
 */
export function replaceFile(dir: string, path: string, body: OutputFile['body'] | Iterable<Uint8Array>): void {
  const target = join(dir, path);
  const temp = `${target}.${process.pid}.tmp`;
  try {
    writeTemp(temp, body);
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    // Named by the file it was to become, not by its temporary name.
    const e = err as NodeJS.ErrnoException & { dest?: string };
    if (e !== null && typeof e === 'object' && typeof e.code === 'string') {
      e.path = target;
      delete e.dest;
    }
    throw err;
  }
}
