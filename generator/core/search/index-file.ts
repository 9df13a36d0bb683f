// The statistics file of a collection's search index: how many shards, and how long each field
// of each document is (for relevance). Documents are numbered in the list's order, the order of
// the site index (core/site-index.ts) the same build writes.

import { fail, ok, type Result } from '../result.ts';
import { FIELD_COUNT } from './engine.ts';
import { decodeNumbers, shardCount } from './postings.ts';

export interface SearchDocsFile {
  version: 1;
  /** How many shard files hold the postings. */
  shards: number;
  /** How many documents. */
  count: number;
  /** The number of words of each field, FIELD_COUNT numbers a document, packed (postings.ts). */
  lengths: string;
}

export interface SearchDocs {
  shards: number;
  count: number;
  lengths: number[];
}

/** A parsed SearchDocsFile, or what is wrong with it. */
export function parseSearchDocs(text: string): Result<SearchDocs, string> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return fail('not valid JSON');
  }
  const f = data as Partial<SearchDocsFile> | null;
  if (typeof f !== 'object' || f === null || f.version !== 1) return fail('not a search index of version 1');
  if (!Number.isSafeInteger(f.shards) || (f.shards as number) < 1) return fail('"shards" is not a positive number');
  if (!Number.isSafeInteger(f.count) || (f.count as number) < 0) return fail('"count" is not a number');
  const lengths = typeof f.lengths === 'string' ? decodeNumbers(f.lengths) : null;
  if (lengths === null || lengths.length !== (f.count as number) * FIELD_COUNT)
    return fail('"lengths" do not give three fields a document');
  return ok({ shards: f.shards as number, count: f.count as number, lengths });
}

/**
 * Whether statistics are those of an index of `count` documents of `collection` as this generator
 * makes it (its number of shards follows from the count: postings.ts shardCount).
 */
export function isIndexOf(docs: SearchDocs, collection: 'entries' | 'topics', count: number): boolean {
  return docs.count === count && docs.shards === shardCount(collection, count);
}
