// The words of a text, as the index and the queries both see them: runs of letters and digits,
// case- and diacritic-insensitive (NFKD, combining marks dropped, lower case), stemmed by the
// Porter stemmer (the Snowball project's `porter`, the one SQLite FTS5's porter tokenizer uses).
// No stop words: "and so to bed" is four words.

// By its file, not its package name: Deno runs the edge function's modules as they are, with no
// package resolution (test/heavy/netlify-deno.test.ts); the file is one ES module importing
// nothing, the package's own English stemmer (package.json's exports name it for
// `@orama/stemmers/english`).
import { stemmer } from '../../../node_modules/@orama/stemmers/dist/en.js';

export interface Token {
  /** The stemmed, normalised word. */
  term: string;
  /** Where the word's run of letters is in the original text: [start, end). */
  start: number;
  end: number;
}

/** A character of a run (a letter, a mark or a digit), beyond ASCII. */
const RUN_CHAR = /[\p{L}\p{M}\p{N}]/u;

function inRun(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) ? 1 : 0;
  const size = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
  return RUN_CHAR.test(text.slice(i, i + size)) ? size : 0;
}

/**
 * Each run of letters, marks and digits in the text as written (NFKD may split one further):
 * what /[\p{L}\p{M}\p{N}]+/gu matches, by hand, as the build runs it over the whole text.
 */
function eachRun(text: string, visit: (start: number, end: number) => boolean | undefined): void {
  let i = 0;
  while (i < text.length) {
    let size = inRun(text, i);
    if (size === 0) {
      i++;
      continue;
    }
    const start = i;
    while (size > 0) {
      i += size;
      size = i < text.length ? inRun(text, i) : 0;
    }
    if (visit(start, i) === true) return;
  }
}
const MARKS = /\p{M}/gu;
const NOT_ALNUM = /[^\p{L}\p{N}]+/u;

/** A word as written to its normalised forms (usually one; a ligature or fraction may give more). */
function normalise(run: string): string[] {
  const plain = run.normalize('NFKD').replace(MARKS, '').toLowerCase();
  return plain.split(NOT_ALNUM).filter((w) => w !== '');
}

const memo = new Map<string, readonly string[]>();
const MEMO_SIZE = 200_000;

/** The stemmed words of one run as written; memoised, as texts repeat their words. */
function termsOfRun(run: string): readonly string[] {
  let found = memo.get(run);
  if (found === undefined) {
    found = normalise(run).map((word) => stemmer(word));
    if (memo.size >= MEMO_SIZE) memo.clear();
    memo.set(run, found);
  }
  return found;
}

/**
 * The words of a text with where each is written, in order, until `enough` says so (it is asked
 * after each written run, with the words so far).
 */
export function tokenize(text: string, enough?: (tokens: readonly Token[]) => boolean): Token[] {
  return tokenizeFrom(text, 0, enough).tokens;
}

/**
 * A text's words as a reader of many excerpts of it keeps them: where the written run of each
 * word starts and ends (a run that gives several words is named for each), and each word's term
 * once it has been read.
 */
export interface TextWords {
  starts: Int32Array;
  ends: Int32Array;
  terms: Array<string | undefined>;
}

const ASCII_WORD = /^[A-Za-z0-9]+$/;

/** The runs eachRun visits, found by the regular expression engine (native code from its first call). */
const runsOf = () => /[\p{L}\p{M}\p{N}]+/gu;

/** How many words a written run gives (cheaply: a run of ASCII letters and digits is one). */
function wordCount(run: string): number {
  return ASCII_WORD.test(run) ? 1 : termsOfRun(run).length;
}

/** The TextWords of a text, no term read yet. */
export function textWords(text: string): TextWords {
  const starts: number[] = [];
  const ends: number[] = [];
  const runs = runsOf();
  for (let m = runs.exec(text); m !== null; m = runs.exec(text)) {
    const n = wordCount(m[0]);
    for (let k = 0; k < n; k++) {
      starts.push(m.index);
      ends.push(m.index + m[0].length);
    }
  }
  return { starts: Int32Array.from(starts), ends: Int32Array.from(ends), terms: new Array(starts.length) };
}

/**
 * Characters that are never in a written run (no letter, mark or digit: test/search-query.test.ts
 * checks each): ASCII's punctuation, symbols, spaces and controls, Latin-1's, and the General
 * Punctuation block (dashes, curly quotes, the spaces of typesetting).
 */
export const BETWEEN_RUNS =
  '[\\x00-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\xa9\\xab-\\xb1\\xb4\\xb6-\\xb8\\xbb\\xbf\\xd7\\xf7\\u2000-\\u206f]';
/**
 * `n` written runs in a row, each of ASCII letters and digits only (one word each) and followed by
 * one of BETWEEN_RUNS or the end, with what comes before each. No Unicode classes: V8 compiles it
 * in a twentieth of the time those take, which a cold isolate pays.
 */
const simpleRuns = (n: number) => new RegExp(`(?:${BETWEEN_RUNS}*[A-Za-z0-9]+(?=${BETWEEN_RUNS}|$)){${n}}`, 'y');
/** The leaps a reader skipping words takes, longest first. */
const LEAPS = [64, 8].map((n) => ({ n, runs: simpleRuns(n) }));

