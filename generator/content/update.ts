// Brings a ContentState up to date after some files changed, re-reading only those files. The
// watch mode calls this with the paths its file-system events name; anything it cannot place
// (a directory, a renamed folder) makes it list the files again, and so does a full rescan (the
// watch mode's safety net against missed events): a listing compares what is on disk with what
// was read, file by file (read-file.ts signatureAt), and re-reads whatever differs.
//
// After any sequence of changes, once every path they touched has been passed here (or a full
// rescan has run), the state is what readContent would read from the same directory.

import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { lowerBound } from '../core/ranges.ts';
import { isDirectory } from '../paths.ts';
import { readSiteConfig, SITE_FILE } from './config.ts';
import { ENTRIES_DIR, ENTRY_SUFFIX, listContent, TOPIC_SUFFIX, TOPICS_DIR } from './discover.ts';
import type { LoadOptions } from './fingerprint.ts';
import { CATEGORIES_FILE, type ContentState, readCategories, readContent } from './load.ts';
import { type FileKind, type ParsedFile, parseContentFile } from './parse-file.ts';
import type { Problem } from './problems.ts';
import { signatureAt } from './read-file.ts';

type ChangeKind = FileKind | 'categories' | 'site' | 'other';

/**
 * What a path (relative to the content directory, `/`-separated) is, by the same rules as
 * discovery (discover.ts): no part may start with a dot, entries end in .html, topics .yaml.
 */
function classify(path: string): ChangeKind {
  if (path === SITE_FILE) return 'site';
  if (path === CATEGORIES_FILE) return 'categories';
  const parts = path.split('/');
  if (parts.some((p) => p.startsWith('.') || p === '')) return 'other';
  if (parts[0] === ENTRIES_DIR && parts.length > 1 && path.endsWith(ENTRY_SUFFIX)) return 'entry';
  if (parts[0] === TOPICS_DIR && parts.length > 1 && path.endsWith(TOPIC_SUFFIX)) return 'topic';
  return 'other';
}

export interface ContentUpdate {
  /** The state brought up to date: the same object, unless site.yaml changed (then read anew). */
  state: ContentState;
  /** False when nothing read differs from before (nothing to validate or render again). */
  changed: boolean;
}

/** True when some known content file, or a problem of discovery, lies at or under `dir`. */
function holdsContent(state: ContentState, dir: string): boolean {
  if (dir === '') return true;
  const prefix = `${dir}/`;
  // The files under `dir` come first from where the prefix would go in each sorted list: a search,
  // not a pass over every path (about 10 ms on the whole diary, at every edit).
  for (const list of [state.entryFiles, state.topicFiles]) {
    if (list[lowerBound(list, prefix)]?.startsWith(prefix) === true) return true;
  }
  return state.listProblems.some((p) => p.file === dir || p.file.startsWith(prefix));
}

/** Inserts or removes `file` in a sorted list. */
function setMember(list: string[], file: string, present: boolean): void {
  const lo = lowerBound(list, file);
  const there = list[lo] === file;
  if (present && !there) list.splice(lo, 0, file);
  else if (!present && there) list.splice(lo, 1);
}

