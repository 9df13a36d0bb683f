// A result's snippet: a short excerpt around the first match, each matched word in
// <mark>…</mark>, HTML-escaped otherwise. The text is searched first, then the notes, then the
// title (a title is a date: an excerpt of it says little). Of a phrase, only its words where
// they stand in a row are marked.

import type { Fields } from './documents.ts';
import type { Term } from './query.ts';
import {
  mayStemTo,
  readRun,
  runStart,
  type TextWords,
  type Token,
  textWords,
  tokenize,
  tokenizeFrom,
} from './tokenize.ts';

const BEFORE = 8;
const AFTER = 16;

const SPECIAL = /[&<>"']/;

/** The fields a snippet looks in, in order: the text, the notes, the title. */
const FIELD_ORDER = [1, 2, 0] as const;

function escapeHtml(text: string): string {
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`) : text;
}

/** Collapses runs of white space, as an excerpt is one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/**
 * A field as a reader of many snippets of it keeps it: its text one line (oneLine) and that
 * text's words. Made once a field, not once an excerpt: the words are the same (white space is
 * never in a word, nor joins two), and an excerpt's pieces are cut at words, so collapsing the
 * field before cutting gives what collapsing the excerpt after did.
 */
export interface KeptField {
  text: string;
  words: TextWords;
}

/** A field as a reader of many snippets of it keeps it. */
export function keptField(field: string): KeptField {
  const text = oneLine(field);
  return { text, words: textWords(text) };
}

/**
 * The words of a field read for an excerpt: `length` of them, the i-th written at
 * [start(i), end(i)); `first` is the number in the field of the 0th; `marks` says which are part of
 * an occurrence, `at` where the first occurrence starts (-1: none).
 */
interface Read {
  length: number;
  /** Where the written run of read word i starts and ends: starts[base + i], ends[base + i]. */
  starts: ArrayLike<number>;
  ends: ArrayLike<number>;
  base: number;
  first: number;
  marks: boolean[];
  at: number;
}

/** Words read as tokens (tokenize.ts), as an excerpt reads them. */
function readOf(tokens: readonly Token[], first: number, marks: boolean[], at: number): Read {
  return {
    length: tokens.length,
    starts: tokens.map((t) => t.start),
    ends: tokens.map((t) => t.end),
    base: 0,
    first,
    marks,
    at,
  };
}

/**
 * Marks the occurrences of the terms that end at word `last` of those read (read word i's term is
 * `termOf[base + i]`), and gives where the first occurrence starts, `at` as it was or earlier.
 */
function markEnding(
  termOf: ArrayLike<string | undefined>,
  base: number,
  last: number,
  terms: readonly Term[],
  marks: boolean[],
  at: number,
): number {
  marks[last] = false;
  for (const term of terms) {
    const words = term.words;
    const n = words.length;
    const from = last - n + 1;
    if (from < 0) continue;
    let all = true;
    for (let k = 0; k < n && all; k++) all = termOf[base + from + k] === words[k];
    if (!all) continue;
    for (let k = from; k <= last; k++) marks[k] = true;
    if (at === -1 || from < at) at = from;
  }
  return at;
}

/** The first word an excerpt may show, given where the first occurrence starts (when known). */
const wordsBefore = (known: number | undefined): number => Math.max(0, (known ?? 0) - BEFORE);

/** The words it takes past the first occurrence's start: the excerpt's and a phrase's. */
function wordsPast(terms: readonly Term[]): number {
  let longest = 1;
  for (const term of terms) if (term.words.length > longest) longest = term.words.length;
  return AFTER + longest;
}

/**
 * The field's words up to a little past the first occurrence of one of the terms (enough for the
 * excerpt: a snippet need not read a long entry to its end). Only the words that may be one of
 * the terms are stemmed: a cold isolate's first search stems a thousand words otherwise.
 */
function firstMatch(text: string, terms: readonly Term[], skip: number, may: (word: string) => boolean): Read {
  const past = wordsPast(terms);
  const marks: boolean[] = [];
  const termOf: string[] = [];
  let at = -1;
  const { tokens, first } = tokenizeFrom(
    text,
    skip,
    (sofar) => {
      // Occurrences that end at each word read since the last call.
      for (let seen = termOf.length; seen < sofar.length; seen++) {
        termOf.push((sofar[seen] as Token).term);
        at = markEnding(termOf, 0, seen, terms, marks, at);
      }
      return at !== -1 && sofar.length > at + past;
    },
    may,
  );
  return readOf(tokens, first, marks, at);
}

/**
 * The same from a field's kept words (a caller that cuts many snippets of it): read by their
 * numbers, no word made an object, and those read before not read again.
 */
function firstMatchKept(text: string, terms: readonly Term[], known: number | undefined, words: TextWords): Read {
  const { starts, ends, terms: termOf } = words;
  const count = starts.length;
  const skip = wordsBefore(known);
  const first = skip >= count ? count : runStart(words, skip);
  const past = wordsPast(terms);
  const marks: boolean[] = [];
  let at = -1;
  // Where the index says the first occurrence starts, no word before it is marked: those words
  // are only cut around, not read.
  let k = known === undefined || known <= first || known >= count ? first : runStart(words, known);
  while (k < count) {
    const next = readRun(text, words, k);
    for (; k < next; k++) at = markEnding(termOf, first, k - first, terms, marks, at);
    if (at !== -1 && k - first > at + past) break;
  }
  return { length: k - first, starts, ends, base: first, first, marks, at };
}

/**
 * The excerpt around word `at` of those read (`read.at`, or the first words when no word matched),
 * made one line unless the text already is.
 */
function excerpt(text: string, read: Read, at: number, isOneLine: boolean): string {
  const { starts, ends, base, marks } = read;
  const lo = Math.max(0, at - BEFORE);
  const hi = Math.min(read.length - 1, at + AFTER);
  const inside = read.first + lo > 0;
  // Cut when words follow the excerpt's last (the words read may stop short of the field's end).
  const cut = hi < read.length - 1;
  let out = inside ? '… ' : '';
  // A whole field is shown with its punctuation; a cut one from its first word to its last.
  let cursor = inside ? (starts[base + lo] as number) : 0;
  for (let i = lo; i <= hi; i++) {
    const start = starts[base + i] as number;
    // Several words may come from one written run (a ligature): the run is marked once.
    if (start < cursor || marks[i] !== true) continue;
    const end = ends[base + i] as number;
    out += `${escapeHtml(text.slice(cursor, start))}<mark>${escapeHtml(text.slice(start, end))}</mark>`;
    cursor = end;
  }
  out += escapeHtml(text.slice(cursor, cut ? (ends[base + hi] as number) : text.length));
  // Once for the whole: a marked word holds no white space, and escaping makes none.
  if (!isOneLine) out = oneLine(out);
  return cut ? `${out} …` : out;
}

/**
 * The snippet of a document's fields for the terms a query looks for (not those it excludes).
 * `firstAt` may say, for each field, the number of the word where the first occurrence starts
 * (-1 for none), as the index knows it: the field is then read from a little before it, and
 * `keptOf` may give a field as a caller that cuts many snippets of it keeps it (keptField), so
 * that the words before are not read, nor those read before read again.
 */
export function snippet(
  fields: Fields,
  terms: readonly Term[],
  firstAt?: readonly number[],
  keptOf?: (field: number) => KeptField,
): string {
  const [title, text] = fields;
  // Once a snippet, for the fields it reads as text (up to three); not for kept fields.
  let may: ((word: string) => boolean) | undefined;
  for (const f of FIELD_ORDER) {
    const known = firstAt?.[f];
    if (known === -1) continue;
    const kept = keptOf?.(f);
    if (kept === undefined) {
      const field = fields[f] as string;
      may ??= mayStemTo(terms.flatMap((term) => term.words));
      const read = firstMatch(field, terms, wordsBefore(known), may);
      if (read.at !== -1) return excerpt(field, read, read.at, false).trim();
    } else {
      const read = firstMatchKept(kept.text, terms, known, kept.words);
      if (read.at !== -1) return excerpt(kept.text, read, read.at, true).trim();
    }
  }
  // Nothing to mark (a query of exclusions only): the text's first words.
  const field = text !== '' ? text : title;
  const tokens = tokenize(field, (sofar) => sofar.length > AFTER + 1);
  return tokens.length === 0 ? '' : excerpt(field, readOf(tokens, 0, [], 0), 0, false).trim();
}
