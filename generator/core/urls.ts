// Every address the API publishes. Origins come from configuration, never from code.

import type { Collection, IsoDate } from './types.ts';

export const API_PATH = '/api/v1';

export function collectionURL(apiOrigin: string, collection: Collection): string {
  return `${apiOrigin}${API_PATH}/${collection}`;
}

export function entryApiURL(apiOrigin: string, date: IsoDate): string {
  return `${apiOrigin}${API_PATH}/entries/${date}`;
}

export function entryWebURL(siteOrigin: string, date: IsoDate): string {
  return `${siteOrigin}/diary/${date.slice(0, 4)}/${date.slice(5, 7)}/${date.slice(8, 10)}/`;
}

export function categoryApiURL(apiOrigin: string, slug: string): string {
  return `${apiOrigin}${API_PATH}/categories/${slug}`;
}

/** `ancestors` run from the top-level category down to the direct parent. */
export function categoryWebURL(siteOrigin: string, ancestors: readonly string[], slug: string): string {
  return `${siteOrigin}/encyclopedia/${[...ancestors, slug].join('/')}/`;
}

export function topicApiURL(apiOrigin: string, id: number): string {
  return `${apiOrigin}${API_PATH}/topics/${id}`;
}

export function topicWebURL(siteOrigin: string, id: number): string {
  return `${siteOrigin}/encyclopedia/${id}/`;
}
