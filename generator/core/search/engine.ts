// A query over the postings of its words: the matching documents, in the list's order or by
// relevance (BM25F: the title weighs more than the text, the text more than the notes; ties in
// the list's order). Pure: the caller has read the postings of every word the query names.

import { type Postings, postingsFrom, postingsOf } from './postings.ts';
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

// Postings found to fit their statistics, by those statistics' lengths (checked once a word).
const fitting = new WeakMap<Postings, DocumentStats['lengths']>();

/**
 * Whether postings fit the statistics of their index: every document one of its `count`, and no
 * position past its document's last word (a document's positions ascend: its last is read). Postings
 * that do not are damage: a query would answer with records that do not hold its words.
 */
export function fitsDocuments(postings: Postings, stats: Pick<DocumentStats, 'count' | 'lengths'>): boolean {
  if (fitting.get(postings) === stats.lengths) return true;
  const { docs, at, positions, size } = postings;
  const { lengths } = stats;
  if (size > 0 && (docs[size - 1] as number) >= stats.count) return false;
  for (let i = 0; i < size; i++) {
    // Past the document's last word: its fields' words and a position between two fields
    // (fieldStarts), summed here rather than through an array a document.
    const first = (docs[i] as number) * FIELD_COUNT;
    let end = FIELD_COUNT - 1;
    for (let f = 0; f < FIELD_COUNT; f++) end += lengths[first + f] as number;
    if ((positions[(at[i + 1] as number) - 1] as number) >= end) return false;
  }
  fitting.set(postings, stats.lengths);
  return true;
}

/** A word's documents, as an array (a clause's candidates): by a loop, not Array.from's iterator. */
function docsOf(p: Postings): number[] {
  const docs: number[] = new Array(p.size);
  for (let i = 0; i < p.size; i++) docs[i] = p.docs[i] as number;
  return docs;
}

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
  // The phrase's documents and where it starts in each, as the postings' arrays are (no array
  // made a document: two common words make thousands).
  const docs: number[] = [];
  const at: number[] = [];
  const found: number[] = [];
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
    const mark = found.length;
    for (let j = driver.at[i] as number, end = driver.at[i + 1] as number; j < end; j++) {
      const start = (driver.positions[j] as number) - r;
      let all = start >= 0;
      for (let o = 0; o < others.length && all; o++) {
        const other = others[o] as (typeof others)[number];
        // The starts ascend, so each other word's place only moves on: from where it was, in leaps
        // (a word as common as the driver is found a step or two on, a rarer one by halving).
        const { positions } = other.list;
        const want = start + other.k;
        const place = gallop(positions, want, from[o] as number, to[o] as number);
        from[o] = place;
        all = place < (to[o] as number) && positions[place] === want;
      }
      if (all) found.push(start);
    }
    if (found.length > mark) {
      docs.push(doc);
      at.push(mark);
    }
  }
  at.push(found.length);
  const result = postingsFrom(Int32Array.from(docs), Int32Array.from(at), Int32Array.from(found));
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

/**
 * The most work a search may ask of the index (searchWork): past it, a search is refused
 * (core/search/answer.ts: 400), never cut short, so that what it answers never depends on the
 * time it took. Far above what searches of a few words ask on the whole diary (`the`: 3,401;
 * `"and so to bed"`: 24,620; `"of the"`: 45,768; the 32 commonest words, with `or` or without:
 * 89,872, 2–7 ms of CPU warm); below what 4 phrases of two of the commonest words may ask
 * (up to 220,000: 9–11 ms warm on a loaded machine, where the Cloudflare free plan allows 10 ms), or a
 * phrase of the 32 commonest (303,622: each occurrence of its rarest word may be looked up in 31
 * other lists). bench/search-cost.ts measures both sides.
 */
export const MAX_SEARCH_WORK = 150_000;

/**
 * The work a query asks of the engine, in postings visited, from the sizes of its words' postings
 * alone (not from what was found or kept before: the same query on the same index always counts
 * the same): a word, its documents (gathered, asked for by the other clauses, scored); a phrase,
 * the documents of each of its words (walked alongside one another) and, for each occurrence of
 * its rarest word, each other word looked up; a query of exclusions only, every document asked
 * about every term.
 */
