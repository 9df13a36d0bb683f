// The packed form of the index: where each word occurs, as text. A number is written in base 32
// digits, most significant first, each digit one character of DIGITS: the first 32 characters
// for a digit that another follows, the last 32 for a number's last digit. Documents and
// positions are written as differences from the previous one, so most numbers take one character;
// a document's count of positions only when it is not 1. Read here, by the search of every
// runtime; written by postings-writer.ts, which the build alone imports.

import { fnv1a } from '../hash.ts';

/** The digits, and what each character is worth (-1: none): postings-writer.ts writes with them. */
export const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
export const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < DIGITS.length; i++) VALUE[DIGITS.charCodeAt(i)] = i;

/** The numbers of encodeNumbers's text, or null when the text is not such a one. */
export function decodeNumbers(text: string): number[] | null {
  const numbers: number[] = [];
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const v = VALUE[text.charCodeAt(i)] ?? -1;
    if (v < 0) return null;
    if (v < 32) n = n * 32 + v;
    else {
      numbers.push(n * 32 + (v - 32));
      n = 0;
    }
  }
  return n === 0 && (text.length === 0 || (VALUE[text.charCodeAt(text.length - 1)] ?? 0) >= 32) ? numbers : null;
}

/** A document's positions of a word, ascending. */
export type Positions = ArrayLike<number>;

/**
 * Where a word occurs: its documents, ascending, each with its positions, ascending. Held as three
 * typed arrays, not a map of arrays: decoding the postings of a word in every document (`the`,
 * `and`) made an array and a map entry a document, which a cold isolate paid for in allocation
 * and collection.
 */
export interface Postings {
  /** How many documents hold the word. */
  readonly size: number;
  /** Those documents, ascending. */
  readonly docs: Int32Array;
  /** How many positions in all. */
  readonly occurrences: number;
  /**
   * Every position, document after document: the i-th document's are those from at[i] to
   * at[i + 1] (for loops that read many documents' positions without a view of each made).
   */
  readonly positions: Int32Array;
  readonly at: Int32Array;
  /** Where a document is in docs; -1 when the word is not in it. */
  indexOf(doc: number): number;
}

/**
 * Lists of at least this many documents find one by a table of every document number (built the
 * first time one is asked for: a relevance order or another clause asks for each candidate);
 * shorter ones by a binary search.
 */
const TABLE_FROM = 32;

/** Where `value` is among [lo, hi) of `sorted` (ascending), or -1: a binary search. */
function indexIn(sorted: Int32Array, value: number, lo: number, hi: number): number {
  let top = hi - 1;
  while (lo <= top) {
    const mid = (lo + top) >>> 1;
    const v = sorted[mid] as number;
    if (v === value) return mid;
    if (v < value) lo = mid + 1;
    else top = mid - 1;
  }
  return -1;
}

/**
 * Postings of documents `docs`, the i-th with positions [at[i], at[i + 1]) of `positions`. A class,
 * not an object of closures, so that a call of its methods is one call site's one target however
 * many words are read (a warm query calls them for each candidate).
 */
class PackedPostings implements Postings {
  readonly docs: Int32Array;
  readonly at: Int32Array;
  readonly positions: Int32Array;
  readonly size: number;
  readonly occurrences: number;
  private table: Int32Array | undefined;

  constructor(docs: Int32Array, at: Int32Array, positions: Int32Array) {
    this.docs = docs;
    this.at = at;
    this.positions = positions;
    this.size = docs.length;
    this.occurrences = positions.length;
  }

  indexOf(doc: number): number {
    const { docs } = this;
    if (docs.length >= TABLE_FROM) {
      let table = this.table;
      if (table === undefined) {
        table = new Int32Array((docs[docs.length - 1] as number) + 1).fill(-1);
        for (let i = 0; i < docs.length; i++) table[docs[i] as number] = i;
        this.table = table;
      }
      return doc >= 0 && doc < table.length ? (table[doc] as number) : -1;
    }
    return indexIn(docs, doc, 0, docs.length);
  }
}

/** Postings of documents `docs`, the i-th with positions [at[i], at[i + 1]) of `positions`. */
export function postingsFrom(docs: Int32Array, at: Int32Array, positions: Int32Array): Postings {
  return new PackedPostings(docs, at, positions);
}

/** The postings of a list of [document, positions], both ascending. */
export function postingsOf(list: ReadonlyArray<readonly [number, Positions]>): Postings {
  let total = 0;
  for (const [, positions] of list) total += positions.length;
  const docs = new Int32Array(list.length);
  const at = new Int32Array(list.length + 1);
  const positions = new Int32Array(total);
  let k = 0;
  list.forEach(([doc, ps], i) => {
    docs[i] = doc;
    at[i] = k;
    for (let j = 0; j < ps.length; j++) positions[k++] = ps[j] as number;
  });
  at[list.length] = k;
  return new PackedPostings(docs, at, positions);
}

