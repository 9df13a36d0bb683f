// The validated content model: plain records and the indexes derived from them.
// Built by generator/content/build-model.ts; read by the renderers.

import type { CalendarName } from './calendar.ts';
import type { License } from './license.ts';
import type { IsoDate, Timestamp, TopicKind } from './types.ts';
import type { WebURLs } from './urls.ts';

export type TitleConvention = 'seed' | 'every-year' | 'single';

export interface SiteConfig {
  /** The diary's title: the feeds' (and, later, the HTML view's and the OpenAPI document's). */
  title: string;
  /** Whose diary it is: the author of the feeds. */
  author: string;
  /** `{base}`: origin of every apiURL and page link, without a trailing slash. */
  apiOrigin: string;
  /** `{site}`: origin of every webURL, without a trailing slash. */
  siteOrigin: string;
  pageSize: number;
  /** The diary's first and last day, in its calendar. */
  period: { start: IsoDate; end: IsoDate };
  /** The calendar the entries' dates are written in. */
  calendar: CalendarName;
  /** The licence of the data (site.yaml `license`), or null when the site states none. */
  license: License | null;
  /** Names and word order of entry titles: a date-fns locale code, or `en` (content/locale.ts). */
  locale: string;
  titleConvention: TitleConvention;
  /**
   * The categories whose topics (theirs and their subcategories') are people and places, unless a
   * topic's file gives its kind: slugs.
   */
  kinds: { person: string[]; place: string[] };
  /**
   * Origins besides siteOrigin whose topic pages (`/encyclopedia/<id>/`) an entry's text may link
   * to: such a link makes the entry mention the topic.
   */
  linkOrigins: string[];
  /** Templates of every webURL (core/urls.ts). */
  webURLs: WebURLs;
  /** Default lastModifiedTime of records whose file gives none. */
  lastModifiedTime: Timestamp;
}

export interface Entry {
  date: IsoDate;
  title: string;
  entryHTML: string;
  footnotesHTML: string;
  annotationCount: number;
  lastAnnotationTime: Timestamp | null;
  /** Ascending. */
  topicIds: number[];
  lastModifiedTime: Timestamp;
}

export interface Category {
  slug: string;
  title: string;
  parent: string | null;
}

export interface Topic {
  id: number;
  title: string;
  orderTitle: string;
  kind: TopicKind;
  wheatleyHTML: string;
  tooltipText: string;
  wikipediaURL: string | null;
  thumbnailURL: string | null;
  annotationCount: number;
  lastAnnotationTime: Timestamp | null;
  latitude: number | null;
  longitude: number | null;
  zoom: number | null;
  shape: string;
  /** Ascending by slug. */
  categorySlugs: string[];
  lastModifiedTime: Timestamp;
}

export interface Model {
  config: SiteConfig;
  /** Ascending by date. */
  entries: Entry[];
  /** Ascending by slug. */
  categories: Category[];
  /** Ascending by id. */
  topics: Topic[];
  /** Dates of the entries that mention each topic, ascending. */
  topicEntries: Map<number, IsoDate[]>;
  /** Ids of each category's topics, ascending. */
  categoryTopics: Map<string, number[]>;
  /** Slugs of each category's direct children, by title then slug. */
  categoryChildren: Map<string, string[]>;
  /** Slugs of each category's ancestors, top-level first. */
  categoryAncestors: Map<string, string[]>;
}
