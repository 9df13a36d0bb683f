// Model records to contract records. Objects are built field by field in contract order,
// because JSON.stringify writes keys in insertion order.

import type { Category, Entry, Model, Topic } from './model.ts';
import type {
  CategoryDetail,
  CategoryItem,
  Collection,
  EntryDetail,
  EntryItem,
  IsoDate,
  Root,
  Timestamp,
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

/** The three fields of an entry that its list item needs. */
export interface EntrySummary {
  date: IsoDate;
  title: string;
  lastModifiedTime: Timestamp;
}

export function entryItem(o: Origins, e: EntrySummary): EntryItem {
  return {
    date: e.date,
    title: e.title,
    lastModifiedTime: e.lastModifiedTime,
    apiURL: entryApiURL(o.apiOrigin, e.date),
    webURL: entryWebURL(o, e.date),
  };
}

/** An entry's list item, from its detail (a detail file read back): the same fields, in order. */
export function entryItemOf(d: EntryDetail): EntryItem {
  return { date: d.date, title: d.title, lastModifiedTime: d.lastModifiedTime, apiURL: d.apiURL, webURL: d.webURL };
}

export function entryDetail(o: Origins, e: Entry): EntryDetail {
  return {
    date: e.date,
    title: e.title,
    entryHTML: e.entryHTML,
    footnotesHTML: e.footnotesHTML,
    annotationCount: e.annotationCount,
    lastAnnotationTime: e.lastAnnotationTime,
    topics: e.topicIds.map((id) => topicApiURL(o.apiOrigin, id)),
    lastModifiedTime: e.lastModifiedTime,
    apiURL: entryApiURL(o.apiOrigin, e.date),
    webURL: entryWebURL(o, e.date),
  };
}

export function categoryItem(o: Origins, m: Model, c: Category): CategoryItem {
  const ancestors = m.categoryAncestors.get(c.slug) ?? [];
  return {
    slug: c.slug,
    title: c.title,
    topicCount: (m.categoryTopics.get(c.slug) ?? []).length,
    depth: ancestors.length + 1,
    parents: ancestors.map((s) => categoryApiURL(o.apiOrigin, s)),
    children: (m.categoryChildren.get(c.slug) ?? []).map((s) => categoryApiURL(o.apiOrigin, s)),
    apiURL: categoryApiURL(o.apiOrigin, c.slug),
    webURL: categoryWebURL(o, ancestors, c.slug),
  };
}

export function categoryDetail(o: Origins, m: Model, c: Category): CategoryDetail {
  const item = categoryItem(o, m, c);
  return {
    slug: item.slug,
    title: item.title,
    topicCount: item.topicCount,
    depth: item.depth,
    parents: item.parents,
    children: item.children,
    topics: (m.categoryTopics.get(c.slug) ?? []).map((id) => topicApiURL(o.apiOrigin, id)),
    apiURL: item.apiURL,
    webURL: item.webURL,
  };
}

export function topicItem(o: Origins, t: Topic): TopicItem {
  return {
    id: t.id,
    title: t.title,
    orderTitle: t.orderTitle,
    kind: t.kind,
    lastModifiedTime: t.lastModifiedTime,
    apiURL: topicApiURL(o.apiOrigin, t.id),
    webURL: topicWebURL(o, t.id),
  };
}

/** A topic's list item, from its detail (a detail file read back): the same fields, in order. */
export function topicItemOf(d: TopicDetail): TopicItem {
  return {
    id: d.id,
    title: d.title,
    orderTitle: d.orderTitle,
    kind: d.kind,
    lastModifiedTime: d.lastModifiedTime,
    apiURL: d.apiURL,
    webURL: d.webURL,
  };
}

export function topicDetail(o: Origins, m: Model, t: Topic): TopicDetail {
  return {
    id: t.id,
    title: t.title,
    orderTitle: t.orderTitle,
    wheatleyHTML: t.wheatleyHTML,
    tooltipText: t.tooltipText,
    wikipediaURL: t.wikipediaURL,
    thumbnailURL: t.thumbnailURL,
    annotationCount: t.annotationCount,
    lastAnnotationTime: t.lastAnnotationTime,
    kind: t.kind,
    latitude: t.latitude,
    longitude: t.longitude,
    zoom: t.zoom,
    shape: t.shape,
    categories: t.categorySlugs.map((s) => categoryApiURL(o.apiOrigin, s)),
    entries: (m.topicEntries.get(t.id) ?? []).map((d) => entryApiURL(o.apiOrigin, d)),
    lastModifiedTime: t.lastModifiedTime,
    apiURL: topicApiURL(o.apiOrigin, t.id),
    webURL: topicWebURL(o, t.id),
  };
}
