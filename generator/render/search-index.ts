// The search index of a site, as files: for each searched collection a statistics file and the
// postings of every word packed into shards by a hash of the word (core/search/postings.ts), so
// that a query reads only the few shards its words need.

import { searchDocsFile, searchShardFile } from '../core/files.ts';
import type { Entry, Model, Topic } from '../core/model.ts';
import { lowerBound } from '../core/ranges.ts';
import {
  entryFields,
  type Fields,
  type SearchCollection,
  sameEntryText,
  sameTopicText,
  topicFields,
} from '../core/search/documents.ts';
import { FIELD_COUNT } from '../core/search/engine.ts';
import type { SearchDocsFile } from '../core/search/index-file.ts';
import { shardCount, shardOf } from '../core/search/postings.ts';
import {
  byCodeUnits,
  encodeNumbers,
  encodeShard,
  type PostingsWriter,
  postingsWriter,
  replaceDocument,
  spliceShard,
  writeDocument,
  writtenPostings,
} from '../core/search/postings-writer.ts';
import { eachWrittenRun, runTerms } from '../core/search/tokenize.ts';
import { changedPostings, type PostingsByWord } from './layered-postings.ts';
import { runToEnd } from './steps.ts';

interface WordPostings {
  writer: PostingsWriter;
  /** Its positions in the document being read. */
  positions: number[];
}

interface IndexFile {
  path: string;
  /** The statistics' JSON, or a shard's bytes (encodeShard). */
  body: string | Uint8Array;
}

/**
 * A collection's index as the watch mode keeps it between rebuilds (render/patch.ts), to change
 * it a document at a time: what its files are made of.
 */
export interface CollectionIndex {
  collection: SearchCollection;
  shards: number;
  count: number;
  /** The number of words of each field of each document: [doc * FIELD_COUNT + field]. */
  lengths: readonly number[];
  /** Each word's packed postings (postings.ts), by word. */
  postings: PostingsByWord;
  /** The words of each shard, in ascending order (of UTF-16 code units). */
  shardWords: ReadonlyArray<readonly string[]>;
}

/** The index of both searched collections. */
export interface SiteSearchIndex {
  entries: CollectionIndex;
  topics: CollectionIndex;
}

/** One collection's index, from its documents' fields in the list's order. */
export function collectionIndex(
  collection: SearchCollection,
  count: number,
  fields: (doc: number) => Fields,
): CollectionIndex {
  return runToEnd(collectionIndexSteps(collection, count, fields));
}

/**
 * The same, made a document at a time: it yields after each document (a caller may let its event
 * loop turn there: the cold build, whose database thread waits for rows meanwhile), then returns
 * the index.
 */
function* collectionIndexSteps(
  collection: SearchCollection,
  count: number,
  fields: (doc: number) => Fields,
): Generator<undefined, CollectionIndex> {
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
    yield;
  }
  if (lengths.length !== count * FIELD_COUNT) throw new Error('a document without its three fields');
  const postings = new Map([...words].map(([word, w]) => [word, writtenPostings(w.writer)] as const));
  const shards = shardCount(collection, count);
  const shardWords: string[][] = Array.from({ length: shards }, () => []);
  for (const word of [...postings.keys()].sort(byCodeUnits)) shardWords[shardOf(word, shards)]?.push(word);
  return { collection, shards, count, lengths, postings, shardWords };
}

function docsFile(index: CollectionIndex): IndexFile {
  const docs: SearchDocsFile = {
    version: 1,
    shards: index.shards,
    count: index.count,
    lengths: encodeNumbers(index.lengths),
  };
  return { path: searchDocsFile(index.collection), body: JSON.stringify(docs) };
}

function shardFile(index: CollectionIndex, shard: number): IndexFile {
  const words = index.shardWords[shard] ?? [];
  return {
    path: searchShardFile(index.collection, shard),
    body: encodeShard(words.map((word) => [word, index.postings.get(word) as string] as const)),
  };
}

/**
 * The bytes of an output file as last written, when the caller keeps them (the watch mode's live
 * tree): a changed shard is then spliced from its own (spliceShard), not encoded whole.
 */
export type WrittenFile = (path: string) => string | Uint8Array | undefined;

/** A shard whose words `changed` changed, from its bytes as written when there are such (spliceShard). */
function changedShardFile(
  index: CollectionIndex,
  shard: number,
  was: readonly string[],
  changed: readonly string[],
  written: WrittenFile | undefined,
): IndexFile {
  const path = searchShardFile(index.collection, shard);
  const before = written?.(path);
  const body =
    before instanceof Uint8Array ? spliceShard(before, was, changed, (word) => index.postings.get(word)) : null;
  return body === null ? shardFile(index, shard) : { path, body };
}

