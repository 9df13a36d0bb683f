// The model to every pre-rendered answer: path → bytes. Each record's JSON is rendered once and
// its fragment reused in every list page that holds it. Given a RenderMemo (the watch mode), a
// body whose inputs did not change since the last render is reused instead of rendered again.

import { titleRules } from '../content/locale.ts';
import { pageFile, ROOT_FILE, SITE_INDEX_FILE, TOPIC_KINDS_FILE } from '../core/files.ts';
import { topicKindsBody } from '../core/filters.ts';
import { pretty, resultFragment } from '../core/json.ts';
import {
  entrySlice,
  type ListSlice,
  pageCount,
  pagePlan,
  pagePositions,
  renderPage,
  wholeList,
} from '../core/lists.ts';
import type { Category, Entry, Model, Topic } from '../core/model.ts';
import { packGroups, packText } from '../core/packs.ts';
import { prerenderedLists } from '../core/prerendered.ts';
import {
  categoryDetail,
  categoryItem,
  entryDetail,
  entryItem,
  type Origins,
  originsOf,
  root,
  topicDetail,
  topicItem,
} from '../core/records.ts';
import { siteIndexFile } from '../core/site-index.ts';
import { type ListsWanted, type TopicList, topicListCounts, topicListFile, topicLists } from '../core/topic-lists.ts';
import type { Collection, IsoDate } from '../core/types.ts';
import { collectionURL } from '../core/urls.ts';
import type { OutputFile, TextFile } from '../output/file.ts';
import { downloadFiles, staticHeadersFile } from './downloads.ts';
import { feedFiles } from './feeds.ts';
import type { FragmentList } from './fragment-list.ts';
import { openApiFile } from './openapi.ts';
import type { MemoTable, RenderMemo } from './render-memo.ts';
import { type SearchBasis, type SiteSearchIndex, searchIndexFiles } from './search-index.ts';

