// The records of the API contract (../shared/API.md), described once.
// Field order in these interfaces is the order of the JSON output; the record builders in
// records.ts create objects in exactly this order.

/** `YYYY-MM-DD`, the diary's own (Julian) date. */
export type IsoDate = string;
/** `YYYY-MM-DDTHH:MM:SSZ`, UTC, whole seconds. */
export type Timestamp = string;
export type TopicKind = 'person' | 'place' | 'default';
export const TOPIC_KINDS: readonly TopicKind[] = ['person', 'place', 'default'];

export interface Root {
  categories: string;
  entries: string;
  topics: string;
}

/** A file of the whole data, as /api/v1/downloads lists it (render/downloads.ts). */
export interface Download {
  /** The file's name, the last segment of its URL. */
  name: string;
  description: string;
  /** Absolute. */
  url: string;
  /** The Content-Type it is served with. */
  mediaType: string;
  /** Its size as served (no content coding is applied to it). */
  bytes: number;
  /** The SHA-256 of those bytes, lower-case hex. */
  sha256: string;
}

export interface DownloadList {
  downloads: Download[];
  /** The licence of the data (site.yaml `license`), when the site states one. */
  license?: { name: string; url: string; identifier?: string };
}

export interface EntryItem {
  date: IsoDate;
  title: string;
  lastModifiedTime: Timestamp;
  apiURL: string;
  webURL: string;
}

export interface EntryDetail {
  date: IsoDate;
  title: string;
  entryHTML: string;
  footnotesHTML: string;
  annotationCount: number;
  lastAnnotationTime: Timestamp | null;
  topics: string[];
  lastModifiedTime: Timestamp;
  apiURL: string;
  webURL: string;
}

/** A list item in a search answer: the item, then an excerpt around the first match (HTML, <mark>ed). */
export type Searched<T> = T & { snippet: string };

export interface CategoryItem {
  slug: string;
  title: string;
  topicCount: number;
  depth: number;
  parents: string[];
  children: string[];
  apiURL: string;
  webURL: string;
}

export interface CategoryDetail {
  slug: string;
  title: string;
  topicCount: number;
  depth: number;
  parents: string[];
  children: string[];
  topics: string[];
  apiURL: string;
  webURL: string;
}

export interface TopicItem {
  id: number;
  title: string;
  orderTitle: string;
  kind: TopicKind;
  lastModifiedTime: Timestamp;
  apiURL: string;
  webURL: string;
}

export interface TopicDetail {
  id: number;
  title: string;
  orderTitle: string;
  wheatleyHTML: string;
  tooltipText: string;
  wikipediaURL: string | null;
  thumbnailURL: string | null;
  annotationCount: number;
  lastAnnotationTime: Timestamp | null;
  kind: TopicKind;
  latitude: number | null;
  longitude: number | null;
  zoom: number | null;
  shape: string;
  categories: string[];
  entries: string[];
  lastModifiedTime: Timestamp;
  apiURL: string;
  webURL: string;
}

export interface ListEnvelope<T> {
  totalResults: number;
  totalPages: number;
  nextPageURL: string | null;
  previousPageURL: string | null;
  results: T[];
}

export interface ErrorBody {
  detail: string;
  status_code: number;
}

/** The three collections of the API. */
export type Collection = 'entries' | 'categories' | 'topics';
