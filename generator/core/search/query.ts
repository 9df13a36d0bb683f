// A `search` parameter to its query, read like Postgres's websearch_to_tsquery: words are AND-ed,
// "a quoted phrase" matches its words adjacent and in order, `or` between two terms makes either
// do, `-term` excludes. Lenient: an unbalanced quote runs to the end, stray operators are ignored.
// A word that the tokenizer splits (don't, 1/2) is a phrase of its parts, as in Postgres.

import type { ApiError } from '../errors.ts';
import { fail, ok, type Result } from '../result.ts';
import { terms } from './tokenize.ts';

/** Words that must appear in a row (one word is a phrase of one). */
export interface Term {
  words: string[];
  negated: boolean;
}

/** Every clause must hold; a clause holds when any of its terms does. */
export interface SearchQuery {
  clauses: Term[][];
}

export const MAX_SEARCH_LENGTH = 500;
export const MAX_SEARCH_TERMS = 32;

export function invalidSearch(reason: string): ApiError {
  return { status: 400, detail: `Invalid "search" parameter: ${reason}` };
}

/** C0 and C1 controls and DEL (written as a property: Biome forbids them in a character class). */
const CONTROL = /\p{Cc}/u;

interface Item {
  term: Term;
  /** Joined to the item before it by `or`. */
  or: boolean;
}

/** The items of a query as written: phrases and words, each perhaps negated, and `or`s. */
function items(raw: string): Item[] {
  const out: Item[] = [];
  let i = 0;
  let pendingOr = false;
  while (i < raw.length) {
    const c = raw[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    let negated = false;
    if (c === '-') {
      negated = true;
      i++;
      if (i >= raw.length || /\s/.test(raw[i] as string)) continue;
    }
    let text: string;
    let quoted = false;
    if (raw[i] === '"') {
      const close = raw.indexOf('"', i + 1);
      const end = close === -1 ? raw.length : close;
      text = raw.slice(i + 1, end);
      i = end + 1;
      quoted = true;
    } else {
      const start = i;
      while (i < raw.length && !/\s/.test(raw[i] as string) && raw[i] !== '"') i++;
      text = raw.slice(start, i);
    }
    if (!quoted && !negated && text.toLowerCase() === 'or') {
      // `or` joins the terms either side; at the start, twice or at the end, it is ignored.
      if (out.length > 0) pendingOr = true;
      continue;
    }
    const words = terms(text);
    if (words.length === 0) continue;
    out.push({ term: { words, negated }, or: pendingOr });
    pendingOr = false;
  }
  return out;
}

/** The query a non-empty `search` asks, or 400 saying what is wrong with it. */
export function parseSearch(raw: string): Result<SearchQuery, ApiError> {
  if ([...raw].length > MAX_SEARCH_LENGTH)
    return fail(invalidSearch(`it is longer than ${MAX_SEARCH_LENGTH} characters.`));
  if (CONTROL.test(raw)) return fail(invalidSearch('it contains a control character.'));
  const all = items(raw);
  const count = all.reduce((n, item) => n + item.term.words.length, 0);
  if (count > MAX_SEARCH_TERMS)
    return fail(invalidSearch(`it has ${count} words; a search may have at most ${MAX_SEARCH_TERMS}.`));
  const clauses: Term[][] = [];
  for (const item of all) {
    const last = clauses[clauses.length - 1];
    if (item.or && last !== undefined) last.push(item.term);
    else clauses.push([item.term]);
  }
  return ok({ clauses });
}

/** Is `search` absent or blank (no filter at all)? */
export function isBlankSearch(search: string | undefined): boolean {
  return search === undefined || search.trim() === '';
}

export type Ordering = 'natural' | 'relevance';

/** The `ordering` parameter: absent or empty is the list's natural order. */
export function parseOrdering(raw: string | undefined): Result<Ordering, ApiError> {
  if (raw === undefined || raw === '') return ok('natural');
  if (raw === 'relevance') return ok('relevance');
  return fail({
    status: 400,
    detail: `Invalid "ordering" parameter: ${JSON.stringify(raw)}. Expected "relevance" (or nothing, for the list's own order).`,
  });
}