/** Every file of a collection's index, as the build writes them. */
export function collectionIndexFilesOf(index: CollectionIndex): IndexFile[] {
  return [docsFile(index), ...index.shardWords.map((_, shard) => shardFile(index, shard))];
}

/** The files of one collection's index, from its documents' fields in the list's order. */
export function collectionIndexFiles(
  collection: SearchCollection,
  count: number,
  fields: (doc: number) => Fields,
): IndexFile[] {
  return collectionIndexFilesOf(collectionIndex(collection, count, fields));
}

/** The words of one document and their positions, numbered as the index numbers them. */
function documentWords(fields: Fields): { lengths: number[]; words: Map<string, number[]> } {
  const lengths: number[] = [];
  const words = new Map<string, number[]>();
  let position = 0;
  for (const text of fields) {
    const before = position;
    eachWrittenRun(text, (run) => {
      for (const word of runTerms(run)) {
        const at = words.get(word);
        if (at === undefined) words.set(word, [position++]);
        else at.push(position++);
      }
    });
    lengths.push(position - before);
    position++;
  }
  return { lengths, words };
}

const sameNumbers = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((n, i) => n === b[i]);

/**
 * The index after some documents' fields changed (the same documents, in the same places), and
 * the files that differ: its statistics and the shards of the words whose postings moved. Each
 * such word's postings are changed where the document is (postings.ts replaceDocument), the
 * others kept: the files are those a full index of the new fields gives (test/search-engine.test.ts).
 * The index given is left as it was.
 */
export function changeDocuments(
  index: CollectionIndex,
  changes: ReadonlyArray<{ doc: number; before: Fields; after: Fields }>,
  written?: WrittenFile,
): { index: CollectionIndex; files: IndexFile[] } {
  const postings = new Map<string, string | null>();
  const postingsOf = (word: string): string => {
    const mine = postings.get(word);
    return mine === undefined ? (index.postings.get(word) ?? '') : (mine ?? '');
  };
  const lengths = [...index.lengths];
  const shardWords = [...index.shardWords];
  /** The words whose postings changed, by shard. */
  const touched = new Map<number, string[]>();
  let lengthsChanged = false;
  for (const { doc, before, after } of changes) {
    const was = documentWords(before);
    const now = documentWords(after);
    for (let f = 0; f < FIELD_COUNT; f++) {
      if (lengths[doc * FIELD_COUNT + f] === now.lengths[f]) continue;
      lengths[doc * FIELD_COUNT + f] = now.lengths[f] as number;
      lengthsChanged = true;
    }
    for (const word of new Set([...was.words.keys(), ...now.words.keys()])) {
      const positions = now.words.get(word) ?? [];
      const old = was.words.get(word);
      if (old !== undefined && sameNumbers(old, positions)) continue;
      const had = postingsOf(word);
      const changed = replaceDocument(had, doc, positions);
      const shard = shardOf(word, index.shards);
      const words = touched.get(shard);
      if (words === undefined) touched.set(shard, [word]);
      else words.push(word);
      postings.set(word, changed === '' ? null : changed);
      if ((had === '') !== (changed === '')) {
        // A word that comes or goes: its shard's list of words, in order.
        const list = [...(shardWords[shard] ?? [])];
        if (changed === '') list.splice(list.indexOf(word), 1);
        else list.splice(lowerBound(list, word), 0, word);
        shardWords[shard] = list;
      }
    }
  }
  const next: CollectionIndex = {
    ...index,
    lengths,
    postings: postings.size === 0 ? index.postings : changedPostings(index.postings, postings, shardWords),
    shardWords,
  };
  const files = [...touched]
    .sort(([a], [b]) => a - b)
    .map(([shard, words]) => changedShardFile(next, shard, index.shardWords[shard] ?? [], words, written));
  if (lengthsChanged) files.unshift(docsFile(next));
  return { index: next, files };
}

/** The entries' index. */
function entryIndex(model: Pick<Model, 'entries'>): CollectionIndex {
  return collectionIndex('entries', model.entries.length, (doc) => entryFields(model.entries[doc] as Entry));
}

/** The topics' index. */
function topicIndex(model: Pick<Model, 'topics'>): CollectionIndex {
  return collectionIndex('topics', model.topics.length, (doc) => topicFields(model.topics[doc] as Topic));
}

/** The files of the entries' index. */
export function entryIndexFiles(model: Pick<Model, 'entries'>): IndexFile[] {
  return collectionIndexFilesOf(entryIndex(model));
}

/** The files of the topics' index. */
export function topicIndexFiles(model: Pick<Model, 'topics'>): IndexFile[] {
  return collectionIndexFilesOf(topicIndex(model));
}

/**
 * A site's index and the records it was made from: the watch mode's last render, or the last
 * build's basis (render/basis.ts).
 */
