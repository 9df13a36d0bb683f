// What a rebuild in a fresh process needs to render only what its edits change, as the watch mode
// does (render/patch.ts): the last build's site (its model, list items and search index) and the
// records edited since. The watch mode keeps them in memory; a fresh process makes them again:
//
// - which content files changed: the manifest of the live tree records each file's hash and a
//   hash of the setup (generator, options); the build has just hashed the same (load.ts). Any
//   other setup, a file come or gone, or a change to site.yaml or categories.yaml: none.
// - the last build's model: the new one, but for the records of the changed files, which are read
//   back from the live tree's details. Every other record was parsed from the same bytes by the
//   same generator with the same options: it is the one the last build had. The records are looked
//   up by key (date, id); the live tree must list the same keys. A record read back must render
//   its detail byte for byte as the tree holds it: all its fields are in its detail, so it is then
//   the record the last build had.
// - its list items, rendered from that model; its search index, read back from the live tree.
//
// The edits must be of the watch mode's fast path: entries keeping their date, topics their id
// and categories (render/patch.ts says why that is enough). Anything else gives null, and the
// build renders every file (writing only those that differ). Each file is read through the
// rebuild's readLive: its bytes only when they are what the live tree's manifest says.

import { topicEntriesOf } from '../content/build-model.ts';
import type { Sources } from '../content/fingerprint.ts';
import type { ContentState } from '../content/load.ts';
import { detailFile } from '../core/files.ts';
import type { Entry, Model, Topic } from '../core/model.ts';
import { unpacking } from '../core/packs.ts';
import { lowerBound } from '../core/ranges.ts';
import { type Origins, originsOf } from '../core/records.ts';
import type { SearchCollection } from '../core/search/documents.ts';
import { shardCount } from '../core/search/postings.ts';
import type { EntryDetail, TopicDetail } from '../core/types.ts';
import { categoryApiURL, topicApiURL } from '../core/urls.ts';
import type { RecordEdits, RenderedSite } from './patch.ts';
import { categoryFragment, entryDetailBody, entryFragment, topicDetailBody, topicFragment } from './render-site.ts';
import { collectionIndexSteps, liveSiteIndex, readingOnce, textOf } from './search-basis.ts';
import type { CollectionIndex } from './search-index.ts';
import { runToEnd } from './steps.ts';

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

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** A detail as JSON, or null. */
function parseDetail<T>(text: string | null): Partial<T> | null {
  if (text === null) return null;
  try {
    const d: unknown = JSON.parse(text);
    return d !== null && typeof d === 'object' ? (d as Partial<T>) : null;
  } catch {
    return null;
  }
}

/** Values of `urls` by a map from URL; null when one is not in it or the list is not one of strings. */
function fromURLs<T>(urls: unknown, byURL: ReadonlyMap<string, T>): T[] | null {
  if (!Array.isArray(urls)) return null;
  const out: T[] = [];
  for (const url of urls) {
    const v = typeof url === 'string' ? byURL.get(url) : undefined;
    if (v === undefined) return null;
    out.push(v);
  }
  return out;
}

/** The entry a detail was rendered from (its fields, its topics' ids), unchecked: see above. */
function entryFrom(d: Partial<EntryDetail>, topicByURL: ReadonlyMap<string, number>): Entry | null {
  const topicIds = fromURLs(d.topics, topicByURL);
  if (topicIds === null) return null;
  return {
    date: d.date as Entry['date'],
    title: d.title as string,
    entryHTML: d.entryHTML as string,
    footnotesHTML: d.footnotesHTML as string,
    annotationCount: d.annotationCount as number,
    lastAnnotationTime: d.lastAnnotationTime as Entry['lastAnnotationTime'],
    topicIds,
    lastModifiedTime: d.lastModifiedTime as Entry['lastModifiedTime'],
  };
}

/** The topic a detail was rendered from, unchecked: see above. */
function topicFrom(d: Partial<TopicDetail>, categoryByURL: ReadonlyMap<string, string>): Topic | null {
  const categorySlugs = fromURLs(d.categories, categoryByURL);
  if (categorySlugs === null) return null;
  return {
    id: d.id as number,
    title: d.title as string,
    orderTitle: d.orderTitle as string,
    kind: d.kind as Topic['kind'],
    wheatleyHTML: d.wheatleyHTML as string,
    tooltipText: d.tooltipText as string,
    wikipediaURL: d.wikipediaURL as string | null,
    thumbnailURL: d.thumbnailURL as string | null,
    annotationCount: d.annotationCount as number,
    lastAnnotationTime: d.lastAnnotationTime as Topic['lastAnnotationTime'],
    latitude: d.latitude as number | null,
    longitude: d.longitude as number | null,
    zoom: d.zoom as number | null,
    shape: d.shape as string,
    categorySlugs,
    lastModifiedTime: d.lastModifiedTime as Topic['lastModifiedTime'],
  };
}

