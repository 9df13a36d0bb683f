// A query over the postings of its words: the matching documents, in the list's order or by
// relevance (BM25F: the title weighs more than the text, the text more than the notes; ties in
// the list's order). Pure: the caller has read the postings of every word the query names.

import { indexIn, type Positions, type Postings, postingsOf } from './postings.ts';
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

const NONE: Postings = postingsOf([]);

/** A word's documents, as an array (a clause's candidates). */
const docsOf = (p: Postings): number[] => Array.from(p.docs);

// Phrases found, by the postings of their first word (kept while those are: a runtime's cache of
// the shard holds them) and the phrase: a warm query does not intersect them again.
const phrasesFound = new WeakMap<Postings, Map<string, Postings>>();
const PHRASES_KEPT = 64;

/** Where a phrase starts in each document that holds it. */
function phraseStarts(words: readonly string[], postings: ReadonlyMap<string, Postings>): Postings {
  const lists = words.map((w) => postings.get(w) ?? NONE);
  const first = lists[0] as Postings;
  if (lists.length === 1) return first;
  const key = words.join(' ');
  let kept = phrasesFound.get(first);
  const hit = kept?.get(key);
  if (hit !== undefined) return hit;
  const found: Array<[number, Positions]> = [];
  // Driven by the word that occurs least (of "and so to bed", bed: 3,800 occurrences in the diary,
  // and 78,000): each of its occurrences is a candidate start, kept when every other word is where
  // the phrase puts it, the rarer first (they drop the most candidates soonest). The documents of
  // each list are ascending: each is read once, alongside the driver's.
  let r = 0;
  for (let k = 1; k < lists.length; k++)
    if ((lists[k] as Postings).occurrences < (lists[r] as Postings).occurrences) r = k;
  const driver = lists[r] as Postings;
  const others = lists
    .map((list, k) => ({ list, k, cursor: 0 }))
    .filter((o) => o.k !== r)
    .sort((a, b) => a.list.occurrences - b.list.occurrences || a.k - b.k);
  // Where each other word's positions in the document at hand are: [from, to) of its positions.
  const from = new Int32Array(others.length);
  const to = new Int32Array(others.length);
  /** Whether every other word is in `doc` (and where, in from and to). */
  const allIn = (doc: number): boolean => {
    for (let o = 0; o < others.length; o++) {
      const other = others[o] as (typeof others)[number];
      const { list } = other;
      let c = other.cursor;
      while (c < list.size && (list.docs[c] as number) < doc) c++;
      other.cursor = c;
      if (c === list.size || list.docs[c] !== doc) return false;
      from[o] = list.at[c] as number;
      to[o] = list.at[c + 1] as number;
    }
    return true;
  };
  for (let i = 0; i < driver.size; i++) {
    const doc = driver.docs[i] as number;
    if (!allIn(doc)) continue;
    const starts: number[] = [];
    for (let j = driver.at[i] as number, end = driver.at[i + 1] as number; j < end; j++) {
      const start = (driver.positions[j] as number) - r;
      let all = start >= 0;
      for (let o = 0; o < others.length && all; o++) {
        const other = others[o] as (typeof others)[number];
        all = indexIn(other.list.positions, start + other.k, from[o] as number, to[o] as number) !== -1;
      }
      if (all) starts.push(start);
    }
    if (starts.length > 0) found.push([doc, starts]);
  }
  const result = postingsOf(found);
  if (kept === undefined) {
    kept = new Map();
    phrasesFound.set(first, kept);
  }
  if (kept.size >= PHRASES_KEPT) kept.clear();
  kept.set(key, result);
  return result;
}

// The average weighted length of a collection's documents, by its lengths (kept while they are).
const averages = new WeakMap<object, number>();

function averageLength(stats: DocumentStats, weightedLength: (doc: number) => number): number {
  const key = stats.lengths as object;
  let average = averages.get(key);
  if (average === undefined) {
    let total = 0;
    for (let doc = 0; doc < stats.count; doc++) total += weightedLength(doc);
    average = stats.count > 0 && total > 0 ? total / stats.count : 1;
    averages.set(key, average);
  }
  return average;
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
  return searchWithPlaces(query, stats, postings, ordering).docs;
}

