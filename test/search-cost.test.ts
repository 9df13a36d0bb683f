// What a search may cost (issue 36, item 4): the engine's relevance and snippet places are those
// of reading every position (same bytes as before it read fewer), and a query that asks more of the
// index than MAX_SEARCH_WORK is refused with the contract's 400, the same way every time, while
// the queries of ordinary readers stay far below the bound.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../generator/content/config.ts';
import { handle } from '../generator/core/handler.ts';
import type { Entry, Model } from '../generator/core/model.ts';
import type { Fields } from '../generator/core/search/documents.ts';
import {
  type DocumentStats,
  FIELD_COUNT,
  MAX_SEARCH_WORK,
  search,
  searchWithPlaces,
  searchWork,
} from '../generator/core/search/engine.ts';
import { parseSearchDocs } from '../generator/core/search/index-file.ts';
import { decodePostings, findInShard, type Postings, shardOf } from '../generator/core/search/postings.ts';
import { parseSearch, type SearchQuery } from '../generator/core/search/query.ts';
import { collectionIndexFiles } from '../generator/render/search-index.ts';
import { asText } from './helpers/files.ts';
import { renderedSite } from './helpers/rendered.ts';

const WORDS = ['and', 'the', 'so', 'to', 'bed', 'lute', 'king', 'plague', 'of', 'my'];
const word = fc.constantFrom(...WORDS);
const text = fc.array(word, { maxLength: 30 }).map((ws) => ws.join(' '));
const collection = fc.array(fc.tuple(text, text, text) as fc.Arbitrary<Fields>, { minLength: 1, maxLength: 10 });
const queryText = fc
  .array(
    fc.record({ words: fc.array(word, { minLength: 1, maxLength: 3 }), negated: fc.boolean(), or: fc.boolean() }),
    { minLength: 1, maxLength: 6 },
  )
  .map((items) =>
    items.map((it, i) => `${i > 0 && it.or ? 'or ' : ''}${it.negated ? '-' : ''}"${it.words.join(' ')}"`).join(' '),
  );

function indexOf(docs: readonly Fields[]) {
  const files = new Map(
    collectionIndexFiles('entries', docs.length, (i) => docs[i] as Fields).map((f) => [f.path, asText(f.body)]),
  );
  const parsed = parseSearchDocs(files.get('_data/search/entries/docs.json') as string);
  if (!parsed.ok) throw new Error(parsed.error);
  const stats: DocumentStats = { count: docs.length, lengths: parsed.value.lengths, weights: [4, 1, 0.5] };
  const postingsOf = (query: SearchQuery): Map<string, Postings> => {
    const found = new Map<string, Postings>();
    for (const term of query.clauses.flat())
      for (const w of term.words) {
        const shard = files.get(`_data/search/entries/${shardOf(w, parsed.value.shards)}.txt`) as string;
        found.set(w, decodePostings(findInShard(shard, w)) as Postings);
      }
    return found;
  };
  return { stats, postingsOf };
}

/** Where each field starts in a document's positions (the build's numbering: one gap between). */
function starts(stats: DocumentStats, doc: number): number[] {
  const s = [0];
  for (let f = 1; f < FIELD_COUNT; f++)
    s.push((s[f - 1] as number) + (stats.lengths[doc * FIELD_COUNT + f - 1] as number) + 1);
  return s;
}

/** The field of a position, and its place in the field. */
function placeOf(s: readonly number[], p: number): [number, number] {
  let f = FIELD_COUNT - 1;
  while (f > 0 && p < (s[f] as number)) f--;
  return [f, p - (s[f] as number)];
}

/** The positions of each phrase of a query, found by reading every position of its words. */
function phrasePositions(words: readonly string[], postings: Map<string, Postings>, doc: number): number[] {
  const at = (w: string): number[] => {
    const p = postings.get(w) as Postings;
    const i = p.indexOf(doc);
    return i === -1 ? [] : Array.from(p.positions.subarray(p.at[i], p.at[i + 1]));
  };
  const lists = words.map(at);
  return (lists[0] as number[]).filter((start) => lists.every((l, k) => l.includes(start + k)));
}

/**
 * BM25F as it was computed before (engine.ts at 01ad981): each matching document asks each term
 * for its positions there and adds each position's field weight, one at a time.
 */
function rankedByEveryPosition(
  query: SearchQuery,
  stats: DocumentStats,
  postings: Map<string, Postings>,
  matches: number[],
): number[] {
  const positive = query.clauses.flat().filter((t) => !t.negated);
  const weighted = (doc: number) =>
    [0, 1, 2].reduce((n, f) => n + (stats.weights[f] as number) * (stats.lengths[doc * FIELD_COUNT + f] as number), 0);
  let total = 0;
  for (let doc = 0; doc < stats.count; doc++) total += weighted(doc);
  const average = stats.count > 0 && total > 0 ? total / stats.count : 1;
  const dfOf = (words: string[]) => {
    let n = 0;
    for (let doc = 0; doc < stats.count; doc++) if (phrasePositions(words, postings, doc).length > 0) n++;
    return n;
  };
  const score = new Map<number, number>();
  for (const doc of matches) {
    const s0 = starts(stats, doc);
    const norm = 1.2 * (1 - 0.75 + (0.75 * weighted(doc)) / average);
    let s = 0;
    for (const term of positive) {
      const ps = phrasePositions(term.words, postings, doc);
      if (ps.length === 0) continue;
      let tf = 0;
      for (const p of ps) tf += stats.weights[placeOf(s0, p)[0]] as number;
      const df = dfOf(term.words);
      const idf = Math.log(1 + (stats.count - df + 0.5) / (df + 0.5));
      s += (idf * tf * 2.2) / (tf + norm);
    }
    score.set(doc, s);
  }
  return [...matches].sort((a, b) => (score.get(b) as number) - (score.get(a) as number) || a - b);
}