/** The index of a collection none of whose records is edited: never read (see patchBasisSteps). */
function unread(collection: SearchCollection, count: number): CollectionIndex {
  return { collection, shards: shardCount(collection, count), count, lengths: [], postings: new Map(), shardWords: [] };
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
 * The last build's site and the edits that make `model` of it (see above), or null when the
 * rebuild must render every file. `live` is the live tree's record of its sources (null:
 * unknown), `read` reads a file of the live tree (null: missing, or not as its manifest says).
 */
export function patchBasis(
  state: Pick<ContentState, 'parsed' | 'sources'>,
  model: Model,
  live: Sources | null,
  read: (path: string) => Uint8Array | null,
): PatchBasis | null {
  return runToEnd(patchBasisSteps(state, model, live, read));
}

/**
 * The same, made a piece at a time: undefined between two pieces (the build lets its event loop
 * turn there, so that the downloads' thread is fed meanwhile), then the basis or null.
 */
export function* patchBasisSteps(
  state: Pick<ContentState, 'parsed' | 'sources'>,
  model: Model,
  live: Sources | null,
  read: (path: string) => Uint8Array | null,
): Generator<undefined, PatchBasis | null> {
  const changed = changedFiles(state.sources, live);
  if (changed === null || changed.length === 0) return null;
  const readOnce = readingOnce(read);
  const site = liveSiteIndex(readOnce);
  if (site === null) return null;
  const dates = model.entries.map((e) => e.date);
  const ids = model.topics.map((t) => t.id);
  if (!sameList(site.entryDates, dates) || !sameList([...site.topicIds], ids)) return null;
  if (
    !sameList(
      [...site.categorySlugs],
      model.categories.map((c) => c.slug),
    )
  )
    return null;

  const o = originsOf(model);
  const details = unpacking(readOnce, site);
  const detailText = (collection: 'entries' | 'topics', key: string) =>
    textOf(details(detailFile(collection, key)) as Uint8Array | null);
  const topicByURL = new Map(ids.map((id) => [topicApiURL(o.apiOrigin, id), id]));
  const categoryByURL = new Map(model.categories.map((c) => [categoryApiURL(o.apiOrigin, c.slug), c.slug]));

  const entries: Array<{ position: number; entry: Entry }> = [];
  const topics: Array<{ position: number; topic: Topic }> = [];
  const oldEntries = new Map<number, { entry: Entry; text: string }>();
  const oldTopics = new Map<number, { topic: Topic; text: string }>();
  for (const label of changed) {
    const file = state.parsed.get(label);
    if (file === undefined || file.parsed === null) return null;
    if (file.kind === 'entry') {
      const position = lowerBound(dates, file.parsed.entry.date);
      const entry = model.entries[position];
      if (entry === undefined || entry.date !== file.parsed.entry.date) return null;
      const text = detailText('entries', entry.date);
      const d = parseDetail<EntryDetail>(text);
      const old = d === null ? null : entryFrom(d, topicByURL);
      if (old === null || text === null || old.date !== entry.date) return null;
      entries.push({ position, entry });
      oldEntries.set(position, { entry: old, text });
    } else {
      const position = lowerBound(ids, file.parsed.topic.id);
      const topic = model.topics[position];
      if (topic === undefined || topic.id !== file.parsed.topic.id) return null;
      const text = detailText('topics', String(topic.id));
      const d = parseDetail<TopicDetail>(text);
      const old = d === null ? null : topicFrom(d, categoryByURL);
      if (old === null || text === null || old.id !== topic.id) return null;
      // The fast path keeps every topic's categories (render/patch.ts).
      if (!sameList(old.categorySlugs, topic.categorySlugs)) return null;
      topics.push({ position, topic });
      oldTopics.set(position, { topic: old, text });
    }
  }

  const before: Model = { ...model };
  if (oldEntries.size > 0) {
    before.entries = [...model.entries];
    for (const [position, { entry }] of oldEntries) before.entries[position] = entry;
    before.topicEntries = topicEntriesOf(before.entries, model.topics);
  }
  if (oldTopics.size > 0) {
    before.topics = [...model.topics];
    for (const [position, { topic }] of oldTopics) before.topics[position] = topic;
  }
  // Each record read back renders its detail as the live tree holds it, byte for byte.
  for (const { entry, text } of oldEntries.values()) if (entryDetailBody(o, entry) !== text) return null;
  for (const { topic, text } of oldTopics.values())
    if (topicDetailBody(o, topic, before.topicEntries) !== text) return null;

  yield;
  // A collection's index is read back only when some of its records are edited: the fast path
  // changes an index where its records' text changed, and compares the records first (the same
  // objects, but for the edited ones), so the index of a collection with none edited is never
  // read (search-index.ts changedCollection). It stands for what it is: empty, of that count.
  const entriesIndex =
    entries.length > 0
      ? yield* collectionIndexSteps(readOnce, 'entries', dates.length)
      : unread('entries', dates.length);
  if (entriesIndex === null) return null;
  const topicsIndex =
    topics.length > 0 ? yield* collectionIndexSteps(readOnce, 'topics', ids.length) : unread('topics', ids.length);
  if (topicsIndex === null) return null;
  const fragments = yield* fragmentsOf(o, before);
  return {
    site: { model: before, fragments, search: { entries: entriesIndex, topics: topicsIndex } },
    edits: { entries, topics },
  };
}