export function searchWork(query: SearchQuery, count: number, postings: ReadonlyMap<string, Postings>): number {
  let work = 0;
  let terms = 0;
  let positive = false;
  for (const clause of query.clauses) {
    if (!clause.some((term) => term.negated)) positive = true;
    for (const term of clause) {
      terms++;
      const lists = term.words.map((w) => postings.get(w) ?? NONE);
      for (const list of lists) work += list.size;
      if (lists.length > 1) work += (lists.length - 1) * Math.min(...lists.map((list) => list.occurrences));
    }
  }
  return positive ? work : work + count * terms;
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
  const occurrences = new Map<Term, Postings>();
  const firstAt = (doc: number): number[] => {
    const starts = fieldStarts(stats.lengths, doc);
    const first = [-1, -1, -1];
    for (const [term, found] of occurrences) {
      if (term.negated) continue;
      const i = found.indexOf(doc);
      if (i === -1) continue;
      // The first position in each field, by a binary search of the field's start: the positions
      // are ascending (a term in every document of a long text has thousands).
      const { positions } = found;
      const end = found.at[i + 1] as number;
      for (let f = 0; f < FIELD_COUNT; f++) {
        const k = firstFrom(positions, starts[f] as number, found.at[i] as number, end);
        if (k === end) break;
        const p = positions[k] as number;
        if (f < FIELD_COUNT - 1 && p >= (starts[f + 1] as number)) continue;
        const at = p - (starts[f] as number);
        if (first[f] === -1 || at < (first[f] as number)) first[f] = at;
      }
    }
    return first;
  };
  return { docs: matching(query, stats, postings, ordering, occurrences), firstAt };
}

