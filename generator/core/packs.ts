// Records packed into fewer files. A CDN counts files (Cloudflare: 20,000 a deploy on the free
// plan, 100,000 on a paid one; Netlify: 54,000 in one directory), and an encyclopedia ten times
// the size of Pepys's would pass every one of those limits with one file a record. Every request
// under /api/ reaches the core's handler, so the files need not mirror the URLs: the details of
// each collection live in packs of about 8 to 16 records, and the handler reads a detail out of
// its pack, byte for byte the body a file of its own held.
//
// A record's pack is a function of its key and of the number of records of its collection, both
// of which the site index knows: a hash of the key, modulo the number of packs (a power of two,
// so that it changes only when the collection doubles or halves). An edit to a record rewrites
// its pack alone; a new record, the pack it falls into. Packs are grouped in directories of 256.
//
// A pack is one line of JSON, its table of contents ([key, offset, length] of each record, offsets
// in bytes from the end of that line), then the records' bodies one after another.

import { detailFile } from './files.ts';
import type { ReadFile } from './handler.ts';
import { fmix32, fnv1a } from './hash.ts';
import type { SiteIndex } from './site-index.ts';
import type { Collection } from './types.ts';

/** The average number of records a pack holds at most. */
const RECORDS_PER_PACK = 16;
/** Packs per directory. */
const PACKS_PER_DIR = 256;

/** How many packs a collection of `count` records is written in: a power of two. */
export function packCount(count: number): number {
  let packs = 1;
  while (packs * RECORDS_PER_PACK < count) packs *= 2;
  return packs;
}

/** The pack (0 ≤ pack < packs) of the record with this key: 32-bit FNV-1a, then Murmur3's finaliser. */
export function packOf(key: string, packs: number): number {
  // The finaliser mixes the high bits into the low ones the modulo keeps.
  return fmix32(fnv1a(key)) % packs;
}

/** The file of pack `pack` of a collection, relative to the output directory. */
export function packFile(collection: Collection, pack: number): string {
  return `_data/records/${collection}/${Math.floor(pack / PACKS_PER_DIR)}/${pack}.pack`;
}

/** The records of a collection grouped by pack: for each pack that holds any, their positions, in order. */
export function packMembers(keys: readonly string[]): Map<number, number[]> {
  const packs = packCount(keys.length);
  const members = new Map<number, number[]>();
  keys.forEach((key, position) => {
    const pack = packOf(key, packs);
    const held = members.get(pack);
    if (held === undefined) members.set(pack, [position]);
    else held.push(position);
  });
  return new Map([...members].sort((a, b) => a[0] - b[0]));
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A pack's text: its table of contents, then the bodies (each a detail file's text). */
export function packText(records: ReadonlyArray<readonly [key: string, body: string]>): string {
  const contents: Array<[string, number, number]> = [];
  let offset = 0;
  for (const [key, body] of records) {
    const length = encoder.encode(body).length;
    contents.push([key, offset, length]);
    offset += length;
  }
  let text = `${JSON.stringify(contents)}\n`;
  for (const [, body] of records) text += body;
  return text;
}

/** The records of a pack's bytes, by key; null when the bytes are not a pack. */
export function unpack(bytes: Uint8Array): Map<string, Uint8Array> | null {
  const end = bytes.indexOf(0x0a);
  if (end === -1) return null;
  let contents: unknown;
  try {
    contents = JSON.parse(decoder.decode(bytes.subarray(0, end)));
  } catch {
    return null;
  }
  if (!Array.isArray(contents)) return null;
  const records = new Map<string, Uint8Array>();
  const start = end + 1;
  // Indexed, not destructured nor `for…of` (the iterator protocol's calls): an isolate's first
  // search unpacks up to 50 packs, by V8's interpreter.
  for (let i = 0; i < contents.length; i++) {
    const row: unknown = contents[i];
    if (!Array.isArray(row) || row.length !== 3) return null;
    const key: unknown = row[0];
    const offset: unknown = row[1];
    const length: unknown = row[2];
    if (typeof key !== 'string' || !Number.isSafeInteger(offset) || !Number.isSafeInteger(length)) return null;
    const from = start + (offset as number);
    const to = from + (length as number);
    if ((offset as number) < 0 || (length as number) < 0 || to > bytes.length) return null;
    records.set(key, bytes.subarray(from, to));
  }
  return records;
}

/** The counts of each collection's records, which place a record in its pack. */
function countOf(site: SiteIndex, collection: Collection): number {
  switch (collection) {
    case 'entries':
      return site.entryDates.length;
    case 'categories':
      return site.categorySlugs.size;
    case 'topics':
      return site.topicIds.size;
  }
}

const COLLECTIONS: readonly Collection[] = ['entries', 'categories', 'topics'];
const detailPrefixes = COLLECTIONS.map((c) => [c, detailFile(c, '').slice(0, -'.json'.length)] as const);

/** The collection and key of a detail file's name (core/files.ts detailFile), or null for any other file. */
function detailOf(file: string): { collection: Collection; key: string } | null {
  if (!file.endsWith('.json')) return null;
  for (const [collection, prefix] of detailPrefixes) {
    if (!file.startsWith(prefix)) continue;
    const key = file.slice(prefix.length, -'.json'.length);
    return key.length > 0 && !key.includes('/') ? { collection, key } : null;
  }
  return null;
}

// The records of each pack read, by the identity of its bytes: a runtime that keeps the bytes of a
// file it read (the local server per generation, an isolate) gives the same bytes again, and the
// same record bytes then come back too (the core keeps parsed forms by them: search, filters).
const unpacked = new WeakMap<Uint8Array, Map<string, Uint8Array> | null>();

/**
 * A reader of the built site through which each record's detail file (core/files.ts detailFile)
 * reads as if it were a file of its own: its bytes are read out of its pack. A record its pack
 * does not hold, or a pack that is not one, reads as a missing file (the handler's 503 names it).
 */
export function unpacking(readFile: ReadFile, site: SiteIndex): ReadFile {
  return (file) => {
    const detail = detailOf(file);
    if (detail === null) return readFile(file);
    const pack = packFile(detail.collection, packOf(detail.key, packCount(countOf(site, detail.collection))));
    const member = (bytes: Uint8Array | null): Uint8Array | null => {
      if (bytes === null) return null;
      let records = unpacked.get(bytes);
      if (records === undefined) {
        records = unpack(bytes);
        unpacked.set(bytes, records);
      }
      return records?.get(detail.key) ?? null;
    };
    const bytes = readFile(pack);
    return bytes instanceof Promise ? bytes.then(member) : member(bytes);
  };
}
