// The incremental basis: what a rebuild needs of the last build to render only what its edits
// change. Every build saves it beside its manifest (output/manifest.ts BASIS_FILE, its hash in the
// manifest, read back only when the tree holds and this very generator made it); the watch mode
// holds the same in memory (a RenderedSite, render/patch.ts). Nothing is made again from the
// output's own bytes: the records are the ones the build rendered, the index the one it wrote.
//
// The file is lines of JSON, one a record (so that a rebuild parses only the records it needs:
// those of the edited files, when the edits are of the fast path), kept as bytes until then:
//
//   {"format":1,"entries":[dates…],"categories":[slugs…],"topics":[ids…]}   what it is of
//   an entry a line, in list order, every field as in the model
//   a topic a line, the same
//   {"shards":…,"count":…,"lengths":[…]}    the entries' index: its statistics,
//   [[word, postings], …]                     then a shard a line (as its file holds them)
//   the same, of the topics' index
//
// Which content files changed since is known from the sources file beside it (content/
// fingerprint.ts Sources). An edit of the watch mode's fast path (entries keeping their date,
// topics their id and categories: render/patch.ts says why that is enough) takes the last build's
// records for the edited ones, and render/patch.ts renders exactly the files that change; any
// other edit renders everything, the search index changed from the basis's where the records
// are the same ones in the same places (search-index.ts).

import { topicEntriesOf } from '../content/build-model.ts';
import type { Sources } from '../content/fingerprint.ts';
import type { ContentState } from '../content/load.ts';
import type { Entry, Model, Topic } from '../core/model.ts';
import { lowerBound } from '../core/ranges.ts';
import { type Origins, originsOf } from '../core/records.ts';
import type { SearchCollection } from '../core/search/documents.ts';
import { shardCount } from '../core/search/postings.ts';
import type { Pieces } from '../output/file.ts';
import type { RecordEdits, RenderedSite } from './patch.ts';
import { categoryFragment, entryFragment, topicFragment } from './render-site.ts';
import type { CollectionIndex, SearchBasis, SiteSearchIndex } from './search-index.ts';

const FORMAT = 1;
const NEWLINE = 0x0a;

/** The lines of an index, by the index they were read as (saved again as they are when unchanged). */
const savedLines = new WeakMap<CollectionIndex, readonly Uint8Array[]>();

const line = (value: unknown): Buffer => Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');

/** Whether a shard holds the same words with the same postings in two indexes. */
function sameShard(a: CollectionIndex, b: CollectionIndex, shard: number): boolean {
  const words = a.shardWords[shard];
  if (words === undefined || words !== b.shardWords[shard]) return false;
  return words.every((word) => a.postings.get(word) === b.postings.get(word));
}

/**
 * An index's lines: its statistics, then a shard a line. Those of an index read from a basis are
 * that basis's; given the index it was changed from (`base`, read from one), a shard whose words
 * and postings did not move keeps its line there (a changed index serializes what it writes).
 */
function indexLines(index: CollectionIndex, base?: CollectionIndex | null): readonly Uint8Array[] {
  const kept = savedLines.get(index);
  if (kept !== undefined) return kept;
  const baseLines = base == null ? undefined : savedLines.get(base);
  const shards = index.shardWords.map((_, shard) =>
    baseLines !== undefined && base != null && base.shards === index.shards && sameShard(index, base, shard)
      ? (baseLines[1 + shard] as Uint8Array)
      : shardLine(index, shard),
  );
  return [statsLine(index), ...shards];
}

const statsLine = (index: CollectionIndex): Buffer =>
  line({ shards: index.shards, count: index.count, lengths: index.lengths });
const shardLine = (index: CollectionIndex, shard: number): Buffer =>
  line((index.shardWords[shard] ?? []).map((word) => [word, index.postings.get(word) as string]));

/** Lines serialized between two pauses of basisSteps. */
const LINES_A_STEP = 200;

/** The lines of the basis of a build with no last basis, each made as it is asked for. */
function* basisLines(
  model: Pick<Model, 'entries' | 'categories' | 'topics'>,
  search: SiteSearchIndex,
): Generator<Uint8Array> {
  yield headLine(model);
  for (const e of model.entries) yield line(e);
  for (const t of model.topics) yield line(t);
  for (const index of [search.entries, search.topics]) {
    const kept = savedLines.get(index);
    if (kept !== undefined) yield* kept;
    else {
      yield statsLine(index);
      for (let shard = 0; shard < index.shardWords.length; shard++) yield shardLine(index, shard);
    }
  }
}

