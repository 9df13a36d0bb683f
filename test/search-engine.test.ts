// The search engine against a brute-force model: for random small collections and random
// queries, the sharded, packed index answers exactly what a linear scan of the same documents
// with the same tokenizer answers.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Fields } from '../generator/core/search/documents.ts';
import {
  type DocumentStats,
  FIELD_COUNT,
  fitsDocuments,
  search,
  searchWithPlaces,
} from '../generator/core/search/engine.ts';
import { parseSearchDocs } from '../generator/core/search/index-file.ts';
import {
  DIGITS,
  decodeNumbers,
  decodePostings,
  decodeShard,
  findInShard,
  type Postings,
  postingsList,
  postingsOf,
  shardOf,
} from '../generator/core/search/postings.ts';
import {
  encodeNumbers,
  encodePostings,
  encodeShard,
  replaceDocument,
  spliceShard,
} from '../generator/core/search/postings-writer.ts';
import { parseSearch, type SearchQuery, type Term } from '../generator/core/search/query.ts';
import { type KeptField, keptField, snippet } from '../generator/core/search/snippet.ts';
import { terms } from '../generator/core/search/tokenize.ts';
import { postingsMap } from '../generator/render/layered-postings.ts';
import {
  changeDocuments,
  collectionIndex,
  collectionIndexFiles,
  collectionIndexFilesOf,
} from '../generator/render/search-index.ts';
import { asText } from './helpers/files.ts';

/** A few words, some sharing a stem, some with diacritics, some that are stop words elsewhere. */
const VOCABULARY = [
  'and',
  'so',
  'to',
  'bed',
  'plague',
  'plagues',
  'Plagued',
  'lute',
  'théorbo',
  'Theorbo',
  'the',
  'or',
  'king',
  'kings',
  "don't",
  '1660',
  '½',
];
const word = fc.constantFrom(...VOCABULARY);
// Words apart as texts have them: a space, several, a line break, a tab, a no-break space.
const gap = fc.constantFrom(' ', ' ', ' ', '  ', '\n', ' \t', '\u00a0', ', ', '.\n\n');
const textOf = (words: number) =>
  fc.array(fc.tuple(word, gap), { maxLength: words }).map((ws) =>
    ws
      .map(([w, g]) => w + g)
      .join('')
      .trimEnd(),
  );
const text = textOf(40);
const fields: fc.Arbitrary<Fields> = fc.tuple(text, text, text);
const collection = fc.array(fields, { minLength: 1, maxLength: 12 });
/** Fields long enough that a first match is often past the words an excerpt shows before it. */
const longText = textOf(90);
const longCollection = fc.array(fc.tuple(longText, longText, longText) as fc.Arbitrary<Fields>, {
  minLength: 1,
  maxLength: 6,
});

/** A query as a reader writes it: words and phrases, some negated, some joined by `or`. */
const queryText = fc
  .array(
    fc.record({
      words: fc.array(word, { minLength: 1, maxLength: 3 }),
      quoted: fc.boolean(),
      negated: fc.boolean(),
      or: fc.boolean(),
    }),
    { minLength: 1, maxLength: 4 },
  )
  .map((items) =>
    items
      .map((item, i) => {
        const body = item.quoted ? `"${item.words.join(' ')}"` : (item.words[0] as string);
        return `${i > 0 && item.or ? 'or ' : ''}${item.negated ? '-' : ''}${body}`;
      })
      .join(' '),
  );

/** The index files of a collection, read back the way a search answer reads them. */
function indexOf(docs: readonly Fields[]) {
  const files = new Map(
    collectionIndexFiles('entries', docs.length, (i) => docs[i] as Fields).map((f) => [f.path, asText(f.body)]),
  );
  const parsed = parseSearchDocs(files.get('_data/search/entries/docs.json') as string);
  if (!parsed.ok) throw new Error(parsed.error);
  const stats: DocumentStats = { count: docs.length, lengths: parsed.value.lengths, weights: [4, 1, 0.5] };
  const postingsOf = (query: SearchQuery): Map<string, Postings> => {
    const found = new Map<string, Postings>();
    for (const clause of query.clauses)
      for (const term of clause)
        for (const w of term.words) {
          const shard = files.get(`_data/search/entries/${shardOf(w, parsed.value.shards)}.txt`) as string;
          found.set(w, decodePostings(findInShard(shard, w)) as Postings);
        }
    return found;
  };
  return { files, stats, postingsOf };
}

