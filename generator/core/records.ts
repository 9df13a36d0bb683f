// Model records to contract records. Objects are built field by field in the order of their
// descriptions (record-fields.ts), the contract's, because JSON.stringify writes keys in insertion
// order: a field the model keeps is copied by name, the others are computed here.

import type { Category, Entry, Model, Topic } from './model.ts';
import { CATEGORY, ENTRY, fieldsOf, itemFieldsOf, TOPIC } from './record-fields.ts';
import type {
  CategoryDetail,
  CategoryItem,
  Collection,
  EntryDetail,
  EntryItem,
  Root,
  TopicDetail,
  TopicItem,
} from './types.ts';
import {
  categoryApiURL,
  categoryWebURL,
  collectionURL,
  entryApiURL,
  entryWebURL,
  topicApiURL,
  topicWebURL,
  type WebSite,
} from './urls.ts';

/** What every record links with: the API's origin, and the site and templates of its webURLs. */
export interface Origins extends WebSite {
  apiOrigin: string;
}

/** The origins and templates every record of a site links with. */
export function originsOf(model: Pick<Model, 'config'>): Origins {
  const { apiOrigin, siteOrigin, webURLs } = model.config;
  return { apiOrigin, siteOrigin, webURLs };
}

export function root(apiOrigin: string): Root {
  const url = (c: Collection) => collectionURL(apiOrigin, c);
  return { categories: url('categories'), entries: url('entries'), topics: url('topics') };
}

/**
 * A builder of records `T`: its fields `keys` in order, each copied from `from` by name, but those
 * of `computed`, taken from `values`. Made once for each kind of record: no closure a field, one
 * plain loop a record.
 */
function builder<T, C extends keyof T & string>(
  keys: ReadonlyArray<keyof T & string>,
  computed: readonly C[],
): (from: Omit<T, C>, values: Pick<T, C>) => T {
  const n = keys.length;
  const own = keys.map((k) => (computed as readonly string[]).includes(k));
  return (from, values) => {
    const source = from as Record<string, unknown>;
    const given = values as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const k = keys[i] as string;
      out[k] = own[i] === true ? given[k] : source[k];
    }
    return out as T;
  };
}

const URLS = ['apiURL', 'webURL'] as const;
const makeEntryItem = builder<EntryItem, (typeof URLS)[number]>(itemFieldsOf(ENTRY), URLS);
const pickEntryItem = builder<EntryItem, never>(itemFieldsOf(ENTRY), []);
const makeEntryDetail = builder<EntryDetail, 'topics' | (typeof URLS)[number]>(fieldsOf(ENTRY), ['topics', ...URLS]);
const CATEGORY_COMPUTED = ['topicCount', 'depth', 'parents', 'children', ...URLS] as const;
const makeCategoryItem = builder<CategoryItem, (typeof CATEGORY_COMPUTED)[number]>(
  itemFieldsOf(CATEGORY),
  CATEGORY_COMPUTED,
);
const categoryDetailOfItem = builder<CategoryDetail, 'topics'>(fieldsOf(CATEGORY), ['topics']);
const makeTopicItem = builder<TopicItem, (typeof URLS)[number]>(itemFieldsOf(TOPIC), URLS);
const pickTopicItem = builder<TopicItem, never>(itemFieldsOf(TOPIC), []);
const makeTopicDetail = builder<TopicDetail, 'categories' | 'entries' | (typeof URLS)[number]>(fieldsOf(TOPIC), [
  'categories',
  'entries',
  ...URLS,
]);

const NOTHING = {};

/** The fields of an entry that its list item needs. */
export type EntrySummary = Omit<EntryItem, (typeof URLS)[number]>;

export function entryItem(o: Origins, e: EntrySummary): EntryItem {
  return makeEntryItem(e, { apiURL: entryApiURL(o.apiOrigin, e.date), webURL: entryWebURL(o, e.date) });
}

/** An entry's list item, from its detail (a detail file read back): the same fields, in order. */
export function entryItemOf(d: EntryDetail): EntryItem {
  return pickEntryItem(d, NOTHING);
}

export function entryDetail(o: Origins, e: Entry): EntryDetail {
  return makeEntryDetail(e, {
    topics: e.topicIds.map((id) => topicApiURL(o.apiOrigin, id)),
    apiURL: entryApiURL(o.apiOrigin, e.date),
    webURL: entryWebURL(o, e.date),
  });
}

export function categoryItem(o: Origins, m: Model, c: Category): CategoryItem {
  const ancestors = m.categoryAncestors.get(c.slug) ?? [];
  return makeCategoryItem(c, {
    topicCount: (m.categoryTopics.get(c.slug) ?? []).length,
    depth: ancestors.length + 1,
    parents: ancestors.map((s) => categoryApiURL(o.apiOrigin, s)),
    children: (m.categoryChildren.get(c.slug) ?? []).map((s) => categoryApiURL(o.apiOrigin, s)),
    apiURL: categoryApiURL(o.apiOrigin, c.slug),
    webURL: categoryWebURL(o, ancestors, c.slug),
  });
}

export function categoryDetail(o: Origins, m: Model, c: Category): CategoryDetail {
  return categoryDetailOfItem(categoryItem(o, m, c), {
    topics: (m.categoryTopics.get(c.slug) ?? []).map((id) => topicApiURL(o.apiOrigin, id)),
  });
}

export function topicItem(o: Origins, t: Topic): TopicItem {
  return makeTopicItem(t, { apiURL: topicApiURL(o.apiOrigin, t.id), webURL: topicWebURL(o, t.id) });
}

/** A topic's list item, from its detail (a detail file read back): the same fields, in order. */
export function topicItemOf(d: TopicDetail): TopicItem {
  return pickTopicItem(d, NOTHING);
}

export function topicDetail(o: Origins, m: Model, t: Topic): TopicDetail {
  return makeTopicDetail(t, {
    categories: t.categorySlugs.map((s) => categoryApiURL(o.apiOrigin, s)),
    entries: (m.topicEntries.get(t.id) ?? []).map((d) => entryApiURL(o.apiOrigin, d)),
    apiURL: topicApiURL(o.apiOrigin, t.id),
    webURL: topicWebURL(o, t.id),
  });
}
