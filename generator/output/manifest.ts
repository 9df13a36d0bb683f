// What a tree of the writer's holds, written into the tree itself as its last file: every file's
// path, the SHA-256 of its bytes and the facts of the file on disk (size, inode, modification
// time), plus what the tree was built from (`inputs`, see content/fingerprint.ts) and what changed
// from the tree that was live before it. A rebuild trusts a manifest only after checking it
// against the disk (checkTree): the same set of files, each with the size, inode and modification
// time it had when written; any file added, removed or written since makes the tree untrusted,
// and the rebuild then starts from another tree or writes a full one (rebuild.ts). (The change
// time would catch even a modification time set back on purpose, but the generations share files
// by hard links, and replacing a file in one moves the change time of the other's.)
//
// A tree that is being changed has no manifest: it is removed before the first write and
// written again after the last, so a rebuild killed in between leaves a tree that is not trusted.

import { createHash, type Hash } from 'node:crypto';
import { type Dirent, lstatSync, readdirSync, renameSync, rmSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { Sources } from '../content/fingerprint.ts';
import { readRegular } from '../content/read-regular.mjs';
import type { RecordBytes, WrittenAhead } from './file.ts';
import { replaceFile } from './replace-file.ts';

export const MANIFEST_FILE = '.pepys-manifest.json';
/**
 * What the tree was made of, file by file (a hash of each content file): the build's own record,
 * like the manifest not one of the files it serves, read only by a rebuild (readSources).
 */
export const SOURCES_FILE = '.pepys-sources.json';
/**
 * What a rebuild reuses of the build that made the tree (render/basis.ts: its records and its
 * search index), written by that build beside its manifest, which records its hash; like the
 * manifest not one of the files it serves, read only by a rebuild (readBasis).
 */
export const BASIS_FILE = '.pepys-basis.ndjson';
/**
 * What Cloudflare's wrangler leaves out of a deploy of the tree (its `.assetsignore`, never itself
 * uploaded): the basis, of no use to a reader and, for a large site, past the 25 MiB a static
 * asset may have. Netlify deploys no file whose name starts with a dot.
 */
export const ASSETS_IGNORE_FILE = '.assetsignore';
const ASSETS_IGNORE_TEXT = `# Written by the build: what wrangler does not upload (docs/cloudflare.md)\n${BASIS_FILE}\n`;
const FORMAT = 1;
/**
 * A sources file is a line a content file (≈80 bytes): past this, more than ten times the
 * diary's encyclopedia, it is not read (the rebuild then renders everything).
 */
const MAX_SOURCES_BYTES = 64 * 1024 * 1024;

/** A file as written: the hash of its bytes and what the disk says of it. */
export interface FileFacts {
  hash: string;
  size: number;
  ino: number;
  mtimeMs: number;
}

export interface Changes {
  added: string[];
  changed: string[];
  removed: string[];
}

export interface Manifest {
  /** What the tree was built from (content/fingerprint.ts); null when unknown. */
  inputs: string | null;
  /**
   * The generator that made the tree's files (content/fingerprint.ts generatorFingerprint); null
   * when unknown (a tree partly written, a manifest of an earlier version). A rebuild reuses the
   * tree's basis only when it is this generator's (render/basis.ts).
   */
  generator: string | null;
  files: Map<string, FileFacts>;
  /** What differs from the tree that was live before this one went live (null: a first build). */
  changes: Changes | null;
  /**
   * The SHA-256 of the tree's SOURCES_FILE, the same inputs file by file (content/fingerprint.ts
   * Sources), for a rebuild that renders only what the changed files change
   * (render/basis.ts); null when there is none.
   */
  sources: string | null;
  /** The SHA-256 of the tree's BASIS_FILE (render/basis.ts); null when there is none. */
  basis: string | null;
}

export function hashBytes(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Whether the file on disk (its stats) is still the one written with these facts. */
export function isAsWritten(f: FileFacts, s: Pick<Stats, 'size' | 'ino' | 'mtimeMs'>): boolean {
  return s.size === f.size && s.ino === f.ino && s.mtimeMs === f.mtimeMs;
}

/** The facts of a file just written, from its stats. */
export function factsOf(hash: string, s: Pick<Stats, 'size' | 'ino' | 'mtimeMs'>): FileFacts {
  return { hash, size: s.size, ino: s.ino, mtimeMs: s.mtimeMs };
}

type Row = [path: string, hash: string, size: number, ino: number, mtimeMs: number];

/** Each piece, as it is asked for, added to `hash` first. */
function* hashed(pieces: Iterable<Uint8Array>, hash: Hash): Generator<Uint8Array> {
  for (const piece of pieces) {
    hash.update(piece);
    yield piece;
  }
}

/** Writes the build's record `name` into `dir` when given its bytes (else removes it); its hash. */
function writeRecord(dir: string, name: string, text: string | RecordBytes | null): string | null {
  if (text === null) {
    rmSync(join(dir, name), { force: true });
    return null;
  }
  if (typeof text !== 'string' && 'temp' in text) {
    renameSync(text.temp, join(dir, name));
    return text.hash;
  }
  if (typeof text === 'string' || text instanceof Uint8Array) {
    replaceFile(dir, name, text);
    return hashBytes(text);
  }
  // Hashed as it is written: made once.
  const hash = createHash('sha256');
  replaceFile(dir, name, hashed(text.pieces(), hash));
  return hash.digest('hex');
}

/**
 * Writes the manifest into `dir` (a temporary file, then a rename: never half-written); given
 * `sources` and `basis`, those files first, their hashes in the manifest (earlier ones are removed).
 * Returns the basis's hash (null without one).
 */
export function writeManifest(
  dir: string,
  m: Omit<Manifest, 'sources' | 'basis'>,
  sources: Sources | WrittenAhead | null = null,
  basis: RecordBytes | null = null,
): string | null {
  const rows: Row[] = [...m.files]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, f]) => [path, f.hash, f.size, f.ino, f.mtimeMs]);
  const sourcesHash = writeRecord(
    dir,
    SOURCES_FILE,
    sources === null || 'temp' in sources ? sources : sourcesText(sources),
  );
  const basisHash = writeRecord(dir, BASIS_FILE, basis);
  writeRecord(dir, ASSETS_IGNORE_FILE, basis === null ? null : ASSETS_IGNORE_TEXT);
  const body = `{"format":${FORMAT},"inputs":${JSON.stringify(m.inputs)},"generator":${JSON.stringify(m.generator)},"changes":${JSON.stringify(m.changes)},"sources":${JSON.stringify(sourcesHash)},"basis":${JSON.stringify(basisHash)},"files":[\n${rows
    .map((r) => JSON.stringify(r))
    .join(',\n')}\n]}\n`;
  replaceFile(dir, MANIFEST_FILE, body);
  return basisHash;
}