export interface Found {
  /** The matching documents, in the order asked. */
  docs: number[];
  /**
   * For a document, the number of the word where the first occurrence of a term the query looks
   * for (not one it excludes) starts in each field, or -1 (for the snippets).
   */
  firstAt: (doc: number) => number[];
}

/** search, and where the terms occur. */
export function searchWithPlaces(
  query: SearchQuery,
  stats: DocumentStats,
  postings: ReadonlyMap<string, Postings>,
  ordering: Ordering,
): Found {
  const { count } = stats;
  const occurrences = new Map<Term, Postings>();
  const firstAt = (doc: number): number[] => {
    const starts = fieldStarts(stats.lengths, doc);
    const first = [-1, -1, -1];
    for (const [term, found] of occurrences) {
      if (term.negated) continue;
      const i = found.indexOf(doc);
      if (i === -1) continue;
      const { positions } = found;
      for (let k = found.at[i] as number, end = found.at[i + 1] as number; k < end; k++) {
        const p = positions[k] as number;
        let f = FIELD_COUNT - 1;
        while (f > 0 && p < (starts[f] as number)) f--;
        const at = p - (starts[f] as number);
        if (first[f] === -1 || at < (first[f] as number)) first[f] = at;
      }
    }
    return first;
  };
  return { docs: matching(query, stats, postings, ordering, occurrences, count), firstAt };
}

function matching(
  query: SearchQuery,
  stats: DocumentStats,
  postings: ReadonlyMap<string, Postings>,
  ordering: Ordering,
  occurrences: Map<Term, Postings>,
  count: number,
): number[] {
  if (query.clauses.length === 0) return [];
  for (const clause of query.clauses)
    for (const term of clause) occurrences.set(term, phraseStarts(term.words, postings));

  // Only the documents of a clause without exclusions can match, when there is one: the smallest
  // such clause's documents are the candidates; else every document is.
  let candidates: number[] | null = null;
  let chosen: Term[] | null = null;
  for (const clause of query.clauses) {
    if (clause.some((term) => term.negated)) continue;
    const found = clause.map((term) => occurrences.get(term) as Postings);
    const size = found.reduce((n, docs) => n + docs.size, 0);
    if (candidates !== null && size >= candidates.length) continue;
    // One term's documents are already in ascending order (the postings' order).
    candidates =
      found.length === 1 ? docsOf(found[0] as Postings) : [...new Set(found.flatMap(docsOf))].sort((a, b) => a - b);
    chosen = clause;
  }
  // The candidates hold the clause they come from: only the others are asked.
  const others = query.clauses.filter((clause) => clause !== chosen);
  const holds = (doc: number): boolean =>
    others.every((clause) =>
      clause.some((term) => ((occurrences.get(term) as Postings).indexOf(doc) !== -1) !== term.negated),
    );
  const matches =
    candidates === null ? Array.from({ length: count }, (_, doc) => doc).filter(holds) : candidates.filter(holds);
  if (ordering === 'natural' || matches.length < 2) return matches;

  const positive = [...occurrences].filter(([term]) => !term.negated);
  const weightedLength = (doc: number): number => {
    let n = 0;
    for (let f = 0; f < FIELD_COUNT; f++)
      n += (stats.weights[f] as number) * (stats.lengths[doc * FIELD_COUNT + f] as number);
    return n;
  };
  const average = averageLength(stats, weightedLength);
  // By document number, for the sort to read without a lookup.
  const score = new Float64Array(count);
  for (const doc of matches) {
    const starts = fieldStarts(stats.lengths, doc);
    const norm = K1 * (1 - B + (B * weightedLength(doc)) / average);
    let s = 0;
    for (const [, found] of positive) {
      const i = found.indexOf(doc);
      if (i === -1) continue;
      const { positions } = found;
      let tf = 0;
      for (let k = found.at[i] as number, end = found.at[i + 1] as number; k < end; k++) {
        const p = positions[k] as number;
        let f = FIELD_COUNT - 1;
        while (f > 0 && p < (starts[f] as number)) f--;
        tf += stats.weights[f] as number;
      }
      const df = found.size;
      const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
      s += (idf * tf * (K1 + 1)) / (tf + norm);
    }
    score[doc] = s;
  }
  return matches.sort((a, b) => (score[b] as number) - (score[a] as number) || a - b);
}