function samePaths(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameProblems(a: readonly Problem[], b: readonly Problem[]): boolean {
  return (
    a.length === b.length &&
    a.every((p, i) => p.file === b[i]?.file && p.line === b[i]?.line && p.message === b[i]?.message)
  );
}

/** Records the parse of `file` (or its absence); returns false when it is what was known. */
function record(state: ContentState, kind: FileKind, file: string, parsed: ParsedFile): boolean {
  const list = kind === 'entry' ? state.entryFiles : state.topicFiles;
  const had = state.parsed.has(file);
  if (parsed.gone) {
    state.parsed.delete(file);
    setMember(list, file, false);
    return had;
  }
  state.parsed.set(file, parsed);
  setMember(list, file, true);
  return true;
}

/**
 * Re-reads one entry or topic file; with `ifChanged`, only when what is on disk is not what was
 * read (signatures of recently written files never match: see read-file.ts). Returns true when
 * anything was read again or dropped.
 */
function refreshFile(state: ContentState, kind: FileKind, file: string, ifChanged: boolean): boolean {
  const parsed = (): ParsedFile => parseContentFile(state.contentDir, { kind, file }, state.config);
  if (!ifChanged) return record(state, kind, file, parsed());
  const known = state.parsed.get(file);
  const now = signatureAt(join(state.contentDir, file));
  if (known === undefined ? now === null : known.signature === now) return false;
  const again = parsed();
  // A file read again only to be sure of it (one written just before it was read, whose
  // signature is never trusted) that parses as it did holds what was rendered: nothing changed,
  // and the rescan that follows every edit renders nothing. Its signature is now the trusted one.
  if (known !== undefined && !again.gone && sameParse(known, again)) {
    known.signature = again.signature;
    return false;
  }
  return record(state, kind, file, again);
}

function sameParse(a: ParsedFile, b: ParsedFile): boolean {
  return a.kind === b.kind && isDeepStrictEqual(a.parsed, b.parsed) && isDeepStrictEqual(a.problems, b.problems);
}

/** Files a rescan compares before it lets the event loop run (≈3 ms of system calls on this machine). */
const RESCAN_SLICE = 500;

/**
 * Lists the files again: new ones are read, vanished ones dropped, and known ones read again when
 * what is on disk is not what was read. Returns true when anything differs from before.
 */
async function rescan(state: ContentState): Promise<boolean> {
  const listing = listContent(state.contentDir);
  let changed = !sameProblems(listing.problems, state.listProblems);
  state.listProblems = listing.problems;
  const listed = new Set([...listing.entryFiles, ...listing.topicFiles]);
  let compared = 0;
  for (const file of [...state.parsed.keys()]) {
    if (!listed.has(file)) {
      state.parsed.delete(file);
      changed = true;
    }
  }
  for (const [kind, files] of [
    ['entry', listing.entryFiles],
    ['topic', listing.topicFiles],
  ] as const) {
    for (const file of files) {
      if (refreshFile(state, kind, file, true)) changed = true;
      // The watch mode's server answers between two slices (the whole diary's 13,416 files took
      // ≈0.1 s at once).
      if (++compared % RESCAN_SLICE === 0) await nextTurn();
    }
  }
  // Listed in order; those that vanished while being read are not.
  const entryFiles = listing.entryFiles.filter((f) => state.parsed.has(f));
  const topicFiles = listing.topicFiles.filter((f) => state.parsed.has(f));
  if (!samePaths(entryFiles, state.entryFiles) || !samePaths(topicFiles, state.topicFiles)) changed = true;
  state.entryFiles = entryFiles;
  state.topicFiles = topicFiles;
  return changed;
}

/**
 * Updates `state` for the changed paths (relative to the content directory); with `full`, also
 * lists and compares everything (site.yaml and categories.yaml included), whatever the paths.
 * Never throws for the content: every problem ends up in the state, for validate().
 */
export async function updateContent(
  state: ContentState,
  changedPaths: Iterable<string>,
  options: LoadOptions = {},
  full = false,
): Promise<ContentUpdate> {
  const paths = new Set(changedPaths);
  const { contentDir } = state;
  // Defaults of every file come from site.yaml: when it changed, everything is read again.
  // An event always reads again; a rescan when the file differs from what was read, and then,
  // when it says what it said (a file written just before it was read, whose signature is not
  // trusted), nothing changed (as for entries and topics, refreshFile).
  if (paths.has(SITE_FILE)) return { state: await readContent(contentDir, options), changed: true };
  if (full && signatureAt(join(contentDir, SITE_FILE)) !== state.siteSignature) {
    const site = readSiteConfig(contentDir, options.overrides ?? {}, options.env ?? {});
    if (!isDeepStrictEqual([site.config, site.problems], [state.config, state.siteProblems]))
      return { state: await readContent(contentDir, options), changed: true };
    state.siteSignature = site.signature;
  }
  let changed = false;
  let needRescan = full;
  if (paths.has(CATEGORIES_FILE)) {
    state.categories = readCategories(contentDir);
    changed = true;
  } else if (full && signatureAt(join(contentDir, CATEGORIES_FILE)) !== state.categories.signature) {
    const again = readCategories(contentDir);
    if (isDeepStrictEqual({ ...again, signature: null }, { ...state.categories, signature: null }))
      state.categories.signature = again.signature;
    else {
      state.categories = again;
      changed = true;
    }
  }
  for (const path of paths) {
    const kind = classify(path);
    if (kind === 'entry' || kind === 'topic') changed = refreshFile(state, kind, path, false) || changed;
    // A directory created, or one removed or renamed that held content (or a problem): list
    // everything again. Anything else, such as an editor's temporary file, is not content.
    if (kind !== 'site' && kind !== 'categories' && (isDirectory(join(contentDir, path)) || holdsContent(state, path)))
      needRescan = true;
  }
  if (needRescan) changed = (await rescan(state)) || changed;
  return { state, changed };
}
