// A query over the postings of its words: the matching documents, in the list's order or by
// relevance (BM25F: the title weighs more than the text, the text more than the notes; ties in
// the list's order). Pure: the caller has read the postings of every word the query names.

import type { Postings } from './postings.ts';
import type { Ordering, SearchQuery, Term } from './query.ts';

/** Every document has three fields (title, text, notes), numbered as one sequence of positions. */
export const FIELD_COUNT = 3;

export interface DocumentStats {
  /** How many documents (numbered 0 to count - 1, in the list's order). */
  count: number;
  /** The number of words of each field of each document: [doc * FIELD_COUNT + field]. */
  lengths: ArrayLike<number>;
  /** The weight of each field for relevance. */
  weights: readonly number[];
}

/**
 * The position of a document's first word of each field: fields follow one another with one
 * position left empty between them, so that no phrase runs from one into the next.
 */
function fieldStarts(lengths: ArrayLike<number>, doc: number): number[] {
  const starts: number[] = [];
  let p = 0;
  for (let f = 0; f < FIELD_COUNT; f++) {
    starts.push(p);
    p += (lengths[doc * FIELD_COUNT + f] as number) + 1;
  }
  return starts;
}

const NONE: Postings = new Map();

/** Where a phrase starts in each document that holds it. */
function phraseStarts(words: readonly string[], postings: ReadonlyMap<string, Postings>): Map<number, number[]> {
  const lists = words.map((w) => postings.get(w) ?? NONE);
  const found = new Map<number, number[]>();
  const first = lists[0] as Postings;
  for (const [doc, positions] of first) {
    let starts = positions;
    for (let k = 1; k < lists.length && starts.length > 0; k++) {
      const next = (lists[k] as Postings).get(doc);
      if (next === undefined) {
        starts = [];
        break;
      }
      const at = new Set(next);
      starts = starts.filter((p) => at.has(p + k));
    }
    if (starts.length > 0) found.set(doc, starts);
  }
  return found;
}

const K1 = 1.2;
const B = 0.75;

/** The documents that match a query, in the order asked. */
export function search(
  query: SearchQuery,
  stats: DocumentStats,
  postings: ReadonlyMap<string, Postings>,
  ordering: Ordering,
): number[] {
  const { count } = stats;
  if (query.clauses.length === 0) return [];
  const occurrences = new Map<Term, Map<number, number[]>>();
  for (const clause of query.clauses)
    for (const term of clause) occurrences.set(term, phraseStarts(term.words, postings));

  const matches: number[] = [];
  for (let doc = 0; doc < count; doc++) {
    const all = query.clauses.every((clause) =>
      clause.some((term) => (occurrences.get(term) as Map<number, number[]>).has(doc) !== term.negated),
    );
    if (all) matches.push(doc);
  }
  if (ordering === 'natural' || matches.length < 2) return matches;

  const positive = [...occurrences].filter(([term]) => !term.negated);
  const weightedLength = (doc: number): number => {
    let n = 0;
    for (let f = 0; f < FIELD_COUNT; f++)
      n += (stats.weights[f] as number) * (stats.lengths[doc * FIELD_COUNT + f] as number);
    return n;
  };
  let total = 0;
  for (let doc = 0; doc < count; doc++) total += weightedLength(doc);
  const average = count > 0 && total > 0 ? total / count : 1;
  const score = new Map<number, number>();
  for (const doc of matches) {
    const starts = fieldStarts(stats.lengths, doc);
    const norm = K1 * (1 - B + (B * weightedLength(doc)) / average);
    let s = 0;
    for (const [, found] of positive) {
      const at = found.get(doc);
      if (at === undefined) continue;
      let tf = 0;
      for (const p of at) {
        let f = FIELD_COUNT - 1;
        while (f > 0 && p < (starts[f] as number)) f--;
        tf += stats.weights[f] as number;
      }
      const df = found.size;
      const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
      s += (idf * tf * (K1 + 1)) / (tf + norm);
    }
    score.set(doc, s);
  }
  return matches.sort((a, b) => (score.get(b) as number) - (score.get(a) as number) || a - b);
}
