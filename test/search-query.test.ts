// The `search` parameter read like websearch_to_tsquery, and the inputs it refuses.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_SEARCH_LENGTH,
  MAX_SEARCH_TERMS,
  parseOrdering,
  parseSearch,
  type SearchQuery,
} from '../generator/core/search/query.ts';
import {
  readRun,
  runStart,
  type Token,
  terms,
  textWords,
  tokenize,
  tokenizeFrom,
} from '../generator/core/search/tokenize.ts';

function parsed(raw: string): SearchQuery {
  const p = parseSearch(raw);
  if (!p.ok) throw new Error(p.error.detail);
  return p.value;
}
const w = (...words: string[]) => ({ words, negated: false });
const not = (...words: string[]) => ({ words, negated: true });

describe('tokenizer', () => {
  it('is case- and diacritic-insensitive, stems, and keeps stop words', () => {
    expect(terms('Plague plagues PLAGUED')).toEqual(['plagu', 'plagu', 'plagu']);
    expect(terms('Théorbo café')).toEqual(terms('theorbo cafe'));
    expect(terms('And so to bed.')).toEqual(['and', 'so', 'to', 'bed']);
  });

  // Pieces of text whose runs are not one ASCII word each: a ligature and a fraction (NFKD splits
  // or keeps them), marks, letters and digits beyond the BMP, typographic punctuation, and lone
  // surrogates (never in a run).
  const piece = fc.oneof(
    fc.constantFrom('and', 'so', 'to bed', 'ﬁre', '½', 'e\u0301t', 'Œuvre', '٣٤', '𝔭𝔢𝔭𝔶𝔰', '’', '—', ' ', '.'),
    fc.constantFrom('\ud835', '\udd2d', 'x\ud800y'),
    fc.string({ unit: 'grapheme', maxLength: 3 }),
  );
  const anyText = fc.array(piece, { maxLength: 30 }).map((ps) => ps.join(''));

  it('skips words as it reads them: from word `skip` on, the words of a whole reading', () => {
    fc.assert(
      fc.property(anyText, fc.nat({ max: 40 }), (text, skip) => {
        const all = tokenize(text);
        // Word `skip` is read with the other words of its written run, from the run's first.
        let first = Math.min(skip, all.length);
        while (first > 0 && first < all.length && all[first - 1]?.start === all[first]?.start) first--;
        const from = tokenizeFrom(text, skip);
        expect(from.first).toBe(first);
        expect(from.tokens).toEqual(all.slice(first));
        // And as a reader who keeps the text's words does (the snippets: search/snippet.ts), a
        // written run at a time, twice (the second time, the terms are those kept).
        const words = textWords(text);
        for (let round = 0; round < 2; round++) {
          const count = words.starts.length;
          const start = skip >= count ? count : runStart(words, skip);
          const kept: Token[] = [];
          for (let k = start; k < count; ) {
            const next = readRun(text, words, k);
            for (; k < next; k++)
              kept.push({
                term: words.terms[k] as string,
                start: words.starts[k] as number,
                end: words.ends[k] as number,
              });
          }
          expect({ tokens: kept, first: start }).toEqual(from);
        }
      }),
      { numRuns: 500 },
    );
    // Word 1 is the second of "6½" (NFKD: 61⁄2): the runs after it are read, not skipped.
    expect(tokenizeFrom('6½d. and so to bed', 1).tokens.map((t) => t.term)).toEqual(terms('6½d. and so to bed'));
  });
});

describe('search query', () => {
  it('ANDs words, ORs around `or`, quotes phrases, excludes with -', () => {
    expect(parsed('plague')).toEqual({ clauses: [[w('plagu')]] });
    expect(parsed('lute or theorbo')).toEqual({ clauses: [[w('lute'), w('theorbo')]] });
    expect(parsed('"and so to bed" -wife')).toEqual({ clauses: [[w('and', 'so', 'to', 'bed')], [not('wife')]] });
    expect(parsed('king OR queen fire')).toEqual({ clauses: [[w('king'), w('queen')], [w('fire')]] });
    expect(parsed('"or"')).toEqual({ clauses: [[w('or')]] });
  });

  it('reads unbalanced quotes and stray operators leniently', () => {
    expect(parsed('"and so to')).toEqual({ clauses: [[w('and', 'so', 'to')]] });
    expect(parsed('or lute or')).toEqual({ clauses: [[w('lute')]] });
    expect(parsed('- lute -- "" !!')).toEqual({ clauses: [[w('lute')]] });
    expect(parsed("don't")).toEqual({ clauses: [[w('don', 't')]] });
  });

  it('never fails on text within the limits', () => {
    const raw = fc.string({ unit: 'grapheme', maxLength: 60 }).filter((s) => !/\p{Cc}/u.test(s));
    fc.assert(
      fc.property(raw, (s) => {
        const p = parseSearch(s);
        const count = p.ok ? p.value.clauses.flat().reduce((n, t) => n + t.words.length, 0) : Number.NaN;
        expect(p.ok ? count <= MAX_SEARCH_TERMS : p.error.status === 400).toBe(true);
      }),
    );
  });

  it('refuses a search too long, with a control character or too many words, naming `search`', () => {
    const refusals = [
      'a'.repeat(MAX_SEARCH_LENGTH + 1),
      'lute\u0000',
      'lute\ttheorbo',
      Array.from({ length: MAX_SEARCH_TERMS + 1 }, () => 'x').join(' '),
    ];
    for (const raw of refusals) {
      const p = parseSearch(raw);
      expect(p.ok).toBe(false);
      if (!p.ok) {
        expect(p.error.status).toBe(400);
        expect(p.error.detail).toMatch(/^Invalid "search" parameter: /);
      }
    }
    expect(parseSearch('a'.repeat(MAX_SEARCH_LENGTH)).ok).toBe(true);
    expect(parseSearch(Array.from({ length: MAX_SEARCH_TERMS }, () => 'x').join(' ')).ok).toBe(true);
  });

  it('takes `ordering=relevance` or nothing', () => {
    expect(parseOrdering(undefined)).toEqual({ ok: true, value: 'natural' });
    expect(parseOrdering('relevance')).toEqual({ ok: true, value: 'relevance' });
    const bad = parseOrdering('date');
    expect(!bad.ok && bad.error.status === 400 && bad.error.detail.startsWith('Invalid "ordering"')).toBe(true);
  });
});
