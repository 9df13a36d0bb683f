// The search engine against an independent one: SQLite's FTS5 (Debian's sqlite3, the porter
// tokenizer over unicode61 with diacritics removed) on the same texts of the whole diary (title,
// text, footnotes of every entry, as the build indexes them), for a few dozen real queries. Both
// stem with Porter's algorithm and split words at the same characters, so they must find the
// same entries; where they do not, the difference is printed with the words involved.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readContent, validate } from '../../generator/content/load.ts';
import type { Model } from '../../generator/core/model.ts';
import { entryFields, type Fields } from '../../generator/core/search/documents.ts';
import { type DocumentStats, search } from '../../generator/core/search/engine.ts';
import { parseSearchDocs } from '../../generator/core/search/index-file.ts';
import { decodePostings, findInShard, type Postings, shardOf } from '../../generator/core/search/postings.ts';
import { parseSearch } from '../../generator/core/search/query.ts';
import { mayStemTo, terms } from '../../generator/core/search/tokenize.ts';
import { importStandardEbooks } from '../../generator/import/standard-ebooks.ts';
import { collectionIndexFiles } from '../../generator/render/search-index.ts';
import { writeEncyclopediaFixture } from '../../scripts/fixture-encyclopedia.ts';
import { asText } from '../helpers/files.ts';
import { tempDir } from '../helpers/temp.ts';

const corpus = resolve(import.meta.dirname, '../../../shared/corpus/standard-ebooks-pepys-diary');
const sqlite = spawnSync('sqlite3', ['-version']).status === 0;
const available = existsSync(join(corpus, 'text')) && sqlite;
if (!available) console.warn('search-fts5 tests skipped: the corpus or sqlite3 (apt-get install sqlite3) is missing');

/** [our syntax, FTS5's] */
const QUERIES: Array<[string, string]> = [
  ['plague', 'plague'],
  ['plagues', 'plagues'],
  ['"and so to bed"', '"and so to bed"'],
  ['lute or theorbo', 'lute OR theorbo'],
  ['king -queen', 'king NOT queen'],
  ['fire', 'fire'],
  ['"great fire"', '"great fire"'],
  ['music', 'music'],
  ['musique', 'musique'],
  ['viol', 'viol'],
  ['singing', 'singing'],
  ['dancing', 'dancing'],
  ['theatre', 'theatre'],
  ['play', 'play'],
  ['wife dinner', 'wife dinner'],
  ['"my wife"', '"my wife"'],
  ['"my lord"', '"my lord"'],
  ['"up betimes"', '"up betimes"'],
  ['"to the office"', '"to the office"'],
  ['sermon', 'sermon'],
  ['parliament', 'parliament'],
  ['navy', 'navy'],
  ['money', 'money'],
  ['wine or ale', 'wine OR ale'],
  ['chocolate', 'chocolate'],
  ['coffee', 'coffee'],
  ['tea', 'tea'],
  ['coach', 'coach'],
  ['"duke of york"', '"duke of york"'],
  ['sandwich', 'sandwich'],
  ['church -sermon', 'church NOT sermon'],
  ['fire plague', 'fire plague'],
  ['happiness', 'happiness'],
  ['generously', 'generously'],
  ['Théâtre', 'theatre'],
];

describe.skipIf(!available)('search against SQLite FTS5 on the whole diary', () => {
  const dir = tempDir('pepys-fts5-');
  const contentDir = join(dir, 'content');
  let model: Model;
  let fields: Fields[];
  let fts: string[][];

  beforeAll(async () => {
    importStandardEbooks(corpus, contentDir);
    writeEncyclopediaFixture(contentDir);
    const validated = validate(await readContent(contentDir, {}));
    if (!validated.ok) throw new Error('the whole diary does not validate');
    model = validated.model;
    fields = model.entries.map((e) => entryFields(e));
    const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;
    const sql = [
      "CREATE VIRTUAL TABLE t USING fts5(title, body, notes, tokenize = 'porter unicode61 remove_diacritics 2');",
      'BEGIN;',
      ...fields.map((f, i) => `INSERT INTO t(rowid, title, body, notes) VALUES (${i}, ${f.map(quote).join(', ')});`),
      'COMMIT;',
      ...QUERIES.map(([, q]) => `SELECT '#'; SELECT rowid FROM t WHERE t MATCH ${quote(q)} ORDER BY rowid;`),
    ].join('\n');
    const file = join(dir, 'load.sql');
    writeFileSync(file, sql);
    const out = execFileSync('sqlite3', [':memory:', `.read ${file}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
    fts = out
      .split('#\n')
      .slice(1)
      .map((block) => block.split('\n').filter((l) => l !== ''));
  }, 600_000);

  // A snippet stems only the words that may be one of its query's (core/search/tokenize.ts
  // mayStemTo): every word of the diary written in ASCII must pass for its own stem.
  it("passes every word of the diary as one that may be its own stem's", () => {
    const words = new Set<string>();
    for (const f of fields) for (const field of f) for (const w of field.match(/[A-Za-z0-9]+/g) ?? []) words.add(w);
    const refused = [...words].filter((w) => !mayStemTo(terms(w))(w));
    expect(words.size).toBeGreaterThan(20_000);
    expect(refused).toEqual([]);
  });

  it('finds the same entries for each query', () => {
    const files = new Map(
      collectionIndexFiles('entries', fields.length, (i) => fields[i] as Fields).map((f) => [f.path, asText(f.body)]),
    );
    const docs = parseSearchDocs(files.get('_data/search/entries/docs.json') as string);
    if (!docs.ok) throw new Error(docs.error);
    const stats: DocumentStats = { count: fields.length, lengths: docs.value.lengths, weights: [4, 1, 0.5] };
    const differences: string[] = [];
    let total = 0;
    QUERIES.forEach(([ours], q) => {
      const parsed = parseSearch(ours);
      if (!parsed.ok) throw new Error(parsed.error.detail);
      const postings = new Map<string, Postings>();
      for (const term of parsed.value.clauses.flat())
        for (const w of term.words) {
          const shard = files.get(`_data/search/entries/${shardOf(w, docs.value.shards)}.txt`) as string;
          postings.set(w, decodePostings(findInShard(shard, w)) as Postings);
        }
      const found = search(parsed.value, stats, postings, 'natural').map(String);
      const expected = fts[q] ?? [];
      total += expected.length;
      expect(found.length, ours).toBeGreaterThan(0);
      const only = (a: string[], b: string[]) => a.filter((x) => !new Set(b).has(x));
      const mine = only(found, expected);
      const fts5 = only(expected, found);
      if (mine.length + fts5.length > 0)
        differences.push(
          `${ours}: ${found.length} here, ${expected.length} in FTS5; only here ${mine.slice(0, 5).map((d) => model.entries[Number(d)]?.date)}, only in FTS5 ${fts5.slice(0, 5).map((d) => model.entries[Number(d)]?.date)}`,
        );
    });
    if (differences.length > 0) console.log(`differences:\n${differences.join('\n')}`);
    expect(total).toBeGreaterThan(1000);
    expect(differences).toEqual([]);
  });
});