/** A sources file's text. */
export const sourcesText = (sources: Sources): string =>
  `${JSON.stringify({ setup: sources.setup, files: Object.fromEntries(sources.files) })}\n`;

export function removeManifest(dir: string): void {
  rmSync(join(dir, MANIFEST_FILE), { force: true });
}

function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === 'string');
}

/**
 * Bytes a manifest may have without a look at its tree: about 20,000 files' rows (the whole diary
 * with the full-scale encyclopedia has 1,885 files, a manifest of ≈0.3 MB).
 */
const MANIFEST_FLOOR_BYTES = 4 * 1024 * 1024;

/**
 * The most bytes a manifest of the tree in `dir` can need, as its files are now: for each, its
 * row and its path in the list of changes (each path JSON-escaped at worst, the numbers at their
 * longest), as much again for the paths of a previous tree that went, and the floor. A manifest
 * larger than this was not written for this tree, and reading it could cost any time and memory
 * (a 162 MB one: 10.5 s, 1.66 GB).
 */
function manifestBudget(dir: string): number {
  let bytes = MANIFEST_FLOOR_BYTES;
  try {
    eachFile(dir, (path) => {
      bytes += 2 * (2 * (6 * path.length + 2) + 160);
      return true;
    });
  } catch {
    // A tree that cannot be listed is not trusted anyway (checkTree).
  }
  return bytes;
}