/** The first index in [lo, hi) of `sorted` (ascending) whose value is at least `value` (hi: none). */
function firstFrom(sorted: Int32Array, value: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * firstFrom, for a value likely near `lo`: leaps of 1, 2, 4… from it, then halving within the last
 * (a phrase's words walked alongside one another).
 */
function gallop(sorted: Int32Array, value: number, lo: number, hi: number): number {
  if (lo >= hi || (sorted[lo] as number) >= value) return lo;
  let step = 1;
  let below = lo;
  while (below + step < hi && (sorted[below + step] as number) < value) {
    below += step;
    step *= 2;
  }
  return firstFrom(sorted, value, below + 1, Math.min(hi, below + step + 1));
}

/** The documents of any of some postings, ascending. */
function union(found: readonly Postings[], count: number): number[] {
  if (found.length === 1) return docsOf(found[0] as Postings);
  // Marks, not a set: a clause of 32 common words names each document 32 times.
  const seen = new Uint8Array(count);
  const docs: number[] = [];
  for (const list of found)
    for (let i = 0; i < list.size; i++) {
      const doc = list.docs[i] as number;
      if (seen[doc] === 1) continue;
      seen[doc] = 1;
      docs.push(doc);
    }
  return docs.sort((a, b) => a - b);
}

function matching(
  query: SearchQuery,
  stats: DocumentStats,
  postings: ReadonlyMap<string, Postings>,
  ordering: Ordering,
  occurrences: Map<Term, Postings>,
): number[] {
  const { count } = stats;
  if (query.clauses.length === 0) return [];
  for (const clause of query.clauses)
    for (const term of clause) occurrences.set(term, phraseStarts(term.words, postings));

  // Only the documents of a clause without exclusions can match, when there is one: the smallest
  // such clause's documents (by the sum of its terms' documents; the first of equals) are the
  // candidates, gathered once; else every document is.
  let chosen: Term[] | null = null;
  let smallest = Number.POSITIVE_INFINITY;
  for (const clause of query.clauses) {
    if (clause.some((term) => term.negated)) continue;
    const size = clause.reduce((n, term) => n + (occurrences.get(term) as Postings).size, 0);
    if (size < smallest) {
      smallest = size;
      chosen = clause;
    }
  }
  // One term's documents are already in ascending order (the postings' order).
  const candidates =
    chosen === null
      ? null
      : union(
          chosen.map((term) => occurrences.get(term) as Postings),
          count,
        );
  // The candidates hold the clause they come from: only the others are asked, each term's
  // postings looked up once, not for each candidate.
  const others = query.clauses
    .filter((clause) => clause !== chosen)
    .map((clause) => clause.map((term) => ({ found: occurrences.get(term) as Postings, negated: term.negated })));
  const holds = (doc: number): boolean => {
    for (const clause of others) {
      let any = false;
      for (const { found, negated } of clause)
        if ((found.indexOf(doc) !== -1) !== negated) {
          any = true;
          break;
        }
      if (!any) return false;
    }
    return true;
  };
  // With no other clause to ask, the candidates are the matches.
  const matches =
    candidates === null
      ? Array.from({ length: count }, (_, doc) => doc).filter(holds)
      : others.length === 0
        ? candidates
        : candidates.filter(holds);
  if (ordering === 'natural' || matches.length < 2) return matches;
  const score = relevance(
    stats,
    matches,
    [...occurrences].filter(([term]) => !term.negated).map(([, p]) => p),
  );
  return matches.sort((a, b) => (score[b] as number) - (score[a] as number) || a - b);
}

/**
 * Each matching document's BM25F score, by document number. Term after term, each over its own
 * documents (not each match asking every term for itself), and a term's weighted frequency in a
 * document from how many of its positions fall in each field, found by a binary search of the
 * fields' starts, not by reading each position: a query of 32 common words read 600,000 positions
 * of the diary for its order. Same scores to the bit: a document's terms are added in the query's
 * order as before, and the weights (4, 1, 0.5) are dyadic, so w0·n0 + w1·n1 + w2·n2 is the sum of
 * each position's weight, exactly.
 */
function relevance(stats: DocumentStats, matches: readonly number[], positive: readonly Postings[]): Float64Array {
  const { count, lengths, weights } = stats;
  const weightedLength = (doc: number): number => {
    let n = 0;
    for (let f = 0; f < FIELD_COUNT; f++) n += (weights[f] as number) * (lengths[doc * FIELD_COUNT + f] as number);
    return n;
  };
  const average = averageLength(stats, weightedLength);
  const isMatch = new Uint8Array(count);
  // By document number: each match's norm.
  const norm = new Float64Array(count);
  for (const doc of matches) {
    isMatch[doc] = 1;
    norm[doc] = K1 * (1 - B + (B * weightedLength(doc)) / average);
  }
  const score = new Float64Array(count);
  for (const found of positive) {
    const df = found.size;
    const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
    const { docs } = found;
    const tfs = frequencies(found, stats);
    const add = (doc: number, i: number): void => {
      const tf = tfs[i] as number;
      score[doc] = (score[doc] as number) + (idf * tf * (K1 + 1)) / (tf + (norm[doc] as number));
    };
    // Over the term's documents, or over the matches when they are fewer (32 words, all asked:
    // 600 matches, 3,400 documents a word); a document's terms are added in the same order either way.
    if (matches.length < df)
      for (const doc of matches) {
        const i = found.indexOf(doc);
        if (i !== -1) add(doc, i);
      }
    else
      for (let i = 0; i < df; i++) {
        const doc = docs[i] as number;
        if (isMatch[doc] === 1) add(doc, i);
      }
  }
  return score;
}

// A word's weighted frequency in each of its documents, by its postings (kept while they are, for
// the statistics they were counted with: a warm query of common words reads no position again).
const frequenciesKept = new WeakMap<Postings, { stats: DocumentStats['lengths']; tf: Float64Array }>();

/**
 * The weighted frequency of a term in each document of its postings: how many of its positions fall
 * in each field (found by a binary search of the fields' starts, not by reading each position),
 * times the field's weight. The weights (4, 1, 0.5) are dyadic, so w0·n0 + w1·n1 + w2·n2 is the sum
 * of each position's weight to the bit.
 */
function frequencies(found: Postings, stats: DocumentStats): Float64Array {
  const kept = frequenciesKept.get(found);
  if (kept !== undefined && kept.stats === stats.lengths) return kept.tf;
  const { docs, at, positions, size } = found;
  const [w0, w1, w2] = stats.weights as [number, number, number];
  const tf = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    const starts = fieldStarts(stats.lengths, docs[i] as number);
    const from = at[i] as number;
    const end = at[i + 1] as number;
    const inSecond = firstFrom(positions, starts[1] as number, from, end);
    const inThird = firstFrom(positions, starts[2] as number, inSecond, end);
    tf[i] = w0 * (inSecond - from) + w1 * (inThird - inSecond) + w2 * (end - inThird);
  }
  frequenciesKept.set(found, { stats: stats.lengths, tf });
  return tf;
}
