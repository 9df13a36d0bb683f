// Every address the API publishes. Origins come from configuration, never from code.

import type { Collection, IsoDate } from './types.ts';

export const API_PATH = '/api/v1';

export function collectionURL(apiOrigin: string, collection: Collection): string {
  return `${apiOrigin}${API_PATH}/${collection}`;
}

export function entryApiURL(apiOrigin: string, date: IsoDate): string {
  return `${apiOrigin}${API_PATH}/entries/${date}`;
}

/**
 * Templates of the human-readable pages every webURL points at (site.yaml `webURLs`). `{site}` is
 * the site's origin; an entry's also has `{date}`, `{yyyy}`, `{mm}` and `{dd}`; a category's
 * `{path}` (the slugs from the top of the tree down to its own, joined by '/') and `{slug}`; a
 * topic's `{id}`.
 */
export interface WebURLs {
  entry: string;
  category: string;
  topic: string;
}

/** pepysdiary.com's pages. */
export const DEFAULT_WEB_URLS: Readonly<WebURLs> = {
  entry: '{site}/diary/{yyyy}/{mm}/{dd}/',
  category: '{site}/encyclopedia/{path}/',
  topic: '{site}/encyclopedia/{id}/',
};

/** The placeholders each template may use. */
export const WEB_URL_PLACEHOLDERS: Readonly<Record<keyof WebURLs, readonly string[]>> = {
  entry: ['site', 'date', 'yyyy', 'mm', 'dd'],
  category: ['site', 'path', 'slug'],
  topic: ['site', 'id'],
};

/** What a record's webURL is made of: the site's origin and the templates. */
export interface WebSite {
  siteOrigin: string;
  webURLs: Readonly<WebURLs>;
}

const PLACEHOLDER = /\{([a-z]+)\}/;

/**
 * Each template met, as its text between placeholders and the placeholders' names (at odd places):
 * split once, not searched again for each of thousands of records. A site has a few templates.
 */
const templates = new Map<string, readonly string[]>();

/** A template with its placeholders replaced (the configuration checked that each is known). */
export function expandWebURL(template: string, values: Readonly<Record<string, string>>): string {
  let parts = templates.get(template);
  if (parts === undefined) {
    parts = template.split(PLACEHOLDER);
    if (templates.size >= 64) templates.clear();
    templates.set(template, parts);
  }
  let out = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    out += (values[name] ?? `{${name}}`) + (parts[i + 1] as string);
  }
  return out;
}

export function entryWebURL(w: WebSite, date: IsoDate): string {
  const yyyy = date.slice(0, 4);
  const mm = date.slice(5, 7);
  const dd = date.slice(8, 10);
  return expandWebURL(w.webURLs.entry, { site: w.siteOrigin, date, yyyy, mm, dd });
}

export function categoryApiURL(apiOrigin: string, slug: string): string {
  return `${apiOrigin}${API_PATH}/categories/${slug}`;
}

/** `ancestors` run from the top-level category down to the direct parent. */
export function categoryWebURL(w: WebSite, ancestors: readonly string[], slug: string): string {
  return expandWebURL(w.webURLs.category, { site: w.siteOrigin, path: [...ancestors, slug].join('/'), slug });
}

export function topicApiURL(apiOrigin: string, id: number): string {
  return `${apiOrigin}${API_PATH}/topics/${id}`;
}

export function topicWebURL(w: WebSite, id: number): string {
  return expandWebURL(w.webURLs.topic, { site: w.siteOrigin, id: String(id) });
}
