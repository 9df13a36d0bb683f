// Writing one file of a tree that others may be reading: never in place (a reader, or a hard-link
// snapshot of the tree, would see it change), always a new file renamed over the old one.

import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OutputFile, WrittenAhead } from './file.ts';

/** Bytes gathered before a write when a body comes in pieces (a basis's pieces are its lines). */
const BATCH_BYTES = 1 << 20;

/** `create()` of a file at `path`, tried again once its directory is made if that is missing. */
export function inItsDirectory<T>(path: string, create: () => T): T {
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
function batchedWrites(
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
  placeFile(join(dir, path), (temp) => writeTemp(temp, body));
}

/**
 * As replaceFile, through `spare`, an empty file of the caller's on the same file system
 * (spare-files.ts): written and renamed over `target`, not created now. Should that fail (the spare
 * gone, another file system), the spare is removed and the file written as replaceFile writes it,
 * whose error, if it fails too, names `target`.
 */
export function replaceFileWith(spare: string, dir: string, path: string, body: OutputFile['body']): void {
  const target = join(dir, path);
  try {
    // 'r+': into the spare as it is (empty); never a new file where the spare was removed.
    writeFileSync(spare, body, { flag: 'r+' });
    inItsDirectory(target, () => renameSync(spare, target));
    return;
  } catch {
    rmSync(spare, { force: true });
  }
  replaceFile(dir, path, body);
}

/**
 * Puts at `target` the file that `make` creates at a temporary path beside it (a write, a hard
 * link), by one rename; on a failure the temporary file is removed and the error names `target`.
 */
export function placeFile(target: string, make: (temp: string) => void): void {
  const temp = `${target}.${process.pid}.tmp`;
  try {
    make(temp);
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

/**
 * Writes `pieces` ahead into `name` in directory `dir` (made if missing; on the file system of the
 * tree it is to be renamed into), hashing them as it goes, a batch at a time: between two, `go()`
 * may let the event loop turn (the watch mode's server answers meanwhile: the whole diary's basis
 * is 16.9 MB, its database 20.9 MB) and says whether the file is still wanted. Null, and no file
 * left, when it is not.
 */
export async function writeAhead(
  dir: string,
  name: string,
  pieces: Iterable<Uint8Array>,
  go: () => Promise<boolean>,
): Promise<WrittenAhead | null> {
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, name);
  const hash = createHash('sha256');
  const fd = openSync(temp, 'w');
  let wanted = true;
  try {
    const writes = batchedWrites(fd, (batch) => hash.update(batch));
    for (const piece of pieces) {
      if (writes.add(piece) && !(await go())) {
        wanted = false;
        break;
      }
    }
    if (wanted) writes.end();
  } catch (err) {
    wanted = false;
    throw err;
  } finally {
    closeSync(fd);
    if (!wanted) rmSync(temp, { force: true });
  }
  return wanted ? { temp, hash: hash.digest('hex') } : null;
}