describe('the engine reads fewer positions, and answers the same', () => {
  it('ranks exactly as BM25F summed position by position', () => {
    fc.assert(
      fc.property(collection, queryText, (docs, raw) => {
        const parsed = parseSearch(raw);
        if (!parsed.ok) return;
        const { stats, postingsOf } = indexOf(docs);
        const postings = postingsOf(parsed.value);
        const natural = search(parsed.value, stats, postings, 'natural');
        expect(search(parsed.value, stats, postings, 'relevance')).toEqual(
          rankedByEveryPosition(parsed.value, stats, postings, natural),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('gives the first place of a match in each field as reading every position does', () => {
    fc.assert(
      fc.property(collection, queryText, (docs, raw) => {
        const parsed = parseSearch(raw);
        if (!parsed.ok) return;
        const { stats, postingsOf } = indexOf(docs);
        const postings = postingsOf(parsed.value);
        const found = searchWithPlaces(parsed.value, stats, postings, 'natural');
        for (const doc of found.docs) {
          const first = [-1, -1, -1];
          for (const term of parsed.value.clauses.flat())
            if (!term.negated)
              for (const p of phrasePositions(term.words, postings, doc)) {
                const [f, at] = placeOf(starts(stats, doc), p);
                if (first[f] === -1 || at < (first[f] as number)) first[f] = at;
              }
          expect(found.firstAt(doc)).toEqual(first);
        }
      }),
      { numRuns: 300 },
    );
  });
});

// A diary of common words: 12 days of 21,000 words each, `and the so to my` over and over.
const T = '2026-01-01T00:00:00Z';
const entries: Entry[] = Array.from({ length: 12 }, (_, i) => ({
  date: new Date(Date.UTC(1660, 0, 1 + i)).toISOString().slice(0, 10),
  title: `Day ${i}`,
  entryHTML: `<p>${'and the so to my '.repeat(4200)}${i % 2 === 0 ? 'lute' : 'plague'}.</p>`,
  footnotesHTML: '',
  annotationCount: 0,
  lastAnnotationTime: null,
  topicIds: [],
  lastModifiedTime: T,
}));
const model: Model = {
  config: { ...DEFAULT_CONFIG, apiOrigin: 'https://api.test', siteOrigin: 'https://site.test', lastModifiedTime: T },
  entries,
  categories: [],
  topics: [],
  topicEntries: new Map(),
  categoryTopics: new Map(),
  categoryChildren: new Map(),
  categoryAncestors: new Map(),
};
const { files, site } = renderedSite(model);

async function get(query: string) {
  const r = await handle(
    { method: 'GET', path: '/api/v1/entries', query, header: () => null },
    site,
    (file) => files.get(file) ?? null,
  );
  return { status: r.status, json: JSON.parse(new TextDecoder().decode(r.body)) };
}

/** 16 phrases of two of the commonest words, each pair once. */
const PHRASES = ['and the', 'the so', 'so to', 'to my', 'my and', 'the and', 'so the', 'to so', 'my to', 'and my']
  .map((p) => `"${p}"`)
  .join(' or ');

describe('a bound on the work of a search', () => {
  it('refuses, with the contract 400, a query that asks more than the bound of the index', async () => {
    const r = await get(`search=${encodeURIComponent(PHRASES)}&ordering=relevance`);
    expect(r.status).toBe(400);
    expect(r.json.detail).toMatch(/^Invalid "search" parameter: its words are too common to search together \(\d+/);
    expect(r.json.detail).toContain(`at most ${MAX_SEARCH_WORK}`);
    // The same answer every time: a count of postings, not a time.
    expect((await get(`search=${encodeURIComponent(PHRASES)}&ordering=relevance`)).json).toEqual(r.json);
    // Without `or` too: the phrases are found before they are intersected.
    expect((await get(`search=${encodeURIComponent(PHRASES.replaceAll(' or ', ' '))}`)).status).toBe(400);
  });

  it('answers the queries below it as before', async () => {
    const lute = await get('search=lute+or+plague&ordering=relevance');
    expect(lute.status).toBe(200);
    expect(lute.json.totalResults).toBe(12);
    const phrase = await get(`search=${encodeURIComponent('"and the so to my lute"')}`);
    expect(phrase.json.totalResults).toBe(6);
  });

  it('counts the postings a query visits from their sizes alone', () => {
    const docs: Fields[] = [
      ['a', 'and the and the', ''],
      ['b', 'the', 'and'],
    ];
    const { stats, postingsOf } = indexOf(docs);
    const work = (raw: string) => {
      const q = parseSearch(raw);
      if (!q.ok) throw new Error('parse');
      return searchWork(q.value, stats.count, postingsOf(q.value));
    };
    // A word: its documents. A phrase: its words' documents, and one look-up of each other word
    // for each occurrence of the rarest (`and`: 3 occurrences, `the`: 3).
    expect(work('the')).toBe(2);
    expect(work('the or and')).toBe(4);
    expect(work('"and the"')).toBe(2 + 2 + 3);
    expect(work('the the the')).toBe(6);
    // Exclusions only: every document is asked about each term.
    expect(work('-the -and')).toBe(2 + 2 + 2 * 2);
    expect(work('nothing')).toBe(0);
  });
});
