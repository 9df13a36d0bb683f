// Brings a ContentState up to date after some files changed, re-reading only those files. The
// watch mode calls this with the paths its file-system events name; anything it cannot place
// (a directory, a renamed folder) makes it list the files again.

import { statSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import { SITE_FILE } from './config.ts';
import { CATEGORIES_FILE, type ContentState, ENTRY_GLOB, type LoadOptions, readCategories, readContent, TOPIC_GLOB } from './load.ts';
import { type FileKind, parseContentFile } from './parse-file.ts';
import { lowerBound } from '../core/ranges.ts';

export type ChangeKind = FileKind | 'categories' | 'site' | 'other';

/**
 * What a path (relative to the content directory, `/`-separated) is, by the same rules as the
 * globs: no part may start with a dot (fast-glob's default), entries end in .html, topics .yaml.
 */
export function classify(path: string): ChangeKind {
  if (path === SITE_FILE) return 'site';
  if (path === CATEGORIES_FILE) return 'categories';
  const parts = path.split('/');
  if (parts.some((p) => p.startsWith('.') || p === '')) return 'other';
  if (parts[0] === 'entries' && parts.length > 1 && path.endsWith('.html')) return 'entry';
  if (parts[0] === 'topics' && parts.length > 1 && path.endsWith('.yaml')) return 'topic';
  return 'other';
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** True when some known content file lies under `dir`. */
function holdsContent(state: ContentState, dir: string): boolean {
  const prefix = `${dir}/`;
  for (const file of state.parsed.keys()) if (file.startsWith(prefix)) return true;
  return false;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Inserts or removes `file` in a sorted list. */
function setMember(list: string[], file: string, present: boolean): void {
  const lo = lowerBound(list, file);
  const there = list[lo] === file;
  if (present && !there) list.splice(lo, 0, file);
  else if (!present && there) list.splice(lo, 1);
}

function refreshFile(state: ContentState, kind: FileKind, file: string): void {
  const list = kind === 'entry' ? state.entryFiles : state.topicFiles;
  if (isFile(join(state.contentDir, file))) {
    state.parsed.set(file, parseContentFile(state.contentDir, { kind, file }, state.config.lastModifiedTime));
    setMember(list, file, true);
  } else {
    state.parsed.delete(file);
    setMember(list, file, false);
  }
}

/** Lists the files again: new ones are parsed, vanished ones dropped, known ones kept as they are. */
async function rescan(state: ContentState): Promise<void> {
  const [entryFiles, topicFiles] = await Promise.all([
    fg(ENTRY_GLOB, { cwd: state.contentDir, onlyFiles: true }),
    fg(TOPIC_GLOB, { cwd: state.contentDir, onlyFiles: true }),
  ]);
  const listed = new Set([...entryFiles, ...topicFiles]);
  for (const file of state.parsed.keys()) if (!listed.has(file)) state.parsed.delete(file);
  for (const [kind, files] of [['entry', entryFiles], ['topic', topicFiles]] as const) {
    for (const file of files) {
      if (!state.parsed.has(file)) state.parsed.set(file, parseContentFile(state.contentDir, { kind, file }, state.config.lastModifiedTime));
    }
  }
  state.entryFiles = entryFiles.sort();
  state.topicFiles = topicFiles.sort();
}

/**
 * Updates `state` for the changed paths and returns the new state (the same object, unless the
 * site configuration changed: then everything is read again, since defaults come from it).
 */
export async function updateContent(state: ContentState, changed: Iterable<string>, options: LoadOptions = {}): Promise<ContentState> {
  let needRescan = false;
  for (const path of new Set(changed)) {
    const kind = classify(path);
    if (kind === 'site') return readContent(state.contentDir, options);
    if (kind === 'categories') state.categories = readCategories(state.contentDir);
    else if (kind === 'entry' || kind === 'topic') refreshFile(state, kind, path);
    // A directory created, or one removed or renamed that held content: list everything again.
    // (Anything else, such as an editor's temporary file, is not content.)
    else if (isDirectory(join(state.contentDir, path)) || holdsContent(state, path)) needRescan = true;
  }
  if (needRescan) await rescan(state);
  return state;
}