/**
 * The basis of a build with no last basis (basisPieces' first case, the same bytes), a few hundred
 * lines at a time: undefined between two pieces (the watch mode's server answers in between:
 * serialized whole, the whole diary's takes a few hundred milliseconds), then its lines, to be
 * written as pieces (never joined: 16 MB on the whole diary).
 */
export function* basisSteps(
  model: Pick<Model, 'entries' | 'categories' | 'topics'>,
  search: SiteSearchIndex,
): Generator<undefined, Pieces> {
  const parts: Uint8Array[] = [];
  for (const made of basisLines(model, search)) {
    parts.push(made);
    if (parts.length % LINES_A_STEP === 0) yield;
  }
  return { pieces: () => parts };
}

const headLine = (model: Pick<Model, 'entries' | 'categories' | 'topics'>): Buffer =>
  line({
    format: FORMAT,
    entries: model.entries.map((e) => e.date),
    categories: model.categories.map((c) => c.slug),
    topics: model.topics.map((t) => t.id),
  });

/**
 * The basis of a build, as its file holds it: of the model rendered and the index written. Given
 * the last build's basis and the edits that made the model of it (a patched rebuild: the same keys,
 * only those records replaced), every other line is that basis's, as it was.
 *
 * In pieces, its lines: a build's is made a line at a time as it is written and hashed (and made
 * again when asked again), never held whole (16 MB on the whole diary, 124 MB at thirty times the
 * topics, and as much again for its lines while they were joined); a patched rebuild's lines are
 * mostly the last basis's, held anyway.
 */
export function basisPieces(
  model: Pick<Model, 'entries' | 'categories' | 'topics'>,
  search: SiteSearchIndex,
  last?: { saved: SavedBasis; edits: RecordEdits },
): Pieces {
  if (last === undefined) return { pieces: () => basisLines(model, search) };
  const { saved, edits } = last;
  const records = saved.lines.slice(0, 1 + model.entries.length + model.topics.length);
  const topics = 1 + model.entries.length;
  for (const { position, entry } of edits.entries) records[1 + position] = line(entry);
  for (const { position, topic } of edits.topics) records[topics + position] = line(topic);
  const lines = [
    ...records,
    ...indexLines(search.entries, edits.entries.length > 0 ? saved.index('entries') : null),
    ...indexLines(search.topics, edits.topics.length > 0 ? saved.index('topics') : null),
  ];
  return { pieces: () => lines };
}

