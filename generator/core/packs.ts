// Records packed into fewer files. A CDN counts files (Cloudflare: 20,000 a deploy on the free
// plan, 100,000 on a paid one; Netlify: 54,000 in one directory), and an encyclopedia ten times
// the size of Pepys's would pass every one of those limits with one file a record. Every request
// under /api/ reaches the core's handler, so the files need not mirror the URLs: the details of
// each collection live in packs of about 8 to 16 records, and the handler reads a detail out of
// its pack, byte for byte the body a file of its own held.
//
// A record's pack is a function of its key and of the number of records of its collection, both
// of which the site index knows. An entry's is its half of its month (entryPackFile), so that the
// entries of a page, in date order, lie in few packs. A topic's or a category's is a hash of its
// key, modulo the number of packs (a power of two, so that it changes only when the collection
// doubles or halves), grouped in directories of 256. An edit to a record rewrites its pack alone;
// a new record, the pack it falls into.
//
// A pack is one line of JSON, its table of contents ([key, offset, length, digest] of each record,
// offsets in bytes from the end of that line), then the records' bodies one after another, in the
// table's order, with nothing between or after them. A record is given out only when its row is
// one of such a table (keys unique, each body where the one before ends, the last ending where the
// file does) and its body has the digest the build wrote (FNV-1a of its key, then of its bytes):
// a damaged pack never answers with another record's bytes, nor with bytes the build did not
// write. It reads as missing instead, which the handler answers with its 503.

import type { ReadFile } from './answer-types.ts';
import { detailFile } from './files.ts';
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

/** The file of pack `pack` of a collection packed by hash, relative to the output directory. */
export function packFile(collection: Collection, pack: number): string {
  return `_data/records/${collection}/${Math.floor(pack / PACKS_PER_DIR)}/${pack}.pack`;
}

/**
 * The pack of an entry: the entries of its half of its month (days 1 to 15, 16 to the end), in a
 * directory of its year (`_data/records/entries/1665/17.pack`: September's second half). A page of
 * a search or a filter lists entries in date order, and the entries of a word or of a topic come
 * in runs of days: their details are in a few packs, where packs by hash put the 50 of a page in
 * about 47 (`plague` on the whole diary: 27 packs against 47; `wife`, 5 against 46). An entry's
 * edit or a new entry rewrites its own pack only. At most 16 records a pack, as the packs by hash
 * have on average; a diary with an entry every few days has packs of fewer.
 */
function entryPackFile(date: string): string {
  const half = (Number(date.slice(5, 7)) - 1) * 2 + (Number(date.slice(8, 10)) > 15 ? 1 : 0);
  return `_data/records/entries/${date.slice(0, 4)}/${half}.pack`;
}

/** The pack file of the record `key` of a collection of `count` records. */
export function recordPackFile(collection: Collection, key: string, count: number): string {
  return collection === 'entries' ? entryPackFile(key) : packFile(collection, packOf(key, packCount(count)));
}

/**
 * The records of a collection grouped by pack file (recordPackFile): for each pack that holds any,
 * their positions, in the list's order; `keys` are the records' keys in the list's order.
 */
export function packGroups(collection: Collection, keys: readonly string[]): Map<string, number[]> {
  if (collection !== 'entries')
    return new Map([...packMembers(keys)].map(([pack, positions]) => [packFile(collection, pack), positions]));
  return grouped(keys, entryPackFile);
}

/** The positions of `keys` grouped by `groupOf` of each key, in the order the groups first come. */
function grouped<G>(keys: readonly string[], groupOf: (key: string) => G): Map<G, number[]> {
  const groups = new Map<G, number[]>();
  keys.forEach((key, position) => {
    const group = groupOf(key);
    const held = groups.get(group);
    if (held === undefined) groups.set(group, [position]);
    else held.push(position);
  });
  return groups;
}