/** The manifest of `dir`, or why there is none: `untrusted` says why one there is not read. */
export function loadManifest(dir: string): { manifest: Manifest | null; untrusted?: string } {
  const path = join(dir, MANIFEST_FILE);
  let read = readRegular(path, MANIFEST_FLOOR_BYTES);
  if (read.bytes === null && read.stats?.isFile() === true) {
    const size = read.stats.size;
    const budget = manifestBudget(dir);
    read = readRegular(path, budget);
    if (read.bytes === null && read.stats?.isFile() === true) {
      const mb = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
      return {
        manifest: null,
        untrusted: `${path} is ${mb(size)}, more than a manifest of its tree needs (${mb(budget)})`,
      };
    }
  }
  if (read.bytes === null) return { manifest: null };
  return { manifest: parseManifest(read.bytes) };
}

/** The manifest of `dir`, or null when it is missing, damaged, of another format or too large. */
export function readManifest(dir: string): Manifest | null {
  return loadManifest(dir).manifest;
}

/** A manifest's bytes read (see writeManifest), or null when they are not one. */
function parseManifest(bytes: Buffer): Manifest | null {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
  if (raw === null || typeof raw !== 'object') return null;
  const { format, inputs, generator, changes, files, sources, basis } = raw as Record<string, unknown>;
  if (format !== FORMAT || !(inputs === null || typeof inputs === 'string') || !Array.isArray(files)) return null;
  // Absent from the manifests of earlier versions: unknown.
  if (!(generator === undefined || generator === null || typeof generator === 'string')) return null;
  let c: Changes | null = null;
  if (changes !== null) {
    const o = changes as Record<string, unknown> | undefined;
    if (
      o === undefined ||
      typeof o !== 'object' ||
      !isStringList(o.added) ||
      !isStringList(o.changed) ||
      !isStringList(o.removed)
    )
      return null;
    c = { added: o.added, changed: o.changed, removed: o.removed };
  }
  const map = new Map<string, FileFacts>();
  for (const row of files as unknown[]) {
    if (!Array.isArray(row) || row.length !== 5) return null;
    const [path, hash, size, ino, mtimeMs] = row as unknown[];
    if (typeof path !== 'string' || path === '' || path.startsWith('/') || path.split('/').includes('..')) return null;
    if (typeof hash !== 'string' || hash.length !== 64) return null;
    if (typeof size !== 'number' || typeof ino !== 'number' || typeof mtimeMs !== 'number') return null;
    if (map.has(path)) return null;
    map.set(path, { hash, size, ino, mtimeMs });
  }
  // Absent from the manifests of earlier versions: none.
  const recorded = (h: unknown) => (typeof h === 'string' && h.length === 64 ? h : null);
  return {
    inputs,
    generator: generator ?? null,
    files: map,
    changes: c,
    sources: recorded(sources),
    basis: recorded(basis),
  };
}

/**
 * The sources file of the tree in `dir` whose manifest is `m`: null when the manifest records
 * none, or the file is missing, of other bytes than the manifest's hash, or not of that shape.
 */
export function readSources(dir: string, m: Manifest): Sources | null {
  if (m.sources === null) return null;
  let raw: unknown;
  const read = readRegular(join(dir, SOURCES_FILE), MAX_SOURCES_BYTES);
  if (read.bytes === null || hashBytes(read.bytes) !== m.sources) return null;
  try {
    raw = JSON.parse(read.bytes.toString('utf8'));
  } catch {
    return null;
  }
  if (raw === null || typeof raw !== 'object') return null;
  const { setup, files } = raw as Record<string, unknown>;
  if (typeof setup !== 'string' || files === null || typeof files !== 'object' || Array.isArray(files)) return null;
  const map = new Map<string, string>();
  for (const [label, hash] of Object.entries(files)) {
    if (typeof hash !== 'string') return null;
    map.set(label, hash);
  }
  return { setup, files: map };
}

/**
 * The most bytes a basis of the tree whose manifest is `m` can need: it holds the records whose
 * details, and the index whose shards, are among the tree's files (each at most as long there),
 * and a few lines more. A larger one was not written for this tree: it is not read.
 */