/** Do two bodies hold the same bytes? (Text and bytes never compare equal: no path changes kind.) */
export function sameBody(a: OutputFile['body'] | undefined, b: OutputFile['body']): boolean {
  if (typeof a === 'string' || typeof b === 'string' || a === undefined) return a === b;
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/**
 * Renders a body, or reuses the memo's when the record and the extras it is rendered from are
 * unchanged (see render-memo.ts). Without a memo, simply renders.
 */
type Cache<K, V = string> = (key: K, record: object, extras: readonly unknown[], render: () => V) => V;

function cacheOf<K, V = string>(memo: RenderMemo | undefined, name: string): Cache<K, V> {
  if (memo === undefined) return (_key, _record, _extras, render) => render();
  const table = memo.table<K, V>(name);
  return (key, record, extras, render) => table.get(key, record, extras, render);
}

const NO_RECORD = {};

/** An entry's detail, as its file holds it: a function of the entry and the origins alone. */
export function entryDetailBody(o: Origins, e: Entry): string {
  return pretty(entryDetail(o, e));
}

/**
 * A topic's detail, as its file holds it: a function of the topic, the dates of the entries that
 * mention it and the origins alone (topicDetail reads nothing else of the model).
 */
export function topicDetailBody(o: Origins, t: Topic, topicEntries: ReadonlyMap<number, IsoDate[]>): string {
  const model = { topicEntries } as Model;
  return pretty(topicDetail(o, model, t));
}

/** An entry's item in a list page, rendered as a result fragment (core/json.ts). */
export function entryFragment(o: Origins, e: Entry): string {
  return resultFragment(entryItem(o, e));
}

/** A category's item in a list page, rendered as a result fragment (it reads the category's place in the tree). */
export function categoryFragment(o: Origins, m: Model, c: Category): string {
  return resultFragment(categoryItem(o, m, c));
}

/** A topic's item in a list page, rendered as a result fragment. */
export function topicFragment(o: Origins, t: Topic): string {
  return resultFragment(topicItem(o, t));
}

/** Page `page` of the list under `dir` that holds `slice` of `fragments`. */
export function pageOf(
  listURL: string,
  fragments: FragmentList,
  pageSize: number,
  slice: ListSlice,
  dir: string,
  page: number,
): TextFile {
  const plan = pagePlan(slice, pageSize, page);
  return { path: pageFile(dir, page), body: renderPage(listURL, (i) => fragments.at(i) as string, pageSize, plan) };
}

/** What the detail at a position is rendered from: its record, and what else its renderer reads. */
interface DetailInputs {
  record: object;
  extras: readonly unknown[];
}

/** A memo's table of packs, and what each detail is made of (the memo compares them). */
interface PackMemo {
  table: MemoTable<string>;
  inputs: (position: number) => DetailInputs;
}

/**
 * The packs of a collection's details (core/packs.ts), or those of them in `only` (their files):
 * `keys` are the records' keys in the list's order, `body` renders the detail at a position.
 * Given a memo, a pack whose records and their inputs are unchanged is reused, its details not
 * rendered; the details are not kept apart from their packs (the watch mode held both: ≈38 MB of
 * text twice on the whole diary).
 */
export function* packFiles(
  collection: Collection,
  keys: readonly string[],
  body: (position: number) => string,
  only?: ReadonlySet<string>,
  memo?: PackMemo,
): Generator<TextFile> {
  for (const [path, positions] of packGroups(collection, keys)) {
    if (only !== undefined && !only.has(path)) continue;
    // A pack is a function of its records' keys and bodies.
    const make = () => packText(positions.map((p) => [keys[p] as string, body(p)] as const));
    if (memo === undefined) {
      yield { path, body: make() };
      continue;
    }
    // A record's key is one of its fields, which the memo compares.
    const inputs = positions.map((p) => memo.inputs(p));
    const records = inputs.map((d) => d.record);
    const extras = inputs.map((d) => d.extras);
    yield { path, body: memo.table.getOfMany(path, records, extras, make) };
  }
}

/** The compact index of the site (core/site-index.ts), as its file. */
export function siteIndexBody(model: Model): string {
  return JSON.stringify(siteIndexFile(model, titleRules(model.config)));
}

/** The rendered list items of the three lists, by position: what list pages are made of. */
export type Fragments = Record<Collection, readonly string[]>;

export interface RenderOptions {
  /** Given the list items once they are rendered (the watch mode keeps them: see render/patch.ts). */
  fragments?: (fragments: Fragments) => void;
  /** Given the search index once it is made (the watch mode keeps it, to change it: render/patch.ts). */
  searchIndex?: (index: SiteSearchIndex) => void;
  /** The last render's model and index: the index is changed from it where it can be. */
  searchBasis?: SearchBasis;
  /**
   * Leave out the downloads: the build makes them on other threads meanwhile (build.ts), the watch
   * mode after a burst of edits (watch/session.ts).
   */
  withoutDownloads?: boolean;
  /**
   * Leave out the search index: the build makes it a document at a time, letting its event loop
   * turn meanwhile (build.ts, search-index.ts searchIndexFilesInSteps).
   */
  withoutSearchIndex?: boolean;
}

/** Every page of one list: the records of `slice` out of `fragments`, its pages under `dir`. */
function* allPages(
  listURL: string,
  fragments: FragmentList,
  pageSize: number,
  slice: ListSlice,
  fileOf: (page: number) => string,
  cache: Cache<string>,
  only?: ReadonlySet<number>,
): Generator<OutputFile> {
  for (let page = 1; page <= pageCount(slice, pageSize); page++) {
    if (only !== undefined && !only.has(page)) continue;
    const plan = pagePlan(slice, pageSize, page);
    const path = fileOf(page);
    // A page is a function of its head and of the fragments it holds (consecutive positions).
    const positions = pagePositions(pageSize, plan);
    const first = positions[0] ?? 0;
    const held = positions.map((i) => fragments.at(i) as string);
    const extras = [listURL, plan.total, plan.totalPages, plan.page, plan.filters.start, plan.filters.end, held];
    yield {
      path,
      body: cache(path, NO_RECORD, extras, () => renderPage(listURL, (i) => held[i - first] as string, pageSize, plan)),
    };
  }
}

/** Every page of the topics of each category and each kind (core/topic-lists.ts). */
export function* topicListPages(
  apiOrigin: string,
  model: Model,
  topics: FragmentList,
  cache: Cache<string> = cacheOf<string>(undefined, 'pages'),
  only?: (list: TopicList, positions: readonly number[]) => ReadonlySet<number> | null,
  wanted?: ListsWanted,
): Generator<OutputFile> {
  const listURL = collectionURL(apiOrigin, 'topics');
  for (const { list, positions } of topicLists(model, wanted)) {
    // The pages `only` names (none: skip the list); without it, every page.
    const pages = only?.(list, positions);
    if (pages === null) continue;
    const items: FragmentList = { length: positions.length, at: (i) => topics.at(positions[i] as number) };
    const slice: ListSlice = { filters: { [list.filter]: list.value }, from: 0, total: positions.length };
    yield* allPages(listURL, items, model.config.pageSize, slice, (page) => topicListFile(list, page), cache, pages);
  }
}

/** The records, the lists and the site index, one file at a time. */
function* renderRecords(model: Model, memo: RenderMemo | undefined, options: RenderOptions): Generator<OutputFile> {
  const { config } = model;
  const o = originsOf(model);
  const size = config.pageSize;
  memo?.begin([o.apiOrigin, o.siteOrigin, size]);
  yield { path: ROOT_FILE, body: pretty(root(o.apiOrigin)) };

  // Entries. An entry's item reads only these three fields (EntrySummary), its detail the whole entry.
  const dates: IsoDate[] = model.entries.map((e) => e.date);
  const entryItems = cacheOf<IsoDate>(memo, 'entry-items');
  const entryFragments = model.entries.map((e) =>
    entryItems(e.date, NO_RECORD, [e.date, e.title, e.lastModifiedTime], () => entryFragment(o, e)),
  );
  const packs = memo?.table<string>('packs');
  const packMemo = (inputs: PackMemo['inputs']): PackMemo | undefined =>
    packs === undefined ? undefined : { table: packs, inputs };
  yield* packFiles(
    'entries',
    dates,
    (p) => entryDetailBody(o, model.entries[p] as Entry),
    undefined,
    packMemo((p) => ({ record: model.entries[p] as Entry, extras: [] })),
  );

  // Categories, by slug. Both records read the category and its place in the tree.
  const related = (slug: string) => [
    model.categoryAncestors.get(slug),
    model.categoryTopics.get(slug),
    model.categoryChildren.get(slug),
  ];
  const categoryItems = cacheOf<string>(memo, 'category-items');
  const categoryFragments = model.categories.map((c) =>
    categoryItems(c.slug, c, related(c.slug), () => categoryFragment(o, model, c)),
  );
  yield* packFiles(
    'categories',
    model.categories.map((c) => c.slug),
    (p) => pretty(categoryDetail(o, model, model.categories[p] as Category)),
    undefined,
    packMemo((p) => {
      const c = model.categories[p] as Category;
      return { record: c, extras: related(c.slug) };
    }),
  );

  // Topics, by id. The detail also reads the entries that mention the topic.
  const topicItems = cacheOf<number>(memo, 'topic-items');
  const topicItemAt = (p: number) => {
    const t = model.topics[p] as Topic;
    return topicItems(t.id, t, [], () => topicFragment(o, t));
  };
  // Held whole only for one that keeps them (the watch mode, through its memo); a cold build makes
  // each when its page or the OpenAPI document's example asks for it: at 300,000 topics, 300,000
  // strings not held through the rest of the rendering.
  const keptTopicItems =
    memo !== undefined || options.fragments !== undefined ? model.topics.map((_, p) => topicItemAt(p)) : null;
  const topicFragments: FragmentList = keptTopicItems ?? { length: model.topics.length, at: topicItemAt };
  yield* packFiles(
    'topics',
    model.topics.map((t) => String(t.id)),
    (p) => topicDetailBody(o, model.topics[p] as Topic, model.topicEntries),
    undefined,
    packMemo((p) => {
      const t = model.topics[p] as Topic;
      return { record: t, extras: [model.topicEntries.get(t.id)] };
    }),
  );

  // Every page of every pre-rendered list.
  const fragments: Record<Collection, FragmentList> = {
    entries: entryFragments,
    categories: categoryFragments,
    topics: topicFragments,
  };
  if (keptTopicItems !== null)
    options.fragments?.({ entries: entryFragments, categories: categoryFragments, topics: keptTopicItems });
  const pages = cacheOf<string>(memo, 'pages');
  for (const list of prerenderedLists({
    period: model.config.period,
    calendar: model.config.calendar,
    entryDates: dates,
  })) {
    const all = fragments[list.collection];
    const slice = list.collection === 'entries' ? entrySlice(dates, list.filters) : wholeList(all.length);
    yield* allPages(
      collectionURL(o.apiOrigin, list.collection),
      all,
      size,
      slice,
      (page) => pageFile(list.dir, page),
      pages,
    );
  }
  yield* topicListPages(o.apiOrigin, model, topicFragments, pages);

  // The site index reads the entries' item fields (as their fragments do), the slugs, the ids,
  // the counts of the topic lists and the rules of the titles.
  const siteIndex = cacheOf<string>(memo, 'site-index');
  const { convention, format } = titleRules(model.config);
  const indexInputs = [
    entryFragments,
    model.categories.map((c) => c.slug),
    model.topics.map((t) => t.id),
    JSON.stringify(topicListCounts(model)),
    // The rules it states for the entries' titles: a convention may change and no title with it.
    JSON.stringify({ convention, format }),
  ];
  yield { path: SITE_INDEX_FILE, body: siteIndex(SITE_INDEX_FILE, NO_RECORD, indexInputs, () => siteIndexBody(model)) };
  yield { path: TOPIC_KINDS_FILE, body: topicKindsBody(model.topics) };
  yield* feedFiles(model);
  yield openApiFile(model, fragments, memo);
  if (options.withoutSearchIndex !== true) yield* searchIndexFiles(model, options.searchIndex, options.searchBasis);
  if (options.withoutDownloads !== true) {
    const downloads = downloadFiles(model);
    yield* downloads.files;
    yield downloads.list;
  }
  yield staticHeadersFile();
}

/**
 * Every file of the site, one at a time: a caller that writes each as it comes never holds the
 * whole site in memory (the cold build); one that keeps them all can (renderSite).
 */
export function renderFiles(model: Model, memo?: RenderMemo, options: RenderOptions = {}): Generator<OutputFile> {
  return renderRecords(model, memo, options);
}

export function renderSite(model: Model, memo?: RenderMemo, options: RenderOptions = {}): OutputFile[] {
  return [...renderFiles(model, memo, options)];
}
