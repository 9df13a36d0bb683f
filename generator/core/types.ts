// The records of the API contract (../shared/API.md), by name: their types are inferred from
// their descriptions (record-fields.ts), whose order is the order of the JSON output.

import type { CATEGORY, DetailOf, DOWNLOAD, ENTRY, ERROR, ItemOf, ROOT, TOPIC } from './record-fields.ts';

/** `YYYY-MM-DD`, the diary's own (Julian) date. */
export type IsoDate = string;
/** `YYYY-MM-DDTHH:MM:SSZ`, UTC, whole seconds. */
export type Timestamp = string;

export type Root = DetailOf<typeof ROOT>;

/** A file of the whole data, as /api/v1/downloads lists it (render/downloads.ts). */
export type Download = DetailOf<typeof DOWNLOAD>;

/** The listing of the downloads (its schema: record-fields.ts DOWNLOAD_LIST, and the site's licence). */
export interface DownloadList {
  downloads: Download[];
  /** The licence of the data (site.yaml `license`), when the site states one. */
  license?: { name: string; url: string; identifier?: string };
}

export type EntryItem = ItemOf<typeof ENTRY>;
export type EntryDetail = DetailOf<typeof ENTRY>;

/** A list item in a search answer: the item, then an excerpt around the first match (HTML, <mark>ed). */
export type Searched<T> = T & { snippet: string };

export type CategoryItem = ItemOf<typeof CATEGORY>;
export type CategoryDetail = DetailOf<typeof CATEGORY>;

export type TopicItem = ItemOf<typeof TOPIC>;
export type TopicDetail = DetailOf<typeof TOPIC>;

export interface ListEnvelope<T> {
  totalResults: number;
  totalPages: number;
  nextPageURL: string | null;
  previousPageURL: string | null;
  results: T[];
}

export type ErrorBody = DetailOf<typeof ERROR>;

/** The three collections of the API. */
export type Collection = 'entries' | 'categories' | 'topics';
