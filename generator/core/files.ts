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

export function detailFile(collection: Collection, key: string): string {
  return `api/v1/${collection}/${key}.json`;
}

/** Page `page` of the list whose pages live under `dir` (see prerendered.ts). */
export function pageFile(dir: string, page: number): string {
  return `${dir}/pages/${page}.json`;
}

/** The feeds of the latest entries (render/feeds.ts), served at FEED_PATHS. */
export const FEED_FILES = { atom: 'api/v1/feeds/entries.atom', json: 'api/v1/feeds/entries.json' } as const;
/** The search index of a collection (see core/search/): its documents' statistics... */
export function searchDocsFile(collection: 'entries' | 'topics'): string {
  return `_data/search/${collection}/docs.json`;
}

/** ...and its shards, each holding the postings of some of the words. */
export function searchShardFile(collection: 'entries' | 'topics', shard: number): string {
  return `_data/search/${collection}/${shard}.txt`;
}