/**
 * Leaps that may fail in a text before the skipping goes one run at a time: a text of many words
 * of another kind (a diary in French, in German) would have its leaps fail again and again, each
 * after reading up to 64 words for nothing.
 */
const FAILED_LEAPS = 4;

/**
 * Skips at most `words` words from `at` (not inside a written run), in leaps over written runs of
 * ASCII letters and digits (one word each), the regular expression engine reading them where a
 * loop of this module's would run in a cold isolate's interpreter: where it stopped, how many
 * words it skipped (none before a run of another kind, or a character not in BETWEEN_RUNS), and
 * whether a leap failed.
 */
function leap(text: string, at: number, words: number): { at: number; skipped: number; failed: boolean } {
  let skipped = 0;
  let failed = false;
  for (const { n, runs } of LEAPS) {
    while (words - skipped >= n) {
      runs.lastIndex = at;
      if (!runs.test(text)) {
        failed = true;
        break;
      }
      at = runs.lastIndex;
      skipped += n;
    }
  }
  return { at, skipped, failed };
}

/**
 * Whether a word written in ASCII letters and digits may stem to one of `terms`: a Porter stem is
 * its word's letters, lower-cased, up to its own last letter at most (over the whole diary's
 * words and six million made of them with every suffix the stemmer takes off, none differs from
 * its word before that letter: test/search-query.test.ts); two letters are kept in hand.
 */
export function mayStemTo(terms: readonly string[]): (word: string) => boolean {
  const heads = terms.map((term) => term.slice(0, Math.max(0, term.length - 2)));
  return (word) => {
    const lower = word.toLowerCase();
    for (const head of heads) if (lower.startsWith(head)) return true;
    return false;
  };
}

/**
 * As tokenize, but the first `skip` words are only counted (cheaply: a run of ASCII letters and
 * digits is one word), not returned; `first` is the number of the first word returned. A reader
 * that wants only some words' terms (an excerpt marks its query's) may say which a word of ASCII
 * letters and digits may be (mayStemTo): the others are not stemmed, and their term is ''. (A
 * reader that keeps the text's TextWords reads from them instead: runStart, readRun.)
 */
export function tokenizeFrom(
  text: string,
  skip: number,
  enough?: (tokens: readonly Token[]) => boolean,
  may?: (word: string) => boolean,
): { tokens: Token[]; first: number } {
  const tokens: Token[] = [];
  let counted = 0;
  // Until the run that holds word `skip`: a run after it is read whole however few words came
  // before (a run of several words, as "6½" is, may hold word `skip` and others after it).
  let skipping = skip > 0;
  const runs = runsOf();
  let failures = 0;
  for (;;) {
    if (skipping && failures < FAILED_LEAPS) {
      const leapt = leap(text, runs.lastIndex, skip - counted);
      runs.lastIndex = leapt.at;
      counted += leapt.skipped;
      if (leapt.failed) failures++;
    }
    const m = runs.exec(text);
    if (m === null) break;
    const run = m[0];
    if (skipping) {
      const n = wordCount(run);
      if (counted + n <= skip) {
        counted += n;
        continue;
      }
      skipping = false;
    }
    const start = m.index;
    const end = start + run.length;
    if (may !== undefined && ASCII_WORD.test(run) && !may(run)) tokens.push({ term: '', start, end });
    else for (const term of termsOfRun(run)) tokens.push({ term, start, end });
    if (enough?.(tokens) === true) break;
  }
  return { tokens, first: counted };
}

/** The first word of the written run that holds word `k` of a text's kept words. */
export function runStart(words: TextWords, k: number): number {
  const { starts } = words;
  let first = k;
  while (first > 0 && starts[first - 1] === starts[k]) first--;
  return first;
}

/**
 * Reads the words of the written run that begins at word `k` of a text's kept words (their terms,
 * once: they are kept), and gives the number of the word after the run.
 */
export function readRun(text: string, words: TextWords, k: number): number {
  const { starts, ends, terms } = words;
  const start = starts[k] as number;
  if (terms[k] === undefined) {
    const read = termsOfRun(text.slice(start, ends[k]));
    for (let j = 0; j < read.length; j++) terms[k + j] = read[j];
  }
  let next = k + 1;
  while (next < starts.length && starts[next] === start) next++;
  return next;
}

/**
 * Each run of a text as written, in order, with its stemmed words: for a caller that keeps its
 * own memo by written run (the index builder), so that a word costs it one lookup.
 */
export function eachWrittenRun(text: string, visit: (run: string) => void): void {
  eachRun(text, (start, end) => {
    visit(text.slice(start, end));
    return false;
  });
}

/** The stemmed words of one run as written (a run eachWrittenRun gave). */
export function runTerms(run: string): readonly string[] {
  return termsOfRun(run);
}

/** The stemmed words of a text, in order. */
export function terms(text: string): string[] {
  const out: string[] = [];
  eachRun(text, (start, end) => {
    for (const term of termsOfRun(text.slice(start, end))) out.push(term);
    return false;
  });
  return out;
}