/** Does a phrase occur in a document? A linear scan of each field's words. */
function holds(doc: Fields, term: Term): boolean {
  const present = doc.some((field) => {
    const ws = terms(field);
    for (let i = 0; i + term.words.length <= ws.length; i++)
      if (term.words.every((w, k) => ws[i + k] === w)) return true;
    return false;
  });
  return present !== term.negated;
}

function bruteForce(docs: readonly Fields[], query: SearchQuery): number[] {
  if (query.clauses.length === 0) return [];
  return docs.flatMap((doc, i) => (query.clauses.every((clause) => clause.some((t) => holds(doc, t))) ? [i] : []));
}

describe('search engine', () => {
  it('finds exactly what a linear scan finds, in the list order', () => {
    fc.assert(
      fc.property(collection, queryText, (docs, raw) => {
        const parsed = parseSearch(raw);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const { stats, postingsOf } = indexOf(docs);
        expect(search(parsed.value, stats, postingsOf(parsed.value), 'natural')).toEqual(
          bruteForce(docs, parsed.value),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('cuts the same snippets with the places the index knows as by reading each field', () => {
    fc.assert(
      fc.property(fc.oneof(collection, longCollection), queryText, (docs, raw) => {
        const parsed = parseSearch(raw);
        if (!parsed.ok) return;
        const { stats, postingsOf } = indexOf(docs);
        const found = searchWithPlaces(parsed.value, stats, postingsOf(parsed.value), 'natural');
        const wanted = parsed.value.clauses.flat().filter((t) => !t.negated);
        for (const doc of found.docs) {
          const fields = docs[doc] as Fields;
          const expected = snippet(fields, wanted);
          expect(snippet(fields, wanted, found.firstAt(doc))).toBe(expected);
          // With the fields kept (one line, their words), as a server keeps them: the first time
          // and once read.
          const kept = fields.map(keptField);
          const keptOf = (f: number) => kept[f] as KeptField;
          expect(snippet(fields, wanted, found.firstAt(doc), keptOf)).toBe(expected);
          expect(snippet(fields, wanted, found.firstAt(doc), keptOf)).toBe(expected);
          expect(snippet(fields, wanted, undefined, keptOf)).toBe(expected);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('orders by relevance a permutation of the same matches, ties in list order', () => {
    fc.assert(
      fc.property(collection, queryText, (docs, raw) => {
        const parsed = parseSearch(raw);
        if (!parsed.ok) return;
        const { stats, postingsOf } = indexOf(docs);
        const natural = search(parsed.value, stats, postingsOf(parsed.value), 'natural');
        const ranked = search(parsed.value, stats, postingsOf(parsed.value), 'relevance');
        expect([...ranked].sort((a, b) => a - b)).toEqual(natural);
      }),
      { numRuns: 200 },
    );
  });

  it('ranks a match in the title above the same match in the notes', () => {
    const docs: Fields[] = [
      ['Monday', 'dined at home', 'a lute maker of that name'],
      ['Tuesday', 'dined at home', 'nothing of note here at all'],
      ['A lute', 'dined at home', 'nothing of note here at all'],
    ];
    const parsed = parseSearch('lute');
    if (!parsed.ok) throw new Error('parse');
    const { stats, postingsOf } = indexOf(docs);
    expect(search(parsed.value, stats, postingsOf(parsed.value), 'natural')).toEqual([0, 2]);
    expect(search(parsed.value, stats, postingsOf(parsed.value), 'relevance')).toEqual([2, 0]);
  });

  it('keeps phrases inside one field', () => {
    const docs: Fields[] = [['so to', 'bed and so', 'to bed']];
    const { stats, postingsOf } = indexOf(docs);
    const q = (raw: string) => {
      const p = parseSearch(raw);
      if (!p.ok) throw new Error('parse');
      return search(p.value, stats, postingsOf(p.value), 'natural');
    };
    expect(q('"and so to bed"')).toEqual([]);
    expect(q('"to bed"')).toEqual([0]);
    expect(stats.lengths.length).toBe(FIELD_COUNT);
  });
});

describe('the index changed a document at a time (the watch mode)', () => {
  it('gives the files a full index of the changed documents gives', () => {
    fc.assert(
      fc.property(collection, fc.array(fc.tuple(fc.nat(), fields), { minLength: 1, maxLength: 4 }), (docs, edits) => {
        let index = collectionIndex('entries', docs.length, (i) => docs[i] as Fields);
        const files = new Map(collectionIndexFilesOf(index).map((f) => [f.path, f.body]));
        // The same changes given the files as written (the watch mode's live tree): their shards
        // spliced from those bytes (spliceShard).
        let splicedIndex = index;
        const spliced = new Map(files);
        const now = [...docs];
        for (const [at, after] of edits) {
          const doc = at % now.length;
          const changed = changeDocuments(index, [{ doc, before: now[doc] as Fields, after }]);
          const fromWritten = changeDocuments(splicedIndex, [{ doc, before: now[doc] as Fields, after }], (path) =>
            spliced.get(path),
          );
          now[doc] = after;
          index = changed.index;
          splicedIndex = fromWritten.index;
          for (const f of changed.files) files.set(f.path, f.body);
          for (const f of fromWritten.files) spliced.set(f.path, f.body);
        }
        const full = collectionIndexFiles('entries', now.length, (i) => now[i] as Fields);
        // The files it gave, over the ones before, are the full index's: no file left stale.
        expect(new Map(full.map((f) => [f.path, f.body]))).toEqual(files);
        expect(spliced).toEqual(files);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the postings a full index has, word by word, over many changes (layered, then one Map again)', () => {
    // More edits than changes are layered (layered-postings.ts MAX_LAYERS), so that both the layers
    // and the Map they are copied into are asked; a word no document has any more has none.
    fc.assert(
      fc.property(collection, fc.array(fc.tuple(fc.nat(), fields), { minLength: 1, maxLength: 40 }), (docs, edits) => {
        let index = collectionIndex('entries', docs.length, (i) => docs[i] as Fields);
        const everWords = new Set(index.shardWords.flat());
        const now = [...docs];
        for (const [at, after] of edits) {
          const doc = at % now.length;
          index = changeDocuments(index, [{ doc, before: now[doc] as Fields, after }]).index;
          now[doc] = after;
          for (const word of index.shardWords.flat()) everWords.add(word);
        }
        const full = collectionIndex('entries', now.length, (i) => now[i] as Fields);
        expect(index.shardWords).toEqual(full.shardWords);
        for (const word of everWords) expect(index.postings.get(word)).toBe(full.postings.get(word));
        expect(postingsMap(index)).toEqual(postingsMap(full));
      }),
      { numRuns: 60 },
    );
  });
});

describe('postings checked against their statistics', () => {
  // Two documents: fields of 3, 0 and 2 words (positions 0-2, then 4, then 5-6: one position
  // between two fields), and of 1, 1 and 1 (0, 2, 4).
  const stats = { count: 2, lengths: [3, 0, 2, 1, 1, 1] };
  const fits = (list: Array<[number, number[]]>) => fitsDocuments(postingsOf(list), stats);
  it("take a position up to its document's last word, and refuse one past it", () => {
    expect(fits([[0, [0, 6]]])).toBe(true);
    expect(fits([[0, [7]]])).toBe(false);
    expect(
      fits([
        [0, [2]],
        [1, [4]],
      ]),
    ).toBe(true);
    expect(
      fits([
        [0, [2]],
        [1, [5]],
      ]),
    ).toBe(false);
  });
  it('refuse a document past the count', () => {
    expect(fits([[2, [0]]])).toBe(false);
  });
});

describe('packed postings', () => {
  it('decode to what was encoded', () => {
    // Up to 60 documents: a list of 32 or more finds a document by a table, a shorter one by a search.
    const postings = fc
      .uniqueArray(fc.nat({ max: 100_000 }), { maxLength: 60, size: 'max' })
      .chain((docs) =>
        fc.tuple(
          ...[...docs]
            .sort((a, b) => a - b)
            .map((d) =>
              fc
                .uniqueArray(fc.nat({ max: 1_000_000 }), { minLength: 1, maxLength: 20 })
                .map((ps) => [d, ps.sort((a, b) => a - b)] as [number, number[]]),
            ),
        ),
      );
    fc.assert(
      fc.property(postings, (list) => {
        const decoded = decodePostings(encodePostings(list)) as Postings;
        expect(postingsList(decoded)).toEqual(list);
        // A document's positions by its number: those of the list, and none for any other.
        const held = new Map(list);
        for (const doc of [-1, ...list.flatMap(([d]) => [d - 1, d, d + 1])]) {
          const i = decoded.indexOf(doc);
          const found = i === -1 ? undefined : Array.from(decoded.positions.subarray(decoded.at[i], decoded.at[i + 1]));
          expect(found).toEqual(held.get(doc));
        }
        expect(postingsList(postingsOf(list))).toEqual(list);
      }),
    );
  });

  it('replace one document of packed postings as packing the changed list does', () => {
    const list = fc
      .uniqueArray(fc.nat({ max: 60 }), { maxLength: 12 })
      .map((docs) => docs.sort((a, b) => a - b))
      .chain((docs) =>
        fc.tuple(
          ...docs.map((d) =>
            fc
              .uniqueArray(fc.nat({ max: 5_000 }), { minLength: 1, maxLength: 6 })
              .map((ps) => [d, ps.sort((a, b) => a - b)] as [number, number[]]),
          ),
        ),
      );
    const positions = fc.uniqueArray(fc.nat({ max: 5_000 }), { maxLength: 6 }).map((ps) => ps.sort((a, b) => a - b));
    fc.assert(
      fc.property(list, fc.nat({ max: 64 }), positions, (docs, doc, ps) => {
        const changed = docs.filter(([d]) => d !== doc);
        if (ps.length > 0) changed.push([doc, ps]);
        changed.sort((a, b) => a[0] - b[0]);
        expect(replaceDocument(encodePostings(docs), doc, ps)).toBe(encodePostings(changed));
      }),
      { numRuns: 1000 },
    );
    expect(() => replaceDocument('A', 0, [1])).toThrow();
  });

  it('pack whole numbers', () => {
    fc.assert(
      fc.property(fc.array(fc.nat()), (numbers) => {
        expect(decodeNumbers(encodeNumbers(numbers))).toEqual(numbers);
      }),
    );
    expect(decodeNumbers('A')).toBeNull();
  });

  it('read back a shard as it was written, words ascending, and refuse any other text', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z0-9]{1,8}$/)),
        fc.string({ unit: 'binary-ascii' }),
        (words, p) => {
          const postings = p.replace(/[\t\n]/g, '');
          const lines = [...words].sort().map((w) => [w, postings] as [string, string]);
          expect(decodeShard(asText(encodeShard(lines)))).toEqual(lines);
          if (lines.length > 1) expect(decodeShard(asText(encodeShard([...lines].reverse())))).toBeNull();
        },
      ),
    );
    expect(decodeShard('plague\tAB')).toBeNull();
    expect(decodeShard('plague AB\n')).toBeNull();
    expect(decodeShard('\tAB\n')).toBeNull();
    expect(decodeShard('')).toEqual([]);
  });

  it('write a shard as the UTF-8 of its lines, whatever the words’ characters', () => {
    // Words of characters of 1 to 4 bytes (a pair of surrogates; a lone one: U+FFFD's 3) and
    // postings of the index's own digits: the bytes are those of the text encoded whole.
    const unit = fc.constantFrom('a', 'z', '7', '\u007f', '\u0080', 'é', 'ſ', '\u07ff', '\u0800', '中', '\uffff');
    const char = fc.oneof(unit, fc.constantFrom('\u{1F600}', '\u{10FFFF}', '\ud800', '\udfff'));
    const postings = fc.string({ unit: fc.constantFrom(...DIGITS), maxLength: 12 });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ unit: char, minLength: 1 }), postings), { maxLength: 8 }), (lines) => {
        const text = lines.map(([w, p]) => `${w}\t${p}\n`).join('');
        expect(Buffer.from(encodeShard(lines)).equals(Buffer.from(text, 'utf8'))).toBe(true);
      }),
      { numRuns: 500 },
    );
    const lone = [
      ['\ud800x', 'A'],
      ['é\udfff', 'B'],
      ['\u{1F600}', 'C'],
    ] as Array<[string, string]>;
    expect(asText(encodeShard(lone))).toBe('\ufffdx\tA\né\ufffd\tB\n\u{1F600}\tC\n');
  });

  it('splice a shard from its bytes: the bytes encodeShard makes, or null from other bytes', () => {
    // Words of a shard before and after (some gone, some come), some of those kept changed; their
    // postings of the index's digits. Non-ASCII words: the copied lines are checked in UTF-8.
    const word = fc.string({
      unit: fc.constantFrom('a', 'b', 'z', 'é', '中', '\u{1F600}', '\ud800'),
      minLength: 1,
      maxLength: 4,
    });
    const postings = fc.string({ unit: fc.constantFrom(...DIGITS), minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(word, postings, postings, fc.nat(3)), { selector: ([w]) => w, maxLength: 12 }),
        (rows) => {
          // 0: in both, unchanged; 1: in both, changed; 2: gone; 3: come.
          const sorted = [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
          const was = sorted.filter(([, , , k]) => k !== 3);
          const now = sorted.filter(([, , , k]) => k !== 2);
          const wasWords = was.map(([w]) => w);
          const before = encodeShard(was.map(([w, p]) => [w, p] as const));
          const after = new Map(now.map(([w, p, q, k]) => [w, k === 0 ? p : q]));
          // In any order, a word named twice.
          const changed = rows.filter(([, , , k]) => k !== 0).map(([w]) => w);
          const splice = (bytes: Uint8Array) =>
            spliceShard(bytes, wasWords, [...changed, ...changed], (w) => after.get(w));
          const expected = encodeShard(now.map(([w]) => [w, after.get(w) as string] as const));
          expect(splice(before)).toEqual(expected);
          // The same bytes read back (their lines found again, not noted as they were written).
          expect(splice(before.slice())).toEqual(expected);
          // Spliced bytes spliced again: the lines noted as they were spliced.
          const again = splice(before) as Uint8Array;
          const wordsNow = now.map(([w]) => w);
          expect(spliceShard(again, wordsNow, [], () => undefined)).toEqual(expected);
          expect(spliceShard(again, wordsNow, wordsNow, (w) => `${after.get(w)}0`)).toEqual(
            encodeShard(now.map(([w]) => [w, `${after.get(w)}0`] as const)),
          );
          // Bytes of other words, or of fewer lines, are not spliced from.
          if (was.some(([, , , k]) => k === 0))
            expect(splice(encodeShard(was.map(([w, p]) => [`${w}x`, p] as const)))).toBeNull();
          if (was.length > 0) expect(splice(before.subarray(0, before.length - 1))).toBeNull();
          expect(splice(encodeShard([...was, ['zzzzz', '0']].map(([w, p]) => [w, p] as const)))).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuse damaged text', () => {
    expect(decodePostings('A')).toBeNull();
    expect(decodePostings('g\t')).toBeNull();
  });
});