/** The [document, positions] of postings, in order (as postingsOf takes them). */
export function postingsList(postings: Postings): Array<[number, number[]]> {
  const { positions, at } = postings;
  return Array.from(postings.docs, (doc, i) => [
    doc,
    Array.from(positions.subarray(at[i] as number, at[i + 1] as number)),
  ]);
}

/** What decodePostings reads next: a document's gap, its count of positions, or a position. */
const GAP = 0;
const COUNT = 1;
const POSITION = 2;

const INT32_MAX = 0x7fffffff;

/**
 * The postings of encodePostings's text; null when the text is not such a one, or names a document
 * or a position past 2³¹ - 1.
 */
export function decodePostings(text: string): Postings | null {
  // Every number takes a character at least: the text's length bounds the documents and positions.
  const docs = new Int32Array(text.length);
  const at = new Int32Array(text.length + 1);
  const positions = new Int32Array(text.length);
  // One loop over the characters, no call a number: a cold isolate runs it in its interpreter,
  // where a call costs more than the digit it reads (`the` has 150,000 numbers).
  let state = GAP;
  let n = 0;
  let pending = false;
  let doc = -1;
  let d = 0;
  let k = 0;
  let left = 0;
  let p = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? (VALUE[c] as number) : -1;
    if (v < 0) return null;
    if (v < 32) {
      n = n * 32 + v;
      pending = true;
      continue;
    }
    const x = n * 32 + (v - 32);
    n = 0;
    pending = false;
    if (state === GAP) {
      doc += Math.floor(x / 2) + 1;
      // Past what the typed arrays hold (no index has 2³¹ documents or words): damage.
      if (doc > INT32_MAX) return null;
      docs[d] = doc;
      at[d++] = k;
      p = -1;
      left = 1;
      state = x % 2 === 1 ? POSITION : COUNT;
    } else if (state === COUNT) {
      if (x < 1) return null;
      left = x;
      state = POSITION;
    } else {
      p += x + 1;
      if (p > INT32_MAX) return null;
      positions[k++] = p;
      if (--left === 0) state = GAP;
    }
  }
  if (pending || state !== GAP) return null;
  at[d] = k;
  // Copies of the parts used: a server keeps a word's postings as long as its shard.
  return new PackedPostings(docs.slice(0, d), at.slice(0, d + 1), positions.slice(0, k));
}

/**
 * How many documents a shard covers, about (a shard then holds ~30 KiB on the whole diary: a query
 * reads a few such files whole). A function of the number of documents alone, never of their
 * text: an edit that keeps every record where it is (the watch mode's fast path, render/patch.ts)
 * keeps the same shard files, and a search knows a collection's shards from the site index's count
 * of its records, before its statistics file is read (search/answer.ts reads both at once).
 */
const DOCUMENTS_A_SHARD = { entries: 32, topics: 4000 } as const;
const MAX_SHARDS = 128;

/** The number of shards of a collection's index of `count` documents. */
export function shardCount(collection: keyof typeof DOCUMENTS_A_SHARD, count: number): number {
  return Math.min(MAX_SHARDS, Math.max(1, Math.ceil(count / DOCUMENTS_A_SHARD[collection])));
}

/** The shard (0 to shards - 1) that holds a word: FNV-1a of its UTF-16 code units. */
export function shardOf(term: string, shards: number): number {
  return fnv1a(term) % shards;
}

/**
 * The [word, postings] of encodeShard's text, in order; null when the text is not such a one (a
 * line without its tab or its newline, words not ascending).
 */
export function decodeShard(text: string): Array<[string, string]> | null {
  const lines: Array<[string, string]> = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    if (end === -1) return null;
    const tab = text.indexOf('\t', at);
    if (tab === -1 || tab >= end || tab === at) return null;
    const word = text.slice(at, tab);
    if (lines.length > 0 && (lines[lines.length - 1] as [string, string])[0] >= word) return null;
    lines.push([word, text.slice(tab + 1, end)]);
    at = end + 1;
  }
  return lines;
}

/** The encoded postings of one word of a shard's text, or '' when the shard does not hold it. */
export function findInShard(shard: string, term: string): string {
  return lineInShard(shard, term) ?? '';
}

/**
 * The encoded postings of one word of a shard's text, or null when the shard does not hold it (a
 * line of the word with nothing after its tab, '', is not of encodeShard: damage).
 */
export function lineInShard(shard: string, term: string): string | null {
  const key = `${term}\t`;
  const at = shard.startsWith(key) ? 0 : shard.indexOf(`\n${key}`);
  if (at === -1) return null;
  const start = (at === 0 && shard.startsWith(key) ? 0 : at + 1) + key.length;
  const end = shard.indexOf('\n', start);
  return shard.slice(start, end === -1 ? shard.length : end);
}
