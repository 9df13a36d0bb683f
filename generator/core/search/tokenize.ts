// The words of a text, as the index and the queries both see them: runs of letters and digits,
// case- and diacritic-insensitive (NFKD, combining marks dropped, lower case), stemmed by the
// Porter stemmer (the Snowball project's `porter`, the one SQLite FTS5's porter tokenizer uses).
// No stop words: "and so to bed" is four words.

import { stemmer } from '@orama/stemmers/english';

export interface Token {
  /** The stemmed, normalised word. */
  term: string;
  /** Where the word's run of letters is in the original text: [start, end). */
  start: number;
  end: number;
}

/** A run of letters, marks and digits in the text as written (NFKD may split one further). */
const RUN = /[\p{L}\p{M}\p{N}]+/gu;
const MARKS = /\p{M}/gu;
const NOT_ALNUM = /[^\p{L}\p{N}]+/u;

/** A word as written to its normalised forms (usually one; a ligature or fraction may give more). */
function normalise(run: string): string[] {
  const plain = run.normalize('NFKD').replace(MARKS, '').toLowerCase();
  return plain.split(NOT_ALNUM).filter((w) => w !== '');
}

const stems = new Map<string, string>();

/** The stem of a normalised word; memoised, as texts repeat their words. */
function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    s = stemmer(word);
    if (stems.size < 200_000) stems.set(word, s);
  }
  return s;
}

/** Every word of a text with where it is written. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(RUN)) {
    const start = m.index;
    const end = start + m[0].length;
    for (const word of normalise(m[0])) tokens.push({ term: stem(word), start, end });
  }
  return tokens;
}

/** The stemmed words of a text, in order. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(RUN)) for (const word of normalise(m[0])) out.push(stem(word));
  return out;
}
