// The search index of a site, as files: for each searched collection a statistics file and the
// postings of every word packed into shards by a hash of the word (core/search/postings.ts), so
// that a query reads only the few shards its words need.

import { searchDocsFile, searchShardFile } from '../core/files.ts';
import type { Model } from '../core/model.ts';
import { entryFields, type Fields, type SearchCollection, topicFields } from '../core/search/documents.ts';
import { FIELD_COUNT } from '../core/search/engine.ts';
import type { SearchDocsFile } from '../core/search/index-file.ts';
import { encodePostings, encodeShard, shardOf } from '../core/search/postings.ts';
import { terms } from '../core/search/tokenize.ts';

/** About this many bytes a shard: a query reads a few such files whole. */
const SHARD_BYTES = 32 * 1024;
const MAX_SHARDS = 128;

interface IndexFile {
  path: string;
  body: string;
}

/** The files of one collection's index, from its documents' fields in the list's order. */
export function collectionIndexFiles(
  collection: SearchCollection,
  keys: ReadonlyArray<string | number>,
  fields: (doc: number) => Fields,
): IndexFile[] {
  const lengths: number[] = [];
  const postings = new Map<string, Array<[number, number[]]>>();
  for (let doc = 0; doc < keys.length; doc++) {
    let position = 0;
    for (const text of fields(doc)) {
      const words = terms(text);
      lengths.push(words.length);
      for (const word of words) {
        let list = postings.get(word);
        if (list === undefined) {
          list = [];
          postings.set(word, list);
        }
        const last = list[list.length - 1];
        if (last !== undefined && last[0] === doc) last[1].push(position);
        else list.push([doc, [position]]);
        position++;
      }
      position++; // the gap between two fields
    }
  }
  const encoded = [...postings]
    .map(([word, list]) => [word, encodePostings(list)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const bytes = encoded.reduce((n, [word, p]) => n + word.length + p.length + 2, 0);
  const shards = Math.min(MAX_SHARDS, Math.max(1, Math.ceil(bytes / SHARD_BYTES)));
  const byShard: Array<Array<readonly [string, string]>> = Array.from({ length: shards }, () => []);
  for (const entry of encoded) byShard[shardOf(entry[0], shards)]?.push(entry);
  const docs: SearchDocsFile = { version: 1, shards, keys: [...keys], lengths };
  if (lengths.length !== keys.length * FIELD_COUNT) throw new Error('a document without its three fields');
  return [
    { path: searchDocsFile(collection), body: JSON.stringify(docs) },
    ...byShard.map((list, shard) => ({ path: searchShardFile(collection, shard), body: encodeShard(list) })),
  ];
}

/** Every file of the site's search index. */
export function searchIndexFiles(model: Model): IndexFile[] {
  return [
    ...collectionIndexFiles(
      'entries',
      model.entries.map((e) => e.date),
      (doc) => entryFields(model.entries[doc] as Model['entries'][number]),
    ),
    ...collectionIndexFiles(
      'topics',
      model.topics.map((t) => t.id),
      (doc) => topicFields(model.topics[doc] as Model['topics'][number]),
    ),
  ];
}
