// What a build refuses to touch. A build replaces its output directory whole (writer.ts), so it
// must be sure that the directory is its own: every tree the writer makes holds a marker file,
// and an output that is not empty and has no marker is someone else's. Places whose loss would be
// a disaster (the content, `/`, the working directory, a home directory, or anything containing
// them) are refused before any of that, whatever they hold. Symlinks are resolved first (realpath
// of the nearest existing ancestor), so that another spelling of the same place is the same place.
//
// Every check is a few stats: nothing here walks a tree.

import { opendirSync, readdirSync, readlinkSync, realpathSync, type Stats, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fail, ok, type Result } from '../core/result.ts';
import { lstatOrNull } from '../paths.ts';

/** The file at the root of every tree the writer makes: its presence means "a build made this". */
export const MARKER_FILE = '.pepys-output';
export const MARKER_TEXT =
  'This directory was made by pepys-static-api (npm run build) and is replaced whole by every build.\n' +
  'Anything else put here is lost at the next build. This file lets the build recognise its own output.\n';

/** The name of a generation's tree beside the output (the watch mode's layout, generations.ts). */
const SLOT_NAME = /^\.(.+)-gen-[ab]$/;

/** A path the build (or the importer) will not touch; the command-line tools exit with status 2. */
export class RefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedError';
  }
}

/** The real path of `path`: its nearest existing ancestor resolved, the rest appended as given. */
function realLocation(path: string): string {
  const absolute = resolve(path);
  const rest: string[] = [];
  for (let p = absolute; ; p = dirname(p)) {
    try {
      return join(realpathSync(p), ...rest.reverse());
    } catch {
      if (dirname(p) === p) return absolute;
      rest.push(basename(p));
    }
  }
}

/** True when `inner` is `outer` or lies below it (both real, absolute paths). */
function isWithin(inner: string, outer: string): boolean {
  const r = relative(outer, inner);
  return r === '' || (!r.startsWith(`..${sep}`) && r !== '..' && !r.startsWith(sep) && !/^[A-Za-z]:/.test(r));
}

/** True when the directory has at least one entry (reads one entry, not the whole listing). */
function hasEntries(dir: string): boolean {
  const d = opendirSync(dir);
  try {
    return d.readSync() !== null;
  } finally {
    d.closeSync();
  }
}

/** Whether a directory was made by the writer: its marker is a regular file. */
export function hasMarker(dir: string): boolean {
  return lstatOrNull(join(dir, MARKER_FILE))?.isFile() === true;
}

/**
 * Refuses places whose replacement would be a disaster whatever they hold: `/`, the working
 * directory or one containing it, a home directory or one containing it. `label` names the path
 * in the message (e.g. `--out public`).
 */
export function checkNotPrecious(path: string, label: string): Result<string, string> {
  const real = realLocation(path);
  if (dirname(real) === real) return fail(`${label} is the root directory`);
  const cwd = realLocation(process.cwd());
  if (isWithin(cwd, real)) {
    return fail(
      `${label} is ${real === cwd ? 'the current directory' : `a directory that contains the current directory (${cwd})`}`,
    );
  }
  const home = realLocation(homedir());
  if (isWithin(home, real)) {
    return fail(
      `${label} is ${real === home ? 'your home directory' : `a directory that contains your home directory (${home})`}`,
    );
  }
  return ok(real);
}

/** Refuses two paths that overlap: one is the other or contains it. */
export function checkApart(path: string, label: string, other: string, otherLabel: string): Result<void, string> {
  const a = realLocation(path);
  const b = realLocation(other);
  if (a === b) return fail(`${label} is ${otherLabel} itself`);
  if (isWithin(b, a)) return fail(`${label} contains ${otherLabel} (${other})`);
  if (isWithin(a, b)) return fail(`${label} lies inside ${otherLabel} (${other})`);
  return ok(undefined);
}

/** A symlink the watch mode made: it points at `.<name>-gen-a` or `-gen-b` beside itself. */
function isGenerationLink(path: string): boolean {
  let target: string;
  try {
    target = readlinkSync(path);
  } catch {
    return false;
  }
  return SLOT_NAME.exec(target)?.[1] === basename(path);
}

/** What an output held at its top before builds wrote the marker (`_redirects`: older still). */
const UNMARKED_OUTPUT = new Set(['api', '_data', '_redirects', '_headers']);

