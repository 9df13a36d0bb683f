// File trees in tests.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { detailFile, SITE_INDEX_FILE } from '../../generator/core/files.ts';
import { recordPackFile, unpack, unpacking } from '../../generator/core/packs.ts';
import { parseSiteIndex, type SiteIndex } from '../../generator/core/site-index.ts';
import type { Collection } from '../../generator/core/types.ts';
import { ASSETS_IGNORE_FILE, MANIFEST_FILE, SOURCES_FILE } from '../../generator/output/manifest.ts';
import type { Downloads } from '../../generator/render/downloads.ts';
import type { Known } from '../edge/requests.ts';

const BINARY = /\.(gz|sqlite)$/;

/**
 * Changes one byte of `path` in place (same inode), its size and modification time kept: damage
 * that the tree's check (sizes and times) cannot see, only a hash.
 */
export function rot(path: string): void {
  const s = statSync(path, { bigint: true });
  const bytes = readFileSync(path);
  const at = Math.floor(bytes.length / 2);
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.from([(bytes[at] as number) ^ 0x20]), 0, 1, at);
  closeSync(fd);
  // To the nanosecond, as the disk holds it (utimes takes seconds as a double: microseconds).
  const ns = s.mtimeNs % 1_000_000_000n;
  execFileSync('touch', ['-m', '-d', `@${s.mtimeNs / 1_000_000_000n}.${String(ns).padStart(9, '0')}`, path]);
  const now = statSync(path, { bigint: true });
  if (now.ino !== s.ino || now.size !== s.size || now.mtimeNs !== s.mtimeNs)
    throw new Error(`${path}: not damaged in place (its inode, size or time moved)`);
}

/**
 * A file's body as a string to compare: text as UTF-8 (a search shard is made as bytes), the
 * bytes of a binary file (the downloads: gzip, SQLite) in base64, so that no difference is lost to
 * UTF-8 decoding.
 */
export function comparable(path: string, body: string | Uint8Array): string {
  return BINARY.test(path) && typeof body !== 'string'
    ? `base64:${Buffer.from(body).toString('base64')}`
    : asText(body);
}

/** A text file's body as a string (a search shard is made as its UTF-8 bytes). */
export function asText(body: string | Uint8Array): string {
  // A view of the bytes, not a copy: readTree decodes every file of a tree through here.
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

/** The build's own records at the tree's root: its manifest, its sources, a saved basis, the deploy's ignore list. */
const isBuildRecord = (path: string): boolean =>
  path === MANIFEST_FILE || path === SOURCES_FILE || path === ASSETS_IGNORE_FILE || path.startsWith('.pepys-basis');

/** Downloads made (render/downloads.ts `Downloads`) as path → bytes: their files, then their list. */
export function downloadsBytes(d: Downloads): Map<string, Buffer> {
  return new Map([...d.files, d.list].map((f) => [f.path, Buffer.from(f.body)]));
}

/** Every file under `dir`: relative `/`-separated path → its bytes, in sorted order. */
export function readTreeBytes(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (rel: string) => {
    const items = readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const d of items) {
      const path = rel === '' ? d.name : `${rel}/${d.name}`;
      if (d.isDirectory()) walk(path);
      // The build's records of the tree (inodes and times, its sources, any saved basis): not
      // part of what it serves.
      else if (!isBuildRecord(path)) out.set(path, readFileSync(join(dir, path)));
    }
  };
  walk('');
  return out;
}

const PACK = /^_data\/records\/(entries|categories|topics)\/[0-9]+\/[0-9]+\.pack$/;

/**
 * The records of a tree's packs (core/packs.ts), each as the detail file it is served as
 * (core/files.ts detailFile): what the handler reads by that name. Throws on a pack that is not one.
 */
