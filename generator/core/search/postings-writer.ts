// The packed form of the index as the build writes it (postings.ts says what the form is, and
// reads it: the search of every runtime imports that one, never this): a word's postings packed a
// document at a time, a list of numbers, a document's positions replaced in place (a rebuild), a
// shard's text.

import { lowerBound } from '../ranges.ts';
import { DIGITS, VALUE } from './postings.ts';

const DIGIT_CODES = Uint8Array.from(DIGITS, (c) => c.charCodeAt(0));

function writeNumber(n: number, out: string[]): void {
  const digits: number[] = [];
  do {
    digits.push(n % 32);
    n = Math.floor(n / 32);
  } while (n > 0);
  for (let i = digits.length - 1; i > 0; i--) out.push(DIGITS[digits[i] as number] as string);
  out.push(DIGITS[32 + (digits[0] as number)] as string);
}

/**
 * Postings packed one document at a time, into bytes that grow as needed (the build's form: it
 * holds one of these a word, not an array per word and document).
 */
export interface PostingsWriter {
  bytes: Uint8Array;
  length: number;
  previousDoc: number;
}

export function postingsWriter(): PostingsWriter {
  return { bytes: new Uint8Array(8), length: 0, previousDoc: -1 };
}

function pushNumber(w: PostingsWriter, n: number): void {
  if (w.length + 8 > w.bytes.length) {
    const grown = new Uint8Array(w.bytes.length * 2);
    grown.set(w.bytes);
    w.bytes = grown;
  }
  let digits = 1;
  for (let rest = Math.floor(n / 32); rest > 0; rest = Math.floor(rest / 32)) digits++;
  for (let i = digits - 1; i >= 0; i--) {
    const digit = n % 32;
    n = Math.floor(n / 32);
    w.bytes[w.length + i] = DIGIT_CODES[i === digits - 1 ? 32 + digit : digit] as number;
  }
  w.length += digits;
}

/** Adds a document's positions (ascending; documents in ascending order), as encodePostings would. */
export function writeDocument(w: PostingsWriter, doc: number, positions: readonly number[]): void {
  const once = positions.length === 1 ? 1 : 0;
  pushNumber(w, (doc - w.previousDoc - 1) * 2 + once);
  w.previousDoc = doc;
  if (once === 0) pushNumber(w, positions.length);
  let previous = -1;
  for (const p of positions) {
    pushNumber(w, p - previous - 1);
    previous = p;
  }
}

const latin1 = new TextDecoder('latin1');

export function writtenPostings(w: PostingsWriter): string {
  return latin1.decode(w.bytes.subarray(0, w.length));
}

/** Whole numbers (≥ 0), packed. */
export function encodeNumbers(numbers: readonly number[]): string {
  const out: string[] = [];
  for (const n of numbers) writeNumber(n, out);
  return out.join('');
}

/** Postings packed; `previousDoc` is the document before the first (to pack them in pieces). */
export function encodePostings(
  postings: ReadonlyArray<readonly [number, readonly number[]]>,
  previousDoc = -1,
): string {
  const out: string[] = [];
  for (const [doc, positions] of postings) {
    // Most words occur once in a document: the gap's lowest bit says so, and the count is left out.
    const once = positions.length === 1 ? 1 : 0;
    writeNumber((doc - previousDoc - 1) * 2 + once, out);
    previousDoc = doc;
    if (once === 0) writeNumber(positions.length, out);
    let previous = -1;
    for (const p of positions) {
      writeNumber(p - previous - 1, out);
      previous = p;
    }
  }
  return out.join('');
}

/**
 * The postings of `encoded` (encodePostings's text) with document `doc`'s positions replaced by
 * `positions` (ascending), or the document left out when there are none: the text of
 * encodePostings of the changed list, made without decoding the rest. Only the numbers up to the
 * document are read; the gap of the document after it is written again (it counts from the one
 * before it), and what follows is kept as it is. Throws on a text that is not such a one.
 */
export function replaceDocument(encoded: string, doc: number, positions: readonly number[]): string {
  let i = 0;
  const next = (): number => {
    let n = 0;
    while (i < encoded.length) {
      const v = VALUE[encoded.charCodeAt(i++)] ?? -1;
      if (v < 0) break;
      if (v >= 32) return n * 32 + (v - 32);
      n = n * 32 + v;
    }
    throw new Error('not packed postings');
  };
  /** Past one document's positions, its gap read: `count` numbers (1 when the gap says so). */
  const skipPositions = (gap: number): void => {
    const count = gap % 2 === 1 ? 1 : next();
    for (let k = 0; k < count; k++) next();
  };
  // The document before `doc`, and where the first at or after it starts (and which it is).
  let previous = -1;
  let start = encoded.length;
  let found = -1;
  while (i < encoded.length) {
    const from = i;
    const gap = next();
    const d = previous + Math.floor(gap / 2) + 1;
    if (d >= doc) {
      start = from;
      found = d;
      break;
    }
    skipPositions(gap);
    previous = d;
  }
  const out: string[] = [encoded.slice(0, start)];
  let last = previous;
  if (positions.length > 0) {
    out.push(encodePostings([[doc, positions]], previous));
    last = doc;
  }
  // Where the document after `doc` starts: past doc's own when it was there.
  let after = start;
  if (found === doc) {
    i = start;
    skipPositions(next());
    after = i;
  }
  if (after < encoded.length) {
    // Its gap counts from the document now before it; the rest is kept as it is.
    i = after;
    const gap = next();
    const following = (found === doc ? doc : previous) + Math.floor(gap / 2) + 1;
    writeNumber((following - last - 1) * 2 + (gap % 2), out);
    out.push(encoded.slice(i));
  }
  return out.join('');
}

