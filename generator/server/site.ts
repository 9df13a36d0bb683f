// The built site the local server answers from: its index and its files, one generation at a
// time. A rebuild replaces the output (a new tree, or the output's symlink swapped to the other
// tree); the tree the output resolves to and its index file's identity tell when, and the server
// then loads the new index and reads files from that tree. Each read is of one open file: a
// request never sees a file half-written or one file's size with another's bytes. A record's
// detail is read by its range (its pack's table of contents, then its bytes: core/packs.ts
// readPacked), any other file whole, up to a bound (core/read-files.ts MAX_FILE_BYTES; the
// downloads, DOWNLOAD_BYTES); what is read is kept for the generation, within a budget that
// nothing larger than it empties.
//
// The output's tree and its index's identity are looked at (a realpath and a stat) once per turn
// of the event loop, not once per request: every request handled in a turn had been sent before
// the turn began, so an answer from what they found then is never older than the request. A swap
// made in this process (the watch mode's) says so (forget), and the requests after it in the same
// turn look again: they are answered from the new tree at once, not one request later. Each
// generation also keeps the answers given from it (server.ts): the same request gets the same
// bytes until the next swap.

import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadFile } from '../core/answer-types.ts';
import { type BoundedCache, boundedCache } from '../core/bounded-cache.ts';
import type { Site as DispatchedSite } from '../core/dispatch.ts';
import type { ApiError } from '../core/errors.ts';
import { DOWNLOAD_FILES, SITE_INDEX_FILE } from '../core/files.ts';
import type { ApiResponse } from '../core/handler.ts';
import { type OpenedFile, readingRecords, readPacked } from '../core/packs.ts';
import { MAX_FILE_BYTES } from '../core/read-files.ts';
import { fail, ok, type Result } from '../core/result.ts';
import { parseSiteIndex, type SiteIndex } from '../core/site-index.ts';

/** A generation: what the dispatch answers from, and the answers given from it. */
export interface Site extends DispatchedSite {
  /** Answers given from this generation, by request (server.ts answerKey). */
  answers: BoundedCache<ApiResponse>;
}

/** Bytes of files kept in memory per generation; past it, the cache starts over. */
const CACHE_BYTES = 64 * 1024 * 1024;
/** Bytes and number of answers kept per generation; past either, the cache starts over. */
const ANSWER_BYTES = 32 * 1024 * 1024;
const ANSWERS = 50_000;
/**
 * Bytes a download may have at most: the local server alone reads them through the handler (the
 * CDNs serve them as static files). The complete diary's database is 20 MB; Node reads no more
 * than 2 GiB into one buffer.
 */
const DOWNLOAD_BYTES = 1024 * 1024 * 1024;
const DOWNLOADS: ReadonlySet<string> = new Set(DOWNLOAD_FILES);

function identity(path: string): string | null {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return null;
  }
}

/**
 * The regular file at `path`, opened to read parts of it; null when there is none (or it is not a
 * regular file: a FIFO is opened without waiting for a writer, and refused).
 */
function openRegular(path: string): OpenedFile | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
    throw err;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      closeSync(fd);
      return null;
    }
    return {
      size: stat.size,
      read(from, length) {
        const bytes = Buffer.allocUnsafe(Math.max(0, Math.min(length, stat.size - from)));
        let done = 0;
        while (done < bytes.length) {
          const n = readSync(fd, bytes, done, bytes.length - done, from + done);
          if (n === 0) break;
          done += n;
        }
        return done === bytes.length ? bytes : bytes.subarray(0, done);
      },
      close: () => closeSync(fd),
    };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** A file whole, or null when there is none, or it has more than `maxBytes` (then not read). */
function readWhole(path: string, maxBytes: number): Uint8Array | null {
  const opened = openRegular(path);
  if (opened === null) return null;
  try {
    return opened.size > maxBytes ? null : opened.read(0, opened.size);
  } finally {
    opened.close();
  }
}

