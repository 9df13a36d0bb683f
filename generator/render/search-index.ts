// The search index of a site, as files: for each searched collection a statistics file and the
// postings of every word packed into shards by a hash of the word (core/search/postings.ts), so
// that a query reads only the few shards its words need.

import { searchDocsFile, searchShardFile } from '../core/files.ts';
import type { Entry, Model, Topic } from '../core/model.ts';
import { entryFields, type Fields, type SearchCollection, topicFields } from '../core/search/documents.ts';
import { FIELD_COUNT } from '../core/search/engine.ts';
import type { SearchDocsFile } from '../core/search/index-file.ts';
import {
  encodeNumbers,
  encodeShard,
  type PostingsWriter,
  postingsWriter,
  shardOf,
  writeDocument,
  writtenPostings,
} from '../core/search/postings.ts';
import { eachWrittenRun, runTerms } from '../core/search/tokenize.ts';

/**
 * How many documents a shard covers, about (a shard then holds ~30 KiB on the whole diary: a query
 * reads a few such files whole). A function of the number of documents alone, never of their
 * text: an edit that keeps every record where it is (the watch mode's fast path, render/patch.ts)
 * keeps the same shard files.
 */
const DOCUMENTS_A_SHARD: Readonly<Record<SearchCollection, number>> = { entries: 32, topics: 4000 };
const MAX_SHARDS = 128;

interface WordPostings {
  writer: PostingsWriter;
  /** Its positions in the document being read. */
  positions: number[];
}

interface IndexFile {
  path: string;
  body: string;
}

/** The files of one collection's index, from its documents' fields in the list's order. */
export function collectionIndexFiles(
  collection: SearchCollection,
  count: number,
  fields: (doc: number) => Fields,
): IndexFile[] {
  const lengths: number[] = [];
  // Each word's postings are packed as soon as a document is done with: the build holds the
  // packed text (about half the text's size), not an array per word and document.
  const words = new Map<string, WordPostings>();
  // The postings of each run as written: one lookup a word (the text repeats its words).
  const byRun = new Map<string, readonly WordPostings[]>();
  const postingsOf = (word: string): WordPostings => {
    let w = words.get(word);
    if (w === undefined) {
      w = { writer: postingsWriter(), positions: [] };
      words.set(word, w);
    }
    return w;
  };
  const inDoc: WordPostings[] = [];
  let position = 0;
  const add = (run: string): void => {
    let ws = byRun.get(run);
    if (ws === undefined) {
      ws = runTerms(run).map(postingsOf);
      byRun.set(run, ws);
    }
    for (const w of ws) {
      if (w.positions.length === 0) inDoc.push(w);
      w.positions.push(position++);
    }
  };
  for (let doc = 0; doc < count; doc++) {
    position = 0;
    for (const text of fields(doc)) {
      const before = position;
      eachWrittenRun(text, add);
      lengths.push(position - before);
      position++; // the gap between two fields
    }
    for (const w of inDoc) {
      writeDocument(w.writer, doc, w.positions);
      w.positions.length = 0;
    }
    inDoc.length = 0;
  }
  const encoded = [...words]
    .map(([word, w]) => [word, writtenPostings(w.writer)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const shards = Math.min(MAX_SHARDS, Math.max(1, Math.ceil(count / DOCUMENTS_A_SHARD[collection])));
  const byShard: Array<Array<readonly [string, string]>> = Array.from({ length: shards }, () => []);
  for (const entry of encoded) byShard[shardOf(entry[0], shards)]?.push(entry);
  if (lengths.length !== count * FIELD_COUNT) throw new Error('a document without its three fields');
  const docs: SearchDocsFile = { version: 1, shards, count, lengths: encodeNumbers(lengths) };
  return [
    { path: searchDocsFile(collection), body: JSON.stringify(docs) },
    ...byShard.map((list, shard) => ({ path: searchShardFile(collection, shard), body: encodeShard(list) })),
  ];
}

/** The files of the entries' index. */
export function entryIndexFiles(model: Pick<Model, 'entries'>): IndexFile[] {
  return collectionIndexFiles('entries', model.entries.length, (doc) => entryFields(model.entries[doc] as Entry));
}

/** The files of the topics' index. */
export function topicIndexFiles(model: Pick<Model, 'topics'>): IndexFile[] {
  return collectionIndexFiles('topics', model.topics.length, (doc) => topicFields(model.topics[doc] as Topic));
}

/** Every file of the site's search index. */
export function searchIndexFiles(model: Model): IndexFile[] {
  return [...entryIndexFiles(model), ...topicIndexFiles(model)];
}