/**
 * An output of a build from before the marker: the site index, and nothing at the top but what a
 * build wrote there. Recognised so that updating the generator does not make `public/` foreign.
 */
function isUnmarkedOutput(dir: string): boolean {
  if (lstatOrNull(join(dir, '_data', 'site-index.json'))?.isFile() !== true) return false;
  try {
    return readdirSync(dir).every((name) => UNMARKED_OUTPUT.has(name));
  } catch {
    return false;
  }
}

/**
 * Whether the output directory may be replaced: it does not exist, or it is an empty directory,
 * a tree with the marker, or the watch mode's symlink to one. A directory that is a mount point
 * cannot be replaced by a rename (writer.ts), so it is refused with what to do instead.
 */
export function checkOwnOutput(outDir: string, label = outDir): Result<void, string> {
  const s = lstatOrNull(outDir);
  if (s === null) return ok(undefined);
  if (s.isSymbolicLink()) {
    if (isGenerationLink(outDir)) return ok(undefined);
    let target = '?';
    try {
      target = readlinkSync(outDir);
    } catch {
      // Unreadable link: named as "?".
    }
    return fail(
      `${label} is a symbolic link (to ${target}) that this generator did not make; give the directory itself, or another --out`,
    );
  }
  if (!s.isDirectory())
    return fail(
      `${label} is ${s.isFile() ? 'a file' : 'not a directory'}; a build writes a directory there, so choose another --out`,
    );
  // The parent followed through a symlink: it is where the output really sits.
  let parent: Stats | null = null;
  try {
    parent = statSync(dirname(resolve(outDir)));
  } catch {
    // No parent to compare with.
  }
  if (parent !== null && parent.dev !== s.dev) {
    return fail(
      `${label} is a mount point, which a build cannot replace (it swaps its output with a rename); ` +
        `use a directory inside it, e.g. --out ${join(outDir, 'public')}`,
    );
  }
  if (hasMarker(outDir)) return ok(undefined);
  if (isUnmarkedOutput(outDir)) return ok(undefined);
  let nonEmpty: boolean;
  try {
    nonEmpty = hasEntries(outDir);
  } catch (err) {
    return fail(`${label} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  if (nonEmpty) {
    return fail(
      `${label} is a directory that this generator did not make (it is not empty and has no ${MARKER_FILE}); ` +
        `a build replaces its output whole, so choose another --out, or empty or remove it yourself`,
    );
  }
  return ok(undefined);
}

/** Everything a build checks about its output before it reads any content. */
export function checkOutDir(outDir: string, contentDir?: string, label = `--out ${outDir}`): Result<void, string> {
  const precious = checkNotPrecious(outDir, label);
  if (!precious.ok) return precious;
  if (contentDir !== undefined) {
    const apart = checkApart(outDir, label, contentDir, 'the content directory');
    if (!apart.ok) return apart;
  }
  return checkOwnOutput(outDir, label);
}

/** Names whose presence makes a directory a content directory (see docs/content-format.md). */
export const CONTENT_NAMES = ['entries', 'topics', 'categories.yaml', 'site.yaml'] as const;

/**
 * The content directory exists, is a directory, and holds some content: an entry or topic
 * directory that is not empty, `categories.yaml` or `site.yaml`. A typo in `--content` would
 * otherwise build an empty site over the previous one.
 */
export function checkContentDir(contentDir: string, label = `--content ${contentDir}`): Result<void, string> {
  let s: Stats;
  try {
    s = statSync(contentDir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return fail(`${label}: no such directory`);
    return fail(`${label} cannot be read (${code ?? String(err)})`);
  }
  if (!s.isDirectory()) return fail(`${label} is not a directory`);
  for (const name of CONTENT_NAMES) {
    const item = join(contentDir, name);
    let is: Stats;
    try {
      is = statSync(item);
    } catch {
      continue;
    }
    if (!is.isDirectory()) return ok(undefined);
    try {
      if (hasEntries(item)) return ok(undefined);
    } catch {
      // An unreadable entries/ or topics/ is content: the build reports it, naming the path.
      return ok(undefined);
    }
  }
  return fail(`${label} holds no content (no entries, no topics, no categories.yaml, no site.yaml)`);
}

/** Throws RefusedError with the reason unless `r` is ok. */
export function orRefuse<T>(r: Result<T, string>): T {
  if (!r.ok) throw new RefusedError(r.error);
  return r.value;
}