function packedDetails(tree: ReadonlyMap<string, Buffer>): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const [path, bytes] of tree) {
    const m = PACK.exec(path);
    if (m === null) continue;
    const records = unpack(bytes);
    if (records === null) throw new Error(`${path} is not a pack`);
    for (const [key, body] of records) out.set(detailFile(m[1] as Collection, key), Buffer.from(body));
  }
  return out;
}

const DETAIL = /^api\/v1\/(entries|categories|topics)\/[^/]+\.json$/;

/** Is this the name of a record's detail file, which readTree adds for the records of the packs? */
export function isDetailName(path: string): boolean {
  return DETAIL.test(path);
}

/** The site index of the site built in `dir`; throws when it cannot be read. */
function siteIndexOf(dir: string): SiteIndex {
  const index = parseSiteIndex(readFileSync(join(dir, SITE_INDEX_FILE), 'utf8'));
  if (!index.ok) throw new Error(`${dir}: ${index.error}`);
  return index.value;
}

/** The records of the site built in `dir`, for random requests (test/edge/requests.ts). */
export function knownRecords(dir: string): Known {
  const index = siteIndexOf(dir);
  return { dates: index.entryDates, slugs: [...index.categorySlugs], ids: [...index.topicIds] };
}

/** The pack (core/packs.ts) of a record of the site built in `dir`, a path relative to it. */
export function packPath(dir: string, collection: Collection, key: string): string {
  const index = siteIndexOf(dir);
  const count = {
    entries: index.entryDates.length,
    categories: index.categorySlugs.size,
    topics: index.topicIds.size,
  };
  return recordPackFile(collection, key, count[collection]);
}

/**
 * A file of the built site in `dir` as the handler reads it: a record's detail (core/files.ts
 * detailFile) out of its pack, any other file as it is; undefined when there is none.
 */
export function readServed(dir: string, file: string): string | undefined {
  const index = siteIndexOf(dir);
  const read = unpacking((f) => {
    try {
      return readFileSync(join(dir, f));
    } catch {
      return null;
    }
  }, index);
  const bytes = read(file) as Uint8Array | null;
  return bytes === null ? undefined : Buffer.from(bytes).toString('utf8');
}

/**
 * A tree as it was laid out before records were packed: each pack replaced by its records' detail
 * files, in sorted order. Holds what every answer of a detail is, byte for byte.
 */
export function unpackTree(tree: ReadonlyMap<string, Buffer>): Map<string, Buffer> {
  const out = new Map([...tree].filter(([path]) => !PACK.test(path)));
  for (const [path, bytes] of packedDetails(tree)) out.set(path, bytes);
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Every file under `dir`: relative `/`-separated path → text (see comparable), in sorted order;
 * with, besides the packs, each record they hold under its detail file's name (packedDetails).
 */
export function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const tree = readTreeBytes(dir);
  for (const [path, bytes] of tree) out.set(path, comparable(path, bytes));
  for (const [path, bytes] of packedDetails(tree)) out.set(path, bytes.toString('utf8'));
  return out;
}

/**
 * A hash of each directory's files under `dir` (its direct files: their names and bytes), 16 hex
 * digits, by `/`-separated directory path ('' for `dir` itself); `skip` files are left out. Of
 * the tree as laid out before records were packed (unpackTree).
 */
export function directoryHashes(dir: string, skip: readonly string[] = []): Map<string, string> {
  const lines = new Map<string, string[]>();
  for (const [path, bytes] of unpackTree(readTreeBytes(dir))) {
    if (skip.includes(path)) continue;
    const cut = path.lastIndexOf('/');
    const parent = cut === -1 ? '' : path.slice(0, cut);
    const list = lines.get(parent) ?? [];
    list.push(`${path.slice(cut + 1)} ${createHash('sha256').update(bytes).digest('hex')}`);
    lines.set(parent, list);
  }
  const out = new Map<string, string>();
  for (const [parent, list] of [...lines].sort(([a], [b]) => (a < b ? -1 : 1)))
    out.set(parent, createHash('sha256').update(list.join('\n')).digest('hex').slice(0, 16));
  return out;
}
