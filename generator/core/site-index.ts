// The compact index of a built site: enough to answer every list request and to tell an unknown
// record from a known one, without the content. The build writes it (SITE_INDEX_FILE); the local
// server and the edge function load it once.

import { hash64 } from './hash.ts';
import { resultFragment } from './json.ts';
import type { Model } from './model.ts';
import { entryItem } from './records.ts';
import type { IsoDate, Timestamp } from './types.ts';

export interface SiteIndexFile {
  version: 1;
  /** Changes whenever anything a computed answer depends on changes. */
  buildId: string;
  apiOrigin: string;
  siteOrigin: string;
  pageSize: number;
  /** Category slugs, ascending. */
  categories: string[];
  /** Topic ids, ascending. */
  topics: number[];
  /** [date, title, lastModifiedTime] of every entry, ascending by date. */
  entries: Array<[IsoDate, string, Timestamp]>;
}

export interface SiteIndex {
  buildId: string;
  apiOrigin: string;
  siteOrigin: string;
  pageSize: number;
  entryDates: IsoDate[];
  /** Each entry's list item, rendered once as a result fragment. */
  entryFragments: string[];
  categorySlugs: ReadonlySet<string>;
  topicIds: ReadonlySet<number>;
}

export function siteIndexFile(model: Model): SiteIndexFile {
  const { apiOrigin, siteOrigin, pageSize } = model.config;
  const body: Omit<SiteIndexFile, 'buildId' | 'version'> = {
    apiOrigin,
    siteOrigin,
    pageSize,
    categories: model.categories.map((c) => c.slug),
    topics: model.topics.map((t) => t.id),
    entries: model.entries.map((e) => [e.date, e.title, e.lastModifiedTime]),
  };
  const buildId = hash64(JSON.stringify(body));
  return { version: 1, buildId, ...body };
}

/** Loads a parsed SITE_INDEX_FILE; rejects anything that is not one. */
export function loadSiteIndex(file: unknown): SiteIndex {
  const f = file as SiteIndexFile;
  if (
    typeof f !== 'object' || f === null || f.version !== 1 || typeof f.buildId !== 'string' ||
    !Array.isArray(f.entries) || !Array.isArray(f.categories) || !Array.isArray(f.topics)
  ) {
    throw new Error('not a site index (version 1)');
  }
  const origins = { apiOrigin: f.apiOrigin, siteOrigin: f.siteOrigin };
  return {
    buildId: f.buildId,
    apiOrigin: f.apiOrigin,
    siteOrigin: f.siteOrigin,
    pageSize: f.pageSize,
    entryDates: f.entries.map((e) => e[0]),
    entryFragments: f.entries.map(([date, title, lastModifiedTime]) =>
      resultFragment(entryItem(origins, { date, title, lastModifiedTime })),
    ),
    categorySlugs: new Set(f.categories),
    topicIds: new Set(f.topics),
  };
}
