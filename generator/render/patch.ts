// The watch mode's fast path for the commonest edits: some entry files edited without changing
// their date, some topic files without changing their id, categories or kind. Such an edit
// changes no other record and no cross-file fact but two: which entries mention which topics,
// and the items of the edited records in their lists. So, given the previous valid model and its
// rendered list items, the new model is the old one with those records replaced (and the topics'
// entry lists they change), and the files that can differ are known in advance:
//
// - an edited entry: the pack of its detail (core/packs.ts); if its list item changed (title,
//   lastModifiedTime), the page of every entry list that holds it and the site index; the packs of
//   the details of the topics it stops or starts mentioning;
// - an edited topic (its kind unchanged): the pack of its detail; if its list item changed, its
//   page of the topic list and of each of its categories' and its kind's (core/topic-lists.ts);
// - the search index of the entries, of the topics, when one of them is edited;
// - the OpenAPI document, when it shows one of them (the first record of a kind, a first page, or
//   the first topic's entries).
//
// Those files are rendered here with the very functions of a full render (render-site.ts), and no
// others: the watch session (watch/fast-path.ts) checks that an edit is of this kind first, and
// test/watch-fast.test.ts holds this path to the general one (validate, render everything) and to
// a cold build on random edits.

import { SITE_INDEX_FILE } from '../core/files.ts';
import { entrySlice, wholeList } from '../core/lists.ts';
import type { Entry, Model, Topic } from '../core/model.ts';
import { recordPackFile } from '../core/packs.ts';
import { prerenderedLists } from '../core/prerendered.ts';
import { lowerBound } from '../core/ranges.ts';
import { originsOf } from '../core/records.ts';
import type { IsoDate } from '../core/types.ts';
import { collectionURL } from '../core/urls.ts';
import type { OutputFile } from '../output/file.ts';
import { FEED_SIZE, feedFiles } from './feeds.ts';
import type { FragmentList } from './fragment-list.ts';
import { openApiFile } from './openapi.ts';
import {
  entryDetailBody,
  entryFragment,
  type Fragments,
  packFiles,
  pageOf,
  siteIndexBody,
  topicDetailBody,
  topicFragment,
  topicListPages,
} from './render-site.ts';
import {
  changeSearchIndex,
  entryIndexFiles,
  type SiteSearchIndex,
  topicIndexFiles,
  type WrittenFile,
} from './search-index.ts';

/**
 * A valid model, the list items it was rendered with (held, as the watch mode keeps them, or
 * rendered as they are asked for), and its search index when kept.
 */
export interface RenderedSite {
  model: Model;
  fragments: Readonly<Record<keyof Fragments, FragmentList>>;
  search?: SiteSearchIndex;
}

/** A list of items as an array of its own. */
function copyOf(list: FragmentList): string[] {
  return Array.isArray(list) ? [...list] : Array.from({ length: list.length }, (_, i) => list.at(i) as string);
}

/** Records replaced in place: the same date or id, the same position in their list. */
export interface RecordEdits {
  entries: ReadonlyArray<{ position: number; entry: Entry }>;
  topics: ReadonlyArray<{ position: number; topic: Topic }>;
}

/** Inserts `date` into an ascending list, or removes it; a new list either way. */
function withDate(dates: readonly IsoDate[], date: IsoDate, present: boolean): IsoDate[] {
  if (!present) return dates.filter((d) => d !== date);
  const out = [...dates, date];
  out.sort();
  return out;
}

/**
 * The site after `edits`, and the files that may differ from the previous render (each as a full
 * render would write it now). The caller has checked that every edited entry keeps its date and
 * mentions only topics that exist, and every edited topic keeps its id, categories and kind.
 * `written` may give the previous render's files as they were written (search-index.ts WrittenFile).
 */
