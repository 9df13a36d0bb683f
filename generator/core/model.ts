// The validated content model: plain records and the indexes derived from them.
// Built by generator/content/build-model.ts; read by the renderers.

import type { CalendarName } from './calendar.ts';
import type { License } from './license.ts';
import type { ENTRY, ModelOf, TOPIC } from './record-fields.ts';
import type { IsoDate, Timestamp } from './types.ts';
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

/** An entry of the model: its description's fields that are not computed (record-fields.ts ENTRY). */
export type Entry = ModelOf<typeof ENTRY>;

export interface Category {
  slug: string;
  title: string;
  parent: string | null;
}

/** A topic of the model: its description's fields that are not computed (record-fields.ts TOPIC). */
export type Topic = ModelOf<typeof TOPIC>;

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