/** A basis read back: its keys at once, each record and each index when asked for. */
export interface SavedBasis {
  /** Its lines as read, each with its newline. */
  lines: readonly Uint8Array[];
  dates: readonly string[];
  categories: readonly string[];
  ids: readonly number[];
  /** The entry at a position, or null when its line is not one of that date. */
  entry(position: number): Entry | null;
  /** The topic at a position, or null when its line is not one of that id. */
  topic(position: number): Topic | null;
  /** A collection's index, or null when its line is not one. */
  index(collection: SearchCollection): CollectionIndex | null;
  /**
   * A collection's index for a rebuild that changes none of its records: never read, it stands
   * for what it is (empty, of that count), and is saved again as it was (its line).
   */
  unread(collection: SearchCollection): CollectionIndex;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** A line's JSON, or undefined when it is not JSON (or not UTF-8). */
function parsed(bytes: Uint8Array | undefined): unknown {
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(decoder.decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isNumberList = (v: unknown): v is number[] => Array.isArray(v) && v.every((n) => typeof n === 'number');

/** An index's lines read (see basisBytes), or null when they are not one of `count` documents. */
function parseIndex(lines: readonly Uint8Array[], collection: SearchCollection, count: number): CollectionIndex | null {
  const raw = parsed(lines[0]) as Record<string, unknown> | null | undefined;
  if (raw === null || typeof raw !== 'object') return null;
  const { shards, lengths } = raw;
  if (raw.count !== count || shards !== shardCount(collection, count) || lines.length !== 1 + shards) return null;
  if (!isNumberList(lengths)) return null;
  const postings = new Map<string, string>();
  const shardWords: string[][] = [];
  for (const bytes of lines.slice(1)) {
    const list = parsed(bytes);
    if (!Array.isArray(list)) return null;
    const of: string[] = [];
    for (const pair of list as unknown[]) {
      if (!isStringList(pair) || pair.length !== 2) return null;
      of.push(pair[0] as string);
      postings.set(pair[0] as string, pair[1] as string);
    }
    shardWords.push(of);
  }
  const index: CollectionIndex = { collection, shards, count, lengths, postings, shardWords };
  savedLines.set(index, lines);
  return index;
}

/** The lines of `bytes`, each with its newline; null when the last one has none. */
function linesOf(bytes: Uint8Array): Uint8Array[] | null {
  const lines: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const end = bytes.indexOf(NEWLINE, at);
    if (end < 0) return null;
    lines.push(bytes.subarray(at, end + 1));
    at = end + 1;
  }
  return lines;
}

/**
 * A basis file's bytes read (see basisBytes), or null when they are not one. They are the ones
 * this generator wrote (the manifest's hash, output/rebuild.ts liveRecords): the checks here are
 * of their shape, and of each record's key as it is read.
 */
export function parseBasis(bytes: Uint8Array): SavedBasis | null {
  const lines = linesOf(bytes);
  const head = lines === null ? undefined : (parsed(lines[0]) as Record<string, unknown> | null | undefined);
  if (lines === null || head === null || typeof head !== 'object' || head.format !== FORMAT) return null;
  const { entries: dates, categories, topics: ids } = head;
  if (!isStringList(dates) || !isStringList(categories) || !isNumberList(ids)) return null;
  const counts = { entries: dates.length, topics: ids.length };
  // Each index: its statistics' line and a line a shard (as many as its count makes).
  const first = 1 + dates.length + ids.length;
  const split = first + 1 + shardCount('entries', dates.length);
  if (lines.length !== split + 1 + shardCount('topics', ids.length)) return null;
  const ofIndex = { entries: lines.slice(first, split), topics: lines.slice(split) };
  const read = new Map<SearchCollection, CollectionIndex | null>();
  return {
    lines,
    dates,
    categories,
    ids,
    entry(position) {
      const e = position < dates.length ? (parsed(lines[1 + position]) as Entry | null | undefined) : null;
      return e != null && typeof e === 'object' && e.date === dates[position] ? e : null;
    },
    topic(position) {
      const t = position < ids.length ? (parsed(lines[1 + dates.length + position]) as Topic | null | undefined) : null;
      return t != null && typeof t === 'object' && t.id === ids[position] ? t : null;
    },
    index(collection) {
      if (!read.has(collection)) read.set(collection, parseIndex(ofIndex[collection], collection, counts[collection]));
      return read.get(collection) ?? null;
    },
    unread(collection) {
      const count = counts[collection];
      const index: CollectionIndex = {
        collection,
        shards: shardCount(collection, count),
        count,
        lengths: [],
        postings: new Map(),
        shardWords: [],
      };
      savedLines.set(index, ofIndex[collection]);
      return index;
    },
  };
}

/** Every record of a collection of the basis, in order; null when one is not what it should be. */
function allOf<R>(count: number, at: (position: number) => R | null): R[] | null {
  const out: R[] = [];
  for (let p = 0; p < count; p++) {
    const r = at(p);
    if (r === null) return null;
    out.push(r);
  }
  return out;
}

/** The last build's records and index, as the search index is changed from them (search-index.ts). */
export function searchBasisOf(saved: SavedBasis): SearchBasis | null {
  const entries = allOf(saved.dates.length, (p) => saved.entry(p));
  const topics = allOf(saved.ids.length, (p) => saved.topic(p));
  const entriesIndex = saved.index('entries');
  const topicsIndex = saved.index('topics');
  if (entries === null || topics === null || entriesIndex === null || topicsIndex === null) return null;
  return { model: { entries, topics }, index: { entries: entriesIndex, topics: topicsIndex } };
}

/** The content files whose bytes differ from the last build's, or null when more than those differ. */
function changedFiles(now: Sources | null, was: Sources | null): string[] | null {
  if (now === null || was === null || now.setup !== was.setup || now.files.size !== was.files.size) return null;
  const changed: string[] = [];
  for (const [label, hash] of now.files) {
    const before = was.files.get(label);
    if (before === undefined) return null;
    if (before !== hash) changed.push(label);
  }
  return changed;
}

/** Whether two lists hold the same items (by identity) in the same order. */
export function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Records rendered between two pauses of fragmentsOf. */
const FRAGMENTS_A_STEP = 2_000;

/** Each of `records` rendered, in order: undefined every FRAGMENTS_A_STEP records, then the list. */
function* renderedAll<R>(records: readonly R[], render: (r: R) => string): Generator<undefined, string[]> {
  const out: string[] = [];
  for (const r of records) {
    out.push(render(r));
    if (out.length % FRAGMENTS_A_STEP === 0) yield;
  }
  return out;
}

/**
 * The list items of a model, as a full render makes them (render-site.ts), a few thousand at a
 * time; the topics' rendered as they are asked for, as a cold build does (at 100,000 topics, about
 * 70 MB of strings that an edit of an entry never reads).
 */
function* fragmentsOf(o: Origins, model: Model): Generator<undefined, RenderedSite['fragments']> {
  return {
    entries: yield* renderedAll(model.entries, (e) => entryFragment(o, e)),
    categories: yield* renderedAll(model.categories, (c) => categoryFragment(o, model, c)),
    topics: {
      length: model.topics.length,
      at: (i) => {
        const t = model.topics[i];
        return t === undefined ? undefined : topicFragment(o, t);
      },
    },
  };
}

/** The last build's site, and the edits that make the new model of it. */
export interface PatchBasis {
  site: RenderedSite;
  edits: RecordEdits;
}

/**
 * The last build's site and the edits that make `model` of it (see above), made a piece at a
 * time: undefined between two pieces (the build lets its event loop turn there, so that the
 * downloads' thread is fed meanwhile), then the basis, or null when the rebuild must render every
 * file. `live` is the last build's record of its sources, `saved` its basis.
 */
export function* patchBasisSteps(
  state: Pick<ContentState, 'parsed' | 'sources'>,
  model: Model,
  live: Sources | null,
  saved: SavedBasis,
): Generator<undefined, PatchBasis | null> {
  const changed = changedFiles(state.sources, live);
  if (changed === null || changed.length === 0) return null;
  const dates = model.entries.map((e) => e.date);
  const ids = model.topics.map((t) => t.id);
  const slugs = model.categories.map((c) => c.slug);
  if (!sameList(saved.dates, dates) || !sameList(saved.ids, ids) || !sameList(saved.categories, slugs)) return null;

  const entries: Array<{ position: number; entry: Entry }> = [];
  const topics: Array<{ position: number; topic: Topic }> = [];
  const oldEntries = new Map<number, Entry>();
  const oldTopics = new Map<number, Topic>();
  for (const label of changed) {
    const file = state.parsed.get(label);
    if (file === undefined || file.parsed === null) return null;
    if (file.kind === 'entry') {
      const position = lowerBound(dates, file.parsed.entry.date);
      const entry = model.entries[position];
      if (entry === undefined || entry.date !== file.parsed.entry.date) return null;
      const old = saved.entry(position);
      if (old === null) return null;
      entries.push({ position, entry });
      oldEntries.set(position, old);
    } else {
      const position = lowerBound(ids, file.parsed.topic.id);
      const topic = model.topics[position];
      if (topic === undefined || topic.id !== file.parsed.topic.id) return null;
      const old = saved.topic(position);
      if (old === null) return null;
      // The fast path keeps every topic's categories (render/patch.ts).
      if (!sameList(old.categorySlugs, topic.categorySlugs)) return null;
      topics.push({ position, topic });
      oldTopics.set(position, old);
    }
  }

  const before: Model = { ...model };
  if (oldEntries.size > 0) {
    before.entries = [...model.entries];
    for (const [position, entry] of oldEntries) before.entries[position] = entry;
    before.topicEntries = topicEntriesOf(before.entries, model.topics);
  }
  if (oldTopics.size > 0) {
    before.topics = [...model.topics];
    for (const [position, topic] of oldTopics) before.topics[position] = topic;
  }
  yield;
  // A collection's index is parsed only when some of its records are edited: the fast path
  // changes an index where its records' text changed, and compares the records first (the same
  // objects, but for the edited ones), so the index of a collection with none edited is never
  // read (search-index.ts changedCollection); it is saved again as it was.
  const entriesIndex = entries.length > 0 ? saved.index('entries') : saved.unread('entries');
  const topicsIndex = topics.length > 0 ? saved.index('topics') : saved.unread('topics');
  if (entriesIndex === null || topicsIndex === null) return null;
  const fragments = yield* fragmentsOf(originsOf(model), before);
  return {
    site: { model: before, fragments, search: { entries: entriesIndex, topics: topicsIndex } },
    edits: { entries, topics },
  };
}