export interface SearchBasis {
  model: { entries: readonly Entry[]; topics: readonly Topic[] };
  index: SiteSearchIndex;
}

/**
 * The index of a collection whose records are those of the basis, in the same places (the same
 * keys in the same order), changed where their text differs, with the files that differ; null
 * when they are not.
 */
function changedCollection<R>(
  index: CollectionIndex,
  before: readonly R[],
  after: readonly R[],
  key: (r: R) => unknown,
  sameText: (a: R, b: R) => boolean,
  fields: (r: R) => Fields,
  written?: WrittenFile,
): { index: CollectionIndex; files: IndexFile[] } | null {
  if (before.length !== after.length || index.count !== after.length) return null;
  const changes: Array<{ doc: number; before: Fields; after: Fields }> = [];
  for (let doc = 0; doc < after.length; doc++) {
    const was = before[doc] as R;
    const now = after[doc] as R;
    if (key(was) !== key(now)) return null;
    if (was !== now && !sameText(was, now)) changes.push({ doc, before: fields(was), after: fields(now) });
  }
  return changes.length === 0 ? { index, files: [] } : changeDocuments(index, changes, written);
}

/** Each collection's index changed from the basis (see changedCollection), or null for it. */
function changedCollections(model: Pick<Model, 'entries' | 'topics'>, basis: SearchBasis, written?: WrittenFile) {
  return {
    entries: changedCollection(
      basis.index.entries,
      basis.model.entries,
      model.entries,
      (e) => e.date,
      sameEntryText,
      entryFields,
      written,
    ),
    topics: changedCollection(
      basis.index.topics,
      basis.model.topics,
      model.topics,
      (t) => t.id,
      sameTopicText,
      topicFields,
      written,
    ),
  };
}

/**
 * The index of a model that follows the basis of the last render, and the files that differ from
 * the basis's: each collection changed where its records' text changed, or made whole (all its
 * files) when its records no longer stand where they stood (the watch mode's fast path,
 * render/patch.ts).
 */
export function changeSearchIndex(
  model: Pick<Model, 'entries' | 'topics'>,
  basis: SearchBasis,
  written?: WrittenFile,
): { index: SiteSearchIndex; files: IndexFile[] } {
  const changed = changedCollections(model, basis, written);
  const whole = (index: CollectionIndex) => ({ index, files: collectionIndexFilesOf(index) });
  const entries = changed.entries ?? whole(entryIndex(model));
  const topics = changed.topics ?? whole(topicIndex(model));
  return { index: { entries: entries.index, topics: topics.index }, files: [...entries.files, ...topics.files] };
}

/**
 * The site's index: made whole, or, given the basis of the last render, changed from its index
 * where the records' text changed (when the records are the same ones in the same places: a
 * category's edit, a topic's categories), which the files show byte for byte.
 */
function siteIndex(model: Model, basis?: SearchBasis): SiteSearchIndex {
  const changed = basis === undefined ? null : changedCollections(model, basis);
  return {
    entries: changed?.entries?.index ?? entryIndex(model),
    topics: changed?.topics?.index ?? topicIndex(model),
  };
}

/**
 * Every file of the site's search index, made a document at a time: undefined after each document
 * (a caller may let its event loop turn there), then the files; it returns the index and how the
 * entries' index was made. Given the basis of the last build (render/basis.ts), each collection's
 * index is that one changed where its records' text changed, when they are the same ones in the
 * same places; made whole otherwise.
 */
export function* searchIndexFilesInSteps(
  model: Model,
  basis?: SearchBasis | null,
): Generator<IndexFile | undefined, { index: SiteSearchIndex; entriesIndex: 'changed' | 'made' }> {
  const changed = basis == null ? null : changedCollections(model, basis);
  const entries =
    changed?.entries?.index ??
    (yield* collectionIndexSteps('entries', model.entries.length, (doc) => entryFields(model.entries[doc] as Entry)));
  const topics =
    changed?.topics?.index ??
    (yield* collectionIndexSteps('topics', model.topics.length, (doc) => topicFields(model.topics[doc] as Topic)));
  yield* collectionIndexFilesOf(entries);
  yield* collectionIndexFilesOf(topics);
  return { index: { entries, topics }, entriesIndex: changed?.entries == null ? 'made' : 'changed' };
}

/**
 * Every file of the site's search index; given `keep`, the index itself too, and given a basis,
 * changed from it where it can be (the watch mode).
 */
export function searchIndexFiles(
  model: Model,
  keep?: (index: SiteSearchIndex) => void,
  basis?: SearchBasis,
): IndexFile[] {
  const index = siteIndex(model, basis);
  keep?.(index);
  return [...collectionIndexFilesOf(index.entries), ...collectionIndexFilesOf(index.topics)];
}