function generation(root: string, index: SiteIndex): Site {
  const files = boundedCache<Uint8Array>(CACHE_BYTES);
  const open = (file: string) => openRegular(join(root, file));
  const read: ReadFile = (file) => {
    const hit = files.get(file);
    if (hit !== undefined) return hit;
    const bytes = readWhole(join(root, file), DOWNLOADS.has(file) ? DOWNLOAD_BYTES : MAX_FILE_BYTES);
    if (bytes !== null) files.set(file, bytes, bytes.length);
    return bytes;
  };
  return {
    index,
    answers: boundedCache<ApiResponse>(ANSWER_BYTES, ANSWERS),
    // A record is kept by its pack and key (a newline is in neither): the same bytes again for the
    // same record, by which the core keeps its parsed forms.
    read: readingRecords(read, (pack, key) => {
      const name = `${pack}\n${key}`;
      const hit = files.get(name);
      if (hit !== undefined) return hit;
      const bytes = readPacked(open, pack, key, MAX_FILE_BYTES);
      if (bytes !== null) files.set(name, bytes, bytes.length);
      return bytes;
    }),
  };
}

/** The answer when there is no site index: the directory is not named (see siteLoader). */
const NO_SITE: ApiError = { status: 503, detail: `No built site: it has no ${SITE_INDEX_FILE}. Run npm run build.` };

const decoder = new TextDecoder();

/** The live generation of the site in `publicDir`, loaded again whenever a rebuild replaced it. */
export function siteLoader(publicDir: string): {
  current(): Result<Site, ApiError>;
  fresh(): Result<Site, ApiError>;
  forget(): void;
} {
  let loaded: { key: string; site: Result<Site, ApiError> } | null = null;
  /**
   * The last index parsed, by its bytes: a swap whose index has the same bytes (an edit of an
   * entry's text, say) gets a new generation over the same parsed index, not a parse again.
   */
  let parsed: { bytes: Uint8Array; index: SiteIndex } | null = null;
  /** What this turn of the event loop found (see the head of this file). */
  let thisTurn: Result<Site, ApiError> | null = null;
  /** The index's identity in the tree the output is now (null: none): what a generation is known by. */
  const keyOf = (root: string): string | null => {
    const id = identity(join(root, SITE_INDEX_FILE));
    return id === null ? null : `${root}\n${id}`;
  };
  const load = (): Result<Site, ApiError> => {
    // The tree the output is: a rebuild's or the watch mode's output is a symlink to one of two,
    // swapped to the other, where the index may be the very same file (hard-linked when unchanged,
    // output/link-tree.ts): the tree is part of the key.
    let root: string;
    try {
      root = realpathSync.native(publicDir);
    } catch {
      return fail(NO_SITE);
    }
    const key = keyOf(root);
    if (key === null) return fail(NO_SITE);
    if (loaded?.key === key) return loaded.site;
    let bytes: Uint8Array | null;
    try {
      const opened = openRegular(join(root, SITE_INDEX_FILE));
      if (opened === null) return fail(NO_SITE);
      try {
        bytes = opened.size > MAX_FILE_BYTES ? null : opened.read(0, opened.size);
      } finally {
        opened.close();
      }
    } catch {
      return fail(NO_SITE);
    }
    const index: Result<SiteIndex, string> =
      bytes === null
        ? fail(`it has more than ${MAX_FILE_BYTES} bytes`)
        : parsed !== null && Buffer.compare(parsed.bytes, bytes) === 0
          ? ok(parsed.index)
          : parseSiteIndex(decoder.decode(bytes));
    if (bytes !== null && index.ok) parsed = { bytes, index: index.value };
    // Named as a file of the output, never by the server's path to it (a snapshot's, a mirror's).
    const site: Result<Site, ApiError> = index.ok
      ? ok(generation(root, index.value))
      : fail({
          status: 503,
          detail: `The site index ${SITE_INDEX_FILE} is damaged (${index.error}): run npm run build again.`,
        });
    // The key of what was read: if the index was replaced between the stat and the read, the next
    // request sees a different key and loads again.
    loaded = { key: keyOf(root) ?? key, site };
    return site;
  };
  const remember = (site: Result<Site, ApiError>): Result<Site, ApiError> => {
    if (thisTurn === null) {
      setImmediate(() => {
        thisTurn = null;
      });
    }
    thisTurn = site;
    return site;
  };
  return {
    current: () => thisTurn ?? remember(load()),
    /** Looks again now, whatever this turn found (after a file its index lists was missing). */
    fresh: () => remember(load()),
    /**
     * Forgets what this turn found: the next request looks again. For a swap made in this process
     * (the watch mode's), after which the requests of the same turn are answered from the new tree.
     */
    forget: () => {
      thisTurn = null;
    },
  };
}