export function patchSite(
  prev: RenderedSite,
  edits: RecordEdits,
  topicAt: ReadonlyMap<number, number> = new Map(prev.model.topics.map((t, i) => [t.id, i])),
  written?: WrittenFile,
): { site: RenderedSite; files: OutputFile[] } {
  const old = prev.model;
  const o = originsOf(old);
  const size = old.config.pageSize;
  // New arrays and maps where anything changes, never the old ones changed: a render memo may
  // hold them (render-memo.ts compares by identity first).
  const entries = edits.entries.length > 0 ? [...old.entries] : old.entries;
  const topics = edits.topics.length > 0 ? [...old.topics] : old.topics;
  // Copied only for a collection whose records are edited (an item may change); another's are
  // the last render's, which may be rendered as they are asked for (render/basis.ts).
  const entryEdited = edits.entries.length > 0 ? copyOf(prev.fragments.entries) : null;
  const topicEdited = edits.topics.length > 0 ? copyOf(prev.fragments.topics) : null;
  let topicEntries = old.topicEntries;
  const files: OutputFile[] = [];
  /** Positions whose list item changed, by list. */
  const entryItems: number[] = [];
  const topicItems: number[] = [];
  /** Topics whose entry lists changed. */
  const retold = new Set<number>();

  for (const { position, entry } of edits.entries) {
    const before = old.entries[position] as Entry;
    entries[position] = entry;
    const was = new Set(before.topicIds);
    const is = new Set(entry.topicIds);
    for (const id of new Set([...was, ...is])) {
      if (was.has(id) === is.has(id)) continue;
      if (topicEntries === old.topicEntries) topicEntries = new Map(old.topicEntries);
      topicEntries.set(id, withDate(topicEntries.get(id) ?? [], entry.date, is.has(id)));
      retold.add(id);
    }
    const fragment = entryFragment(o, entry);
    if (entryEdited !== null && fragment !== entryEdited[position]) {
      entryEdited[position] = fragment;
      entryItems.push(position);
    }
  }
  for (const { position, topic } of edits.topics) {
    topics[position] = topic;
    const fragment = topicFragment(o, topic);
    if (topicEdited !== null && fragment !== topicEdited[position]) {
      topicEdited[position] = fragment;
      topicItems.push(position);
    }
  }
  const model: Model = { ...old, entries, topics, topicEntries };
  const entryFragments = entryEdited ?? prev.fragments.entries;
  const topicFragments = topicEdited ?? prev.fragments.topics;
  const fragments: RenderedSite['fragments'] = {
    entries: entryFragments,
    categories: prev.fragments.categories,
    topics: topicFragments,
  };

  // The packs of the details that changed (core/packs.ts), each made again whole.
  if (edits.entries.length > 0) {
    const dates = entries.map((e) => e.date);
    const changed = new Set(edits.entries.map(({ entry }) => recordPackFile('entries', entry.date, dates.length)));
    files.push(...packFiles('entries', dates, (p) => entryDetailBody(o, entries[p] as Entry), changed));
  }
  const details = new Set<number>([...edits.topics.map((e) => e.position)]);
  for (const id of retold) {
    const position = topicAt.get(id);
    if (position !== undefined) details.add(position);
  }
  if (details.size > 0) {
    const ids = topics.map((t) => String(t.id));
    const changed = new Set([...details].map((p) => recordPackFile('topics', ids[p] as string, ids.length)));
    files.push(...packFiles('topics', ids, (p) => topicDetailBody(o, topics[p] as Topic, topicEntries), changed));
  }

  // The pages that hold a changed item: one per list that holds it.
  if (entryItems.length > 0) {
    const dates = entries.map((e) => e.date);
    const listURL = collectionURL(o.apiOrigin, 'entries');
    for (const list of prerenderedLists({ ...old.config, entryDates: dates })) {
      if (list.collection !== 'entries') continue;
      const slice = entrySlice(dates, list.filters);
      const pages = new Set<number>();
      for (const p of entryItems)
        if (p >= slice.from && p < slice.from + slice.total) pages.add(Math.floor((p - slice.from) / size) + 1);
      for (const page of pages) files.push(pageOf(listURL, entryFragments, size, slice, list.dir, page));
    }
    files.push({ path: SITE_INDEX_FILE, body: siteIndexBody(model) });
  }
  if (topicItems.length > 0) {
    // The topics' list is one whatever the entries.
    const list = prerenderedLists({ ...old.config, entryDates: [] }).find((l) => l.collection === 'topics');
    if (list !== undefined) {
      const slice = wholeList(topicFragments.length);
      const pages = new Set(topicItems.map((p) => Math.floor(p / size) + 1));
      for (const page of pages)
        files.push(pageOf(collectionURL(o.apiOrigin, 'topics'), topicFragments, size, slice, list.dir, page));
    }
    // The page of each of its categories' and its kind's lists that holds it (core/topic-lists.ts).
    const pagesHolding = (_: unknown, positions: readonly number[]): ReadonlySet<number> | null => {
      const pages = new Set<number>();
      for (const p of topicItems) {
        const i = lowerBound(positions, p);
        if (positions[i] === p) pages.add(Math.floor(i / size) + 1);
      }
      return pages.size > 0 ? pages : null;
    };
    // Only the lists of the edited topics are made (their categories and kinds).
    const edited = topicItems.map((p) => topics[p] as Topic);
    const wanted = {
      categories: new Set(edited.flatMap((t) => t.categorySlugs)),
      kinds: new Set(edited.map((t) => t.kind)),
      positionOf: topicAt,
    };
    files.push(...topicListPages(o.apiOrigin, model, topicFragments, undefined, pagesHolding, wanted));
  }
  // The feeds hold the latest entries, whole.
  if (edits.entries.some((e) => e.position >= entries.length - FEED_SIZE)) files.push(...feedFiles(model));
  // The search index of a collection whose records changed (a function of every record's text,
  // and of nothing else that the fast path could change): the words of the edited records changed
  // where they are, when the index is kept; else made again whole.
  let search = prev.search;
  if (search !== undefined) {
    const changed = changeSearchIndex(model, { model: old, index: search }, written);
    search = changed.index;
    files.push(...changed.files);
  } else {
    if (edits.entries.length > 0) files.push(...entryIndexFiles(model));
    if (edits.topics.length > 0) files.push(...topicIndexFiles(model));
  }
  // The downloads hold every record whole: the session makes them again after the edits
  // (watch/downloads-remake.ts), off this path.
  // The document shows the first record of each kind, the first page of each list, and the first
  // topic's entries (openapi.ts).
  const firstTopic = topics[0];
  const shown =
    edits.entries.some((e) => e.position === 0) ||
    entryItems.some((p) => p < size) ||
    edits.topics.some((e) => e.position === 0) ||
    topicItems.some((p) => p < size) ||
    (firstTopic !== undefined && retold.has(firstTopic.id));
  if (shown) files.push(openApiFile(model, fragments));
  return { site: { model, fragments, search }, files };
}
