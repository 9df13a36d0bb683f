// Where each pre-rendered answer lives under the output directory. The build writes these
// paths, the local server and the edge functions look them up, the CDN rules point at them:
// one mapping for all.

import type { Collection } from './types.ts';

export const ROOT_FILE = 'api/v1/index.json';
/** The OpenAPI document of the API, served at /api/v1/schema. */
export const SCHEMA_FILE = 'api/v1/schema.json';
/** The compact index the local server and the edge functions load (not part of the API). */
export const SITE_INDEX_FILE = '_data/site-index.json';
/** The ids of the people and the places, for `/api/v1/topics?kind=` (core/filters.ts). */
export const TOPIC_KINDS_FILE = '_data/topic-kinds.json';

/**
 * The name a record's detail is read by. No file of that name is written: the detail lives in its
 * pack (core/packs.ts), and the handler's reader (`unpacking`) reads it out of there by this name.
 */
export function detailFile(collection: Collection, key: string): string {
  return `api/v1/${collection}/${key}.json`;
}

/** Page `page` of the list whose pages live under `dir` (see prerendered.ts). */
export function pageFile(dir: string, page: number): string {
  return `${dir}/pages/${page}.json`;
}

/** The feeds of the latest entries (render/feeds.ts), served at FEED_PATHS. */
export const FEED_FILES = { atom: 'api/v1/feeds/entries.atom', json: 'api/v1/feeds/entries.json' } as const;
/** The list of the whole-data files, served at /api/v1/downloads. */
export const DOWNLOADS_FILE = 'api/v1/downloads/index.json';
/** The whole-data files (render/downloads.ts), by name, with the media type each is served with. */
export const DOWNLOAD_TYPES: ReadonlyMap<string, string> = new Map([
  ['entries.ndjson.gz', 'application/gzip'],
  ['categories.ndjson.gz', 'application/gzip'],
  ['topics.ndjson.gz', 'application/gzip'],
  ['diary.sqlite', 'application/vnd.sqlite3'],
]);
export function downloadFile(name: string): string {
  return `api/v1/downloads/${name}`;
}
/** The whole-data files, as files of the output (their list, DOWNLOADS_FILE, is not one of them). */
export const DOWNLOAD_FILES: readonly string[] = [...DOWNLOAD_TYPES.keys()].map(downloadFile);
/** The whole-data files and their list: what making the downloads adds to a tree. */
export const DOWNLOADS_WITH_LIST: readonly string[] = [...DOWNLOAD_FILES, DOWNLOADS_FILE];
/**
 * The URL paths of the whole-data files. The CDNs serve these as static files, bypassing the
 * function (Netlify's `excludedPath`, Cloudflare's `run_worker_first` exclusions): a function
 * would read and hash megabytes on every request for bytes that never change within a deploy.
 */
export const DOWNLOAD_PATHS: readonly string[] = DOWNLOAD_FILES.map((file) => `/${file}`);
/** The headers rules of the CDNs for their static files (the downloads), in the `_headers` format both read. */
export const STATIC_HEADERS_FILE = '_headers';
/** The search index of a collection (see core/search/): its documents' statistics... */
export function searchDocsFile(collection: 'entries' | 'topics'): string {
  return `_data/search/${collection}/docs.json`;
}

/** ...and its shards, each holding the postings of some of the words. */
export function searchShardFile(collection: 'entries' | 'topics', shard: number): string {
  return `_data/search/${collection}/${shard}.txt`;
}