const utf8 = new TextEncoder();

/** The number of bytes of `term` in UTF-8 (a lone surrogate is U+FFFD's three, as TextEncoder writes it). */
function utf8Length(term: string): number {
  let n = 0;
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && ((term.charCodeAt(i + 1) || 0) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * Where each line of a shard's bytes made here starts, and its end (spliceShard reads them), by
 * the bytes: noted as they are written, kept while the bytes are.
 */
const lineStarts = new WeakMap<Uint8Array, Int32Array>();

/**
 * A shard's text in UTF-8: one line a word, `word<TAB>postings`, in ascending order of word.
 * Written straight into its bytes (the postings are ASCII: their length is their size): made as a
 * string of lines and then encoded, it cost about six times as much, and most of the watch mode's
 * patch after an edit of a long entry (55 shards).
 */
export function encodeShard(entries: ReadonlyArray<readonly [string, string]>): Uint8Array {
  let size = 0;
  for (const [term, postings] of entries) size += lineLength(term, postings);
  const out = new Uint8Array(size);
  const starts = new Int32Array(entries.length + 1);
  let at = 0;
  let line = 0;
  for (const [term, postings] of entries) {
    starts[line++] = at;
    at = writeLine(out, at, term, postings);
  }
  starts[line] = at;
  lineStarts.set(out, starts);
  return out;
}

/** The bytes of a shard's line of `term` (writeLine). */
const lineLength = (term: string, postings: string): number => utf8Length(term) + postings.length + 2;

/** Writes the line `term<TAB>postings<LF>` into `out` at `at` (room made for it); where it ends. */
function writeLine(out: Uint8Array, at: number, term: string, postings: string): number {
  const from = at;
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    if (c > 0x7f) {
      at = from + utf8.encodeInto(term, out.subarray(from)).written;
      break;
    }
    out[at++] = c;
  }
  out[at++] = 9;
  at += utf8.encodeInto(postings, out.subarray(at)).written;
  out[at++] = 10;
  return at;
}

/** Words in the shards' order: ascending UTF-16 code units. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Where each of the `count` lines of a shard's bytes starts, and its end; null when they are not `count`. */
function linesOf(bytes: Uint8Array, count: number): Int32Array | null {
  const kept = lineStarts.get(bytes);
  if (kept !== undefined) return kept.length === count + 1 ? kept : null;
  const starts = new Int32Array(count + 1);
  let line = 1;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) {
    if (line > count) return null;
    starts[line++] = at + 1;
  }
  return line === count + 1 && starts[count] === bytes.length ? starts : null;
}

/** Whether line `from` of a shard's bytes begins with `term` in UTF-8 and a tab. */
function lineOf(bytes: Uint8Array, from: number, term: string): boolean {
  let at = from;
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    if (c > 0x7f) {
      const own = utf8.encode(term.slice(i));
      for (let k = 0; k < own.length; k++) if (bytes[at + k] !== own[k]) return false;
      at += own.length;
      break;
    }
    if (bytes[at++] !== c) return false;
  }
  return bytes[at] === 9;
}

/**
 * The bytes encodeShard makes of a shard after some of its words changed, made from `before`:
 * encodeShard's bytes of the shard when it held `was` (in order). `changed` names every word whose
 * postings changed, came or went (any order); `postingsOf` gives a word's postings now, or
 * undefined when the shard no longer holds it. The lines between are copied as they are. The
 * watch mode's patch after an edit of an entry writes some fifty shards, each for a few of its
 * words: encoding every word of each again was a third of its time. Null when `before` is not
 * such bytes (its count of lines, or a copied run's first or last word, differs): the caller
 * encodes the shard whole.
 */
export function spliceShard(
  before: Uint8Array,
  was: readonly string[],
  changed: readonly string[],
  postingsOf: (word: string) => string | undefined,
): Uint8Array | null {
  const starts = linesOf(before, was.length);
  if (starts === null) return null;
  // The new shard as pieces: lines [from, to) of `before`, or a word and its postings.
  const pieces: Array<readonly [number, number] | readonly [string, string]> = [];
  let lines = 0;
  let size = 0;
  const copy = (from: number, to: number): boolean => {
    if (from === to) return true;
    if (!lineOf(before, starts[from] as number, was[from] as string)) return false;
    if (!lineOf(before, starts[to - 1] as number, was[to - 1] as string)) return false;
    pieces.push([from, to]);
    lines += to - from;
    size += (starts[to] as number) - (starts[from] as number);
    return true;
  };
  let i = 0;
  for (const word of [...new Set(changed)].sort(byCodeUnits)) {
    const at = lowerBound(was, word);
    if (!copy(i, at)) return null;
    i = was[at] === word ? at + 1 : at;
    const postings = postingsOf(word);
    if (postings === undefined) continue;
    pieces.push([word, postings]);
    lines++;
    size += lineLength(word, postings);
  }
  if (!copy(i, was.length)) return null;
  const out = new Uint8Array(size);
  const outStarts = new Int32Array(lines + 1);
  let at = 0;
  let line = 0;
  for (const [a, b] of pieces) {
    if (typeof a === 'number') {
      const to = b as number;
      const shift = at - (starts[a] as number);
      for (let k = a; k < to; k++) outStarts[line++] = (starts[k] as number) + shift;
      out.set(before.subarray(starts[a], starts[to]), at);
      at += (starts[to] as number) - (starts[a] as number);
    } else {
      outStarts[line++] = at;
      at = writeLine(out, at, a, b as string);
    }
  }
  outStarts[line] = at;
  lineStarts.set(out, outStarts);
  return out;
}