function basisBudget(m: Manifest): number {
  let bytes = 1024 * 1024;
  for (const f of m.files.values()) bytes += f.size;
  return bytes;
}

/**
 * The basis file of the tree in `dir` whose manifest is `m`: null when the manifest records none,
 * or the file is missing, larger than its tree could need (`untrusted` says so), or of other
 * bytes than the manifest's hash.
 */
export function readBasis(dir: string, m: Manifest): { bytes: Buffer | null; untrusted?: string } {
  if (m.basis === null) return { bytes: null };
  const path = join(dir, BASIS_FILE);
  const budget = basisBudget(m);
  const read = readRegular(path, budget);
  if (read.bytes === null) {
    if (read.stats?.isFile() !== true) return { bytes: null };
    const mb = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
    return {
      bytes: null,
      untrusted: `${path} is ${mb(read.stats.size)}, more than a basis of its tree needs (${mb(budget)})`,
    };
  }
  return { bytes: hashBytes(read.bytes) === m.basis ? read.bytes : null };
}

/** The build's records in a tree: not among its files (not listed, never served, not mirrored). */
const RECORDS = new Set([MANIFEST_FILE, SOURCES_FILE, BASIS_FILE, ASSETS_IGNORE_FILE]);

/**
 * Calls `visit` with the `/`-separated path and the absolute path of every entry of the tree in
 * `dir` that is not a directory, the build's records (RECORDS) but; stops, returning false, when
 * it returns false. Throws what listing a directory throws.
 */
function eachFile(dir: string, visit: (path: string, absolute: string, d: Dirent) => boolean): boolean {
  // Paths by concatenation: join() normalises each, which costs more than an lstat on 14,000.
  const root = dir.endsWith('/') ? dir : `${dir}/`;
  const walk = (rel: string): boolean => {
    for (const d of readdirSync(rel === '' ? dir : root + rel, { withFileTypes: true })) {
      const path = rel === '' ? d.name : `${rel}/${d.name}`;
      if (d.isDirectory() ? !walk(path) : !RECORDS.has(path) && !visit(path, root + path, d)) return false;
    }
    return true;
  };
  return walk('');
}

/**
 * Whether `dir` holds exactly the files of `m`, each as it was written (size, inode, modification
 * time): one listing and one lstat a file, no reading. The manifest itself is not one of them.
 */
export function checkTree(dir: string, m: Manifest): boolean {
  let count = 0;
  try {
    const same = eachFile(dir, (path, absolute, d) => {
      const f = m.files.get(path);
      if (f === undefined || !d.isFile()) return false;
      const s = lstatSync(absolute);
      count++;
      return isAsWritten(f, s);
    });
    return same && count === m.files.size;
  } catch {
    return false;
  }
}

/** What differs between two trees' files, by path (each list sorted). */
export function changesBetween(before: ReadonlyMap<string, FileFacts>, after: ReadonlyMap<string, FileFacts>): Changes {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [path, f] of after) {
    const was = before.get(path);
    if (was === undefined) added.push(path);
    else if (was.hash !== f.hash) changed.push(path);
  }
  for (const path of before.keys()) if (!after.has(path)) removed.push(path);
  return { added: added.sort(), changed: changed.sort(), removed: removed.sort() };
}

/**
 * What differs between the tree in `dir` and its manifest, reading every file (what a rebuild
 * does not do: it trusts the stats): each path missing, changed (other bytes) or not listed.
 */
export function auditTree(dir: string, m: Manifest): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  eachFile(dir, (path, absolute) => {
    seen.add(path);
    const f = m.files.get(path);
    if (f === undefined) problems.push(`${path}: not listed`);
    else {
      // Only a regular file, and no more than the size listed (a FIFO there is not waited on).
      const read = readRegular(absolute, f.size);
      if (read.bytes === null && read.stats?.isFile() === false) problems.push(`${path}: not a file`);
      else if (read.bytes === null || hashBytes(read.bytes) !== f.hash) problems.push(`${path}: other bytes`);
    }
    return true;
  });
  for (const path of m.files.keys()) if (!seen.has(path)) problems.push(`${path}: missing`);
  return problems.sort();
}
