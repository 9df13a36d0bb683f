// A result's snippet: a short excerpt around the first match, each matched word in
// <mark>…</mark>, HTML-escaped otherwise. The text is searched first, then the notes, then the
// title (a title is a date: an excerpt of it says little). Of a phrase, only its words where
// they stand in a row are marked.

import type { Fields } from './documents.ts';
import type { Term } from './query.ts';
import { type TextWords, type Token, tokenize, tokenizeFrom } from './tokenize.ts';

const BEFORE = 8;
const AFTER = 16;

const SPECIAL = /[&<>"']/;

function escapeHtml(text: string): string {
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`) : text;
}

/** Collapses runs of white space, as the excerpt is one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/**
 * The field's words up to a little past the first occurrence of one of the terms (enough for the
 * excerpt: a snippet need not read a long entry to its end), and which of them are part of an
 * occurrence. `at` is the first such word, or -1.
 */
function firstMatch(
  text: string,
  terms: readonly Term[],
  skip: number,
  words?: TextWords,
): { tokens: Token[]; first: number; marks: boolean[]; at: number } {
  const longest = Math.max(1, ...terms.map((t) => t.words.length));
  const marks: boolean[] = [];
  let at = -1;
  let seen = 0;
  const { tokens, first } = tokenizeFrom(
    text,
    skip,
    (sofar) => {
      // Occurrences that end at each word read since the last call.
      for (; seen < sofar.length; seen++) {
        marks.push(false);
        for (const term of terms) {
          const n = term.words.length;
          const from = seen - n + 1;
          if (from < 0) continue;
          let all = true;
          for (let k = 0; k < n && all; k++) all = sofar[from + k]?.term === term.words[k];
          if (!all) continue;
          for (let k = from; k <= seen; k++) marks[k] = true;
          if (at === -1 || from < at) at = from;
        }
      }
      return at !== -1 && sofar.length > at + AFTER + longest;
    },
    words,
  );
  return { tokens, first, marks, at };
}

/** The excerpt around tokens[at]; `first` is the number in the field of tokens[0]. */
function excerpt(text: string, tokens: readonly Token[], first: number, at: number, marks: readonly boolean[]): string {
  const lo = Math.max(0, at - BEFORE);
  const hi = Math.min(tokens.length - 1, at + AFTER);
  const from = tokens[lo] as Token;
  const last = tokens[hi] as Token;
  const inside = first + lo > 0;
  // Cut when words follow the excerpt's last (`tokens` may stop short of the field's end).
  const cut = hi < tokens.length - 1;
  let out = inside ? '… ' : '';
  // A whole field is shown with its punctuation; a cut one from its first word to its last.
  let cursor = inside ? from.start : 0;
  for (let i = lo; i <= hi; i++) {
    const t = tokens[i] as Token;
    // Several words may come from one written run (a ligature): the run is marked once.
    if (t.start < cursor || marks[i] !== true) continue;
    out += `${escapeHtml(text.slice(cursor, t.start))}<mark>${escapeHtml(text.slice(t.start, t.end))}</mark>`;
    cursor = t.end;
  }
  out += escapeHtml(text.slice(cursor, cut ? last.end : text.length));
  // Once for the whole: a marked word holds no white space, and escaping makes none.
  out = oneLine(out);
  return cut ? `${out} …` : out;
}

/**
 * The snippet of a document's fields for the terms a query looks for (not those it excludes).
 * `firstAt` may say, for each field, the number of the word where the first occurrence starts
 * (-1 for none), as the index knows it: the field is then read from a little before it, and
 * `wordsOf` may give a field's TextWords (kept by a caller that cuts many snippets of it), so
 * that the words before are not read, nor those read before read again.
 */
export function snippet(
  fields: Fields,
  terms: readonly Term[],
  firstAt?: readonly number[],
  wordsOf?: (field: number) => TextWords,
): string {
  const [title, text] = fields;
  for (const f of [1, 2, 0]) {
    const known = firstAt?.[f];
    if (known === -1) continue;
    const field = fields[f] as string;
    const skip = Math.max(0, (known ?? 0) - BEFORE);
    const { tokens, first, marks, at } = firstMatch(field, terms, skip, wordsOf?.(f));
    if (at !== -1) return excerpt(field, tokens, first, at, marks).trim();
  }
  // Nothing to mark (a query of exclusions only): the text's first words.
  const field = text !== '' ? text : title;
  const tokens = tokenize(field, (sofar) => sofar.length > AFTER + 1);
  return tokens.length === 0 ? '' : excerpt(field, tokens, 0, 0, []).trim();
}
