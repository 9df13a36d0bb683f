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
  BETWEEN_RUNS,
  mayStemTo,
  readRun,
  runStart,
  type Token,
  terms,
  textWords,
  tokenize,
  tokenizeFrom,
} from '../generator/core/search/tokenize.ts';

/** The first word read when `skip` are skipped: word `skip` is read with the others of its written run. */
function firstRead(all: readonly Token[], skip: number): number {
  let first = Math.min(skip, all.length);
  while (first > 0 && first < all.length && all[first - 1]?.start === all[first]?.start) first--;
  return first;
}

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
        const first = firstRead(all, skip);
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

  // Long texts, mostly of ASCII words (which the skipping leaps over, 64 and 8 at a time) and now
  // and then something it must step over one run at a time: a run of another kind, a character
  // of no run that it does not know, a run that is two words.
  const longText = fc
    .array(
      fc.oneof(
        { weight: 30, arbitrary: fc.constantFrom('and', 'so', 'to', 'bed', 'Plague', 'X1', '1665') },
        { weight: 30, arbitrary: fc.constantFrom(' ', ', ', '. ', ' — ', ' “', '” ', '’s ', '\n', '\u00a0') },
        { weight: 1, arbitrary: fc.constantFrom('café', 'e\u0301', '½', 'ﬁre', '€', '\u2e3b', 'x\ud800y', '٣') },
      ),
      { maxLength: 1500 },
    )
    .map((ps) => ps.join(''));

  it('skips long texts in leaps to the same word as one run at a time', () => {
    fc.assert(
      fc.property(longText, fc.nat({ max: 800 }), (text, skip) => {
        const all = tokenize(text);
        const first = firstRead(all, skip);
        const from = tokenizeFrom(text, skip, (sofar) => sofar.length >= 3);
        expect(from.first).toBe(first);
        expect(from.tokens).toEqual(all.slice(first, first + from.tokens.length));
        expect(from.tokens.length).toBeGreaterThanOrEqual(Math.min(3, all.length - first));
      }),
      { numRuns: 300 },
    );
  });

  it('knows no character of a run as one between runs', () => {
    const between = new RegExp(`^${BETWEEN_RUNS}$`);
    const inRun = /^[\p{L}\p{M}\p{N}]$/u;
    const wrong: string[] = [];
    let known = 0;
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      if (!between.test(ch)) continue;
      known++;
      if (inRun.test(ch)) wrong.push(`U+${c.toString(16)}`);
    }
    expect(wrong).toEqual([]);
    // The ASCII ones, Latin-1's, and the General Punctuation block.
    expect(known).toBeGreaterThan(200);
  });

  it('stems only the words that may be a term, and gives the others no term', () => {
    // Stems that are not their word's letters: happy → happi, agreed → agre, hoping → hope.
    const words = ['happy', 'happily', 'agreed', 'hoping', 'hopping', 'plague', 'plagues', 'bed', 'so', 'I', 'X1'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 40 }), fc.subarray(words), (ws, wanted) => {
        const text = ws.join(' ');
        const may = mayStemTo(wanted.flatMap((w) => terms(w)));
        const wantedTerms = new Set(wanted.flatMap((w) => terms(w)));
        const all = tokenize(text);
        const some = tokenizeFrom(text, 0, undefined, may).tokens;
        expect(some.map(({ start, end }) => [start, end])).toEqual(all.map(({ start, end }) => [start, end]));
        some.forEach((t, i) => {
          const real = (all[i] as Token).term;
          // A word that is a term is never left unstemmed; one given no term is none.
          if (wantedTerms.has(real)) expect(t.term).toBe(real);
          else expect(t.term === '' || t.term === real).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
    expect(mayStemTo(terms('happy'))('Happy')).toBe(true);
    expect(mayStemTo(terms('hoping'))('hoping')).toBe(true);
    expect(mayStemTo(terms('plague'))('bed')).toBe(false);
  });

  it('has every stem within two letters of its word, over words made with the suffixes Porter takes off', () => {
    const stems = [
      'happ',
      'agre',
      'hop',
      'relat',
      'condit',
      'valen',
      'possib',
      'gener',
      'nation',
      'sens',
      'form',
      'tri',
    ];
    const suffixes = [
      '',
      'y',
      'ies',
      'ied',
      'ying',
      'ily',
      'iness',
      'ed',
      'ing',
      'e',
      'es',
      's',
      'ss',
      'sses',
      'eed',
      'ational',
      'tional',
      'enci',
      'anci',
      'izer',
      'abli',
      'alli',
      'entli',
      'eli',
      'ousli',
      'ization',
      'ation',
      'ator',
      'alism',
      'iveness',
      'fulness',
      'ousness',
      'aliti',
      'iviti',
      'biliti',
      'bility',
      'icate',
      'ative',
      'alize',
      'iciti',
      'ical',
      'ful',
      'ness',
      'al',
      'ance',
      'ence',
      'er',
      'ic',
      'able',
      'ible',
      'ant',
      'ement',
      'ment',
      'ent',
      'ion',
      'ou',
      'ism',
      'ate',
      'iti',
      'ous',
      'ive',
      'ize',
      'ly',
      'bly',
      'ably',
      'edly',
      'll',
    ];
    const far: string[] = [];
    for (const stem of stems)
      for (const a of suffixes)
        for (const b of suffixes.slice(0, 24)) {
          const word = stem + a + b;
          if (!mayStemTo(terms(word))(word)) far.push(`${word} → ${terms(word)[0]}`);
        }
    expect(far).toEqual([]);
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
