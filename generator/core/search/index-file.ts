// The statistics file of a collection's search index: how many shards, how long each field of
// each document is (for relevance), and the key of each document.

import { fail, ok, type Result } from '../result.ts';
import { FIELD_COUNT } from './engine.ts';

export interface SearchDocsFile {
  version: 1;
  /** How many shard files hold the postings. */
  shards: number;
  /** The key of each document, in the list's order (a date, a topic id). */
  keys: Array<string | number>;
  /** The number of words of each field: FIELD_COUNT numbers a document. */
  lengths: number[];
}

/** A parsed SearchDocsFile, or what is wrong with it. */
export function parseSearchDocs(text: string): Result<SearchDocsFile, string> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return fail('not valid JSON');
  }
  const f = data as Partial<SearchDocsFile> | null;
  if (typeof f !== 'object' || f === null || f.version !== 1) return fail('not a search index of version 1');
  if (!Number.isSafeInteger(f.shards) || (f.shards as number) < 1) return fail('"shards" is not a positive number');
  if (!Array.isArray(f.keys) || !Array.isArray(f.lengths) || f.lengths.length !== f.keys.length * FIELD_COUNT)
    return fail('"keys" and "lengths" do not match');
  return ok(f as SearchDocsFile);
}