/** The records of a collection packed by hash grouped by pack: for each pack that holds any, their positions, in order. */
export function packMembers(keys: readonly string[]): Map<number, number[]> {
  const packs = packCount(keys.length);
  return new Map([...grouped(keys, (key) => packOf(key, packs))].sort((a, b) => a[0] - b[0]));
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Bytes a pack's table of contents may take at most: about 16 rows are a few hundred. */
export const MAX_TABLE_BYTES = 1024 * 1024;

/** The digest of a record a pack holds: 32-bit FNV-1a of its key, then of its body's bytes. */
function recordDigest(key: string, body: Uint8Array): number {
  // Not a cryptographic hash: it tells damage (any one byte changed always changes it), and is
  // cheap enough for an edge isolate's first request, which runs this loop by V8's interpreter.
  let h = fnv1a(key);
  for (let i = 0; i < body.length; i++) {
    h ^= body[i] as number;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A pack's text: its table of contents, then the bodies (each a detail file's text). */
export function packText(records: ReadonlyArray<readonly [key: string, body: string]>): string {
  const contents: Array<[string, number, number, number]> = [];
  let offset = 0;
  for (const [key, body] of records) {
    const bytes = encoder.encode(body);
    contents.push([key, offset, bytes.length, recordDigest(key, bytes)]);
    offset += bytes.length;
  }
  let text = `${JSON.stringify(contents)}\n`;
  for (const [, body] of records) text += body;
  return text;
}

interface Row {
  offset: number;
  length: number;
  digest: number;
}

/** A pack's table of contents, checked: where its bodies begin, and each record's row by key. */
interface PackTable {
  start: number;
  rows: ReadonlyMap<string, Row>;
}

const isDigest = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 0xffffffff;

/**
 * The table of contents of a pack of `size` bytes whose first line (without its newline) is
 * `line`; null when it is not one: not rows of [key, offset, length, digest], a key twice, a body
 * that does not begin where the one before ends, or the last not ending where the pack does.
 */
function parseTable(line: Uint8Array, size: number): PackTable | null {
  let contents: unknown;
  try {
    contents = JSON.parse(decoder.decode(line));
  } catch {
    return null;
  }
  if (!Array.isArray(contents)) return null;
  const rows = new Map<string, Row>();
  let next = 0;
  // Indexed, not destructured nor `for…of` (the iterator protocol's calls): an isolate's first
  // search reads up to 50 packs, by V8's interpreter.
  for (let i = 0; i < contents.length; i++) {
    const row: unknown = contents[i];
    if (!Array.isArray(row) || row.length !== 4) return null;
    const key: unknown = row[0];
    const offset: unknown = row[1];
    const length: unknown = row[2];
    const digest: unknown = row[3];
    if (typeof key !== 'string' || rows.has(key) || offset !== next) return null;
    if (!Number.isSafeInteger(length) || (length as number) < 0 || !isDigest(digest)) return null;
    rows.set(key, { offset: next, length: length as number, digest });
    next += length as number;
  }
  const start = line.length + 1;
  return start + next === size ? { start, rows } : null;
}

/** The table of contents of a whole pack's bytes, or null. */
function tableOf(bytes: Uint8Array): PackTable | null {
  const end = bytes.subarray(0, MAX_TABLE_BYTES + 1).indexOf(0x0a);
  return end === -1 ? null : parseTable(bytes.subarray(0, end), bytes.length);
}

/** `body`, the bytes read for `key`'s row, when they are what the build wrote; else null. */
function checked(key: string, row: Row, body: Uint8Array): Uint8Array | null {
  return body.length === row.length && recordDigest(key, body) === row.digest ? body : null;
}

/** The records of a pack's bytes, by key, each checked; null when the bytes are not a whole, sound pack. */
export function unpack(bytes: Uint8Array): Map<string, Uint8Array> | null {
  const table = tableOf(bytes);
  if (table === null) return null;
  const records = new Map<string, Uint8Array>();
  for (const [key, row] of table.rows) {
    const from = table.start + row.offset;
    const body = checked(key, row, bytes.subarray(from, from + row.length));
    if (body === null) return null;
    records.set(key, body);
  }
  return records;
}

/** Is this the name of a pack (packFile)? */
export function isPackFile(file: string): boolean {
  return /^_data\/records\/(entries|categories|topics)\/[0-9]+\/[0-9]+\.pack$/.test(file);
}

/** A file opened to read parts of it (the local server's, by a file handle). */
export interface OpenedFile {
  /** Its size in bytes. */
  readonly size: number;
  /** Its bytes from `from`, `length` of them (fewer past its end). */
  read(from: number, length: number): Uint8Array;
  close(): void;
}

/** Opens a file of the built site (a path relative to it); null when there is no such file. */
export type OpenFile = (file: string) => OpenedFile | null;

/** Bytes read first of a pack opened by parts: its table and, most often, the record asked for. */
const FIRST_READ = 16 * 1024;

/**
 * The body of `key` in the pack `file`, read by parts: its table of contents, then the record's
 * range, never the pack whole (however large it has become); null when the pack does not hold
 * that record as the build wrote it, or the record is longer than `maxBytes`.
 */
export function readPacked(open: OpenFile, file: string, key: string, maxBytes: number): Uint8Array | null {
  const opened = open(file);
  if (opened === null) return null;
  try {
    let head = opened.read(0, Math.min(FIRST_READ, opened.size));
    let end = head.indexOf(0x0a);
    // A table longer than the first read: read again, as far as a table may reach.
    if (end === -1 && head.length < opened.size) {
      head = opened.read(0, Math.min(MAX_TABLE_BYTES + 1, opened.size));
      end = head.indexOf(0x0a);
    }
    if (end === -1) return null;
    const table = parseTable(head.subarray(0, end), opened.size);
    if (table === null) return null;
    const row = table.rows.get(key);
    if (row === undefined || row.length > maxBytes) return null;
    const from = table.start + row.offset;
    // A copy, not a view of the first read: what is kept is the record alone.
    const body = from + row.length <= head.length ? head.slice(from, from + row.length) : opened.read(from, row.length);
    return checked(key, row, body);
  } finally {
    opened.close();
  }
}

/** Reads a record out of its pack by parts (readPacked, with a cache): the pack's file, the record's key. */
type ReadRecord = (pack: string, key: string) => Uint8Array | null;

const recordReaders = new WeakMap<ReadFile, ReadRecord>();

/**
 * `readFile`, marked as able to read a record by its range (the local server's): `unpacking` then
 * asks `readRecord` for a detail instead of reading its pack whole. The handler takes a ReadFile,
 * so the mark rides with it.
 */
export function readingRecords(readFile: ReadFile, readRecord: ReadRecord): ReadFile {
  recordReaders.set(readFile, readRecord);
  return readFile;
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
// file it read (an isolate, the build's readers) gives the same bytes again, and the same record
// bytes then come back too (the core keeps parsed forms by them: search, filters). A record's
// digest is checked when it is first asked for: a page reads one or two records of a pack.
const unpacked = new WeakMap<Uint8Array, { table: PackTable | null; records: Map<string, Uint8Array | null> }>();

/** The record `key` of a whole pack's bytes, checked; null when it holds no such record as the build wrote it. */
function recordIn(bytes: Uint8Array, key: string): Uint8Array | null {
  let pack = unpacked.get(bytes);
  if (pack === undefined) {
    pack = { table: tableOf(bytes), records: new Map() };
    unpacked.set(bytes, pack);
  }
  if (pack.table === null) return null;
  let record = pack.records.get(key);
  if (record === undefined) {
    const row = pack.table.rows.get(key);
    const from = pack.table.start + (row?.offset ?? 0);
    record = row === undefined ? null : checked(key, row, bytes.subarray(from, from + row.length));
    pack.records.set(key, record);
  }
  return record;
}

/**
 * A reader of the built site through which each record's detail file (core/files.ts detailFile)
 * reads as if it were a file of its own: its bytes are read out of its pack, by its range when
 * the reader can (readingRecords), else out of the pack read whole. A record its pack does not
 * hold as the build wrote it, or a pack that is not one, reads as a missing file (the handler's
 * 503 names it).
 */
export function unpacking(readFile: ReadFile, site: SiteIndex): ReadFile {
  const readRecord = recordReaders.get(readFile);
  return (file) => {
    const detail = detailOf(file);
    if (detail === null) return readFile(file);
    const pack = recordPackFile(detail.collection, detail.key, countOf(site, detail.collection));
    if (readRecord !== undefined) return readRecord(pack, detail.key);
    const member = (bytes: Uint8Array | null): Uint8Array | null =>
      bytes === null ? null : recordIn(bytes, detail.key);
    const bytes = readFile(pack);
    return bytes instanceof Promise ? bytes.then(member) : member(bytes);
  };
}
