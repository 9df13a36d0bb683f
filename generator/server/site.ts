// The built site the local server answers from: its index and its files, one generation at a
// time. A rebuild replaces the output (a new tree, or the watch mode's symlink swapped to the
// other tree); the index file's identity tells when, and the server then loads the new index and
// reads files from the tree that index belongs to. Files are read whole, each with one open, and
// kept in memory for the generation: a request never sees a file half-written or one file's size
// with another's bytes.
//
// The index file's identity is looked at (one stat) once per turn of the event loop, not once per
// request: every request handled in a turn had been sent before the turn began, so an answer from
// what the stat found then is never older than the request. Each generation also keeps the
// answers given from it (server.ts): the same request gets the same bytes until the next swap.

import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type BoundedCache, boundedCache } from '../core/bounded-cache.ts';
import type { ApiError } from '../core/errors.ts';
import { SITE_INDEX_FILE } from '../core/files.ts';
import type { ApiResponse, ReadFile } from '../core/handler.ts';
import { fail, ok, type Result } from '../core/result.ts';
import { parseSiteIndex, type SiteIndex } from '../core/site-index.ts';

export interface Site {
  index: SiteIndex;
  read: ReadFile;
  /** Answers given from this generation, by request (server.ts answerKey). */
  answers: BoundedCache<ApiResponse>;
}

/** Bytes of files kept in memory per generation; past it, the cache starts over. */
const CACHE_BYTES = 64 * 1024 * 1024;
/** Bytes and number of answers kept per generation; past either, the cache starts over. */
const ANSWER_BYTES = 32 * 1024 * 1024;
const ANSWERS = 50_000;

function identity(path: string): string | null {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return null;
  }
}

/** Reads a file whole, or null when there is none (or it is not a file). */
function readWhole(path: string): Uint8Array | null {
  try {
    return readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
    throw err;
  }
}

function generation(root: string, index: SiteIndex): Site {
  const files = boundedCache<Uint8Array>(CACHE_BYTES);
  return {
    index,
    answers: boundedCache<ApiResponse>(ANSWER_BYTES, ANSWERS),
    read: (file) => {
      const hit = files.get(file);
      if (hit !== undefined) return hit;
      const bytes = readWhole(join(root, file));
      if (bytes === null) return null;
      files.set(file, bytes, bytes.length);
      return bytes;
    },
  };
}

/** The live generation of the site in `publicDir`, loaded again whenever a rebuild replaced it. */
export function siteLoader(publicDir: string): { current(): Result<Site, ApiError>; fresh(): Result<Site, ApiError> } {
  const indexPath = join(publicDir, SITE_INDEX_FILE);
  let loaded: { key: string; site: Result<Site, ApiError> } | null = null;
  /** What this turn of the event loop found (see the head of this file). */
  let thisTurn: Result<Site, ApiError> | null = null;
  const load = (): Result<Site, ApiError> => {
    const key = identity(indexPath);
    if (key === null) return fail({ status: 503, detail: `No built site in ${publicDir}: run npm run build.` });
    if (loaded?.key === key) return loaded.site;
    // The tree this index belongs to: the watch mode's output is a symlink to one of two.
    let root: string;
    let text: string;
    try {
      root = realpathSync(publicDir);
      text = readFileSync(join(root, SITE_INDEX_FILE), 'utf8');
    } catch {
      return fail({ status: 503, detail: `No built site in ${publicDir}: run npm run build.` });
    }
    const index = parseSiteIndex(text);
    const site: Result<Site, ApiError> = index.ok
      ? ok(generation(root, index.value))
      : fail({
          status: 503,
          detail: `The site index ${indexPath} is damaged (${index.error}): run npm run build again.`,
        });
    // The key of what was read: if the output was swapped between the stat and the read, the
    // next request sees a different key and loads again.
    loaded = { key: identity(join(root, SITE_INDEX_FILE)) ?? key, site };
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
  };
}
