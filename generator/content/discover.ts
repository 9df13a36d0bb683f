// Finding the content files: every name under entries/ ending in .html and every name under
// topics/ ending in .yaml, at any depth, skipping names that start with a dot. Whatever such a
// name is (a file, a link to nothing, a directory, a FIFO), it is listed, so that reading it
// reports what is wrong with it; directories are also walked into, following symbolic links, and
// a link that leads back to a directory containing it is reported instead of followed (a walk
// never loops). Never throws.

import { type Dirent, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type KeptReads, keptReads } from './kept-reads.ts';
import { outsideLinksAllowed, outsideProblem, outsideTarget } from './links.ts';
import type { Problem } from './problems.ts';
import { describeError } from './read-file.ts';

export const ENTRIES_DIR = 'entries';
export const TOPICS_DIR = 'topics';
export const ENTRY_SUFFIX = '.html';
export const TOPIC_SUFFIX = '.yaml';
/** Directories nested deeper than this are not walked (a guard against link mazes). */
export const MAX_DIR_DEPTH = 32;

/**
 * A content directory as the build's check of whether there is anything to do read it
 * (fingerprint.ts buildFingerprint): its listing and the entry and topic files read whole, by path
 * in the directory (kept-reads.ts). The build then uses them rather than list and read again
 * (load.ts readContent, which takes each out as it uses it); its fingerprint is of what it used.
 */
export interface ContentRead {
  listing: Listing | null;
  files: KeptReads;
}

/** A ContentRead with nothing in it yet, for buildFingerprint to fill. */
export function emptyContentRead(): ContentRead {
  return { listing: null, files: keptReads() };
}

export interface Listing {
  /** Sorted, relative to the content directory, `/`-separated. */
  entryFiles: string[];
  topicFiles: string[];
  /** Directories that cannot be listed, link loops among directories, a missing content directory. */
  problems: Problem[];
}

/** `dev:ino` of a directory (following links), or null when the path is not one. */
export function directoryId(path: string): string | null {
  try {
    const s = statSync(path);
    return s.isDirectory() ? `${s.dev}:${s.ino}` : null;
  } catch {
    return null;
  }
}

function isGoneError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * The names in directory `rel` of `root`, or null when it cannot be listed (a problem then says
 * why, unless it simply vanished).
 */
export function readDirectory(root: string, rel: string, problems: Problem[] | null): Dirent[] | null {
  try {
    return readdirSync(rel === '' ? root : join(root, rel), { withFileTypes: true });
  } catch (err) {
    if (!isGoneError(err) && problems !== null) {
      problems.push({ file: rel, line: 0, message: `cannot list this directory: ${describeError(err)}` });
    }
    return null;
  }
}

function walk(
  root: string,
  rel: string,
  suffix: string,
  ancestors: readonly string[],
  out: string[],
  problems: Problem[],
): void {
  const names = readDirectory(root, rel, problems);
  if (names === null) return;
  for (const d of names) {
    if (d.name.startsWith('.')) continue;
    const path = `${rel}/${d.name}`;
    if (d.isSymbolicLink() && !outsideLinksAllowed()) {
      const target = outsideTarget(root, path);
      if (target !== null) {
        problems.push(outsideProblem(path, target));
        continue;
      }
    }
    const named = d.name.endsWith(suffix);
    // Listed whatever it is: reading it says what is wrong when it is not a readable file.
    if (named) out.push(path);
    if (!d.isDirectory() && !d.isSymbolicLink()) continue;
    const id = directoryId(join(root, path));
    if (id === null) continue;
    if (ancestors.includes(id)) {
      problems.push({
        file: path,
        line: 0,
        message: 'symbolic link loop: this link leads back to a directory that contains it (not followed)',
      });
      continue;
    }
    if (ancestors.length > MAX_DIR_DEPTH) {
      problems.push({
        file: path,
        line: 0,
        message: `directories nested more than ${MAX_DIR_DEPTH} deep (not followed)`,
      });
      continue;
    }
    walk(root, path, suffix, [...ancestors, id], out, problems);
  }
}

/** Lists every entry and topic file of a content directory, and what kept any from being listed. */
export function listContent(contentDir: string): Listing {
  const entryFiles: string[] = [];
  const topicFiles: string[] = [];
  const problems: Problem[] = [];
  const rootId = directoryId(contentDir);
  if (rootId === null) {
    let reason = 'no such directory';
    try {
      statSync(contentDir);
      reason = 'not a directory';
    } catch (err) {
      if (!isGoneError(err)) reason = describeError(err);
    }
    problems.push({ file: '', line: 0, message: `the content directory cannot be read: ${reason}` });
    return { entryFiles, topicFiles, problems };
  }
  for (const [dir, suffix, out] of [
    [ENTRIES_DIR, ENTRY_SUFFIX, entryFiles],
    [TOPICS_DIR, TOPIC_SUFFIX, topicFiles],
  ] as const) {
    const path = join(contentDir, dir);
    const id = directoryId(path);
    const outside = id === null || outsideLinksAllowed() ? null : outsideTarget(contentDir, dir);
    if (outside !== null) problems.push(outsideProblem(dir, outside));
    else if (id !== null) walk(contentDir, dir, suffix, [rootId, id], out, problems);
    else {
      // Absent is fine (a site without topics); anything else in its place is a mistake.
      let message: string | null = null;
      try {
        message = `must be a directory, but is ${statSync(path).isFile() ? 'a file' : 'something else'}`;
      } catch (err) {
        if (!isGoneError(err)) message = `cannot be read: ${describeError(err)}`;
        else {
          try {
            if (readdirSync(contentDir).includes(dir)) message = 'must be a directory, but is a link to nothing';
          } catch {
            // The content directory itself vanished: nothing to list.
          }
        }
      }
      if (message !== null) problems.push({ file: dir, line: 0, message });
    }
  }
  // Sorted, so that problems and duplicates are reported the same way on every machine.
  entryFiles.sort();
  topicFiles.sort();
  return { entryFiles, topicFiles, problems };
}
