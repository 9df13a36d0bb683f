// What a rebuild in a fresh process reuses of the last build's search index (build.ts): the
// entries' index as the live tree holds it, and the entries it was made of (their details, out of
// that tree's packs), so that only the entries whose text changed are indexed again, as the watch
// mode does (search-index.ts changeDocuments; the files are those of an index made whole). The
// reader gives a file's bytes only when they are what the tree's manifest says (output/rebuild.ts
// readLive); a file missing, damaged or not of the same build gives null here, and the build then
// makes the index whole.

import { detailFile, SITE_INDEX_FILE, searchDocsFile, searchShardFile } from '../core/files.ts';
import { unpacking } from '../core/packs.ts';
import type { SearchCollection } from '../core/search/documents.ts';
import { isIndexOf, parseSearchDocs } from '../core/search/index-file.ts';
import { decodeShard } from '../core/search/postings.ts';
import { parseSiteIndex, type SiteIndex } from '../core/site-index.ts';
import type { EntryDetail } from '../core/types.ts';
import type { CollectionIndex, EntriesBasis, EntryText } from './search-index.ts';
import { runToEnd } from './steps.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Bytes as text, or null when they are not UTF-8. */
export function textOf(bytes: Uint8Array | null): string | null {
  if (bytes === null) return null;
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** A reader that reads each file once: the details of a pack's records all come out of one read. */
export function readingOnce(read: (path: string) => Uint8Array | null): (path: string) => Uint8Array | null {
  const kept = new Map<string, Uint8Array | null>();
  return (path) => {
    if (!kept.has(path)) kept.set(path, read(path));
    return kept.get(path) ?? null;
  };
}

/** The site index of the tree `read` reads, or null. */
export function liveSiteIndex(read: (path: string) => Uint8Array | null): SiteIndex | null {
  const text = textOf(read(SITE_INDEX_FILE));
  const site = text === null ? null : parseSiteIndex(text);
  return site === null || !site.ok ? null : site.value;
}

/** A collection's index as the tree `read` reads holds it, when it is of `count` records; else null. */
function collectionIndexOf(
  read: (path: string) => Uint8Array | null,
  collection: SearchCollection,
  count: number,
): CollectionIndex | null {
  return runToEnd(collectionIndexSteps(read, collection, count));
}

/** The same, a shard at a time: undefined after each (a caller may let its event loop turn there). */
export function* collectionIndexSteps(
  read: (path: string) => Uint8Array | null,
  collection: SearchCollection,
  count: number,
): Generator<undefined, CollectionIndex | null> {
  const docsText = textOf(read(searchDocsFile(collection)));
  const docs = docsText === null ? null : parseSearchDocs(docsText);
  if (docs === null || !docs.ok) return null;
  if (!isIndexOf(docs.value, collection, count)) return null;
  const { shards, lengths } = docs.value;
  const postings = new Map<string, string>();
  const shardWords: string[][] = [];
  for (let shard = 0; shard < shards; shard++) {
    const text = textOf(read(searchShardFile(collection, shard)));
    const lines = text === null ? null : decodeShard(text);
    if (lines === null) return null;
    shardWords.push(lines.map(([word]) => word));
    for (const [word, packed] of lines) postings.set(word, packed);
    yield;
  }
  return { collection, shards, count: docs.value.count, lengths, postings, shardWords };
}

/** The entries' basis of the tree `read` reads (see above), or null. */
export function entriesBasis(read: (path: string) => Uint8Array | null): EntriesBasis | null {
  const readOnce = readingOnce(read);
  const site = liveSiteIndex(readOnce);
  if (site === null) return null;
  const dates = site.entryDates;
  const index = collectionIndexOf(readOnce, 'entries', dates.length);
  if (index === null) return null;
  const details = unpacking(readOnce, site);
  const entries: EntryText[] = [];
  for (const date of dates) {
    const text = textOf(details(detailFile('entries', date)) as Uint8Array | null);
    if (text === null) return null;
    let d: Partial<EntryDetail>;
    try {
      d = JSON.parse(text) as Partial<EntryDetail>;
    } catch {
      return null;
    }
    const { title, entryHTML, footnotesHTML } = d;
    if (
      d.date !== date ||
      typeof title !== 'string' ||
      typeof entryHTML !== 'string' ||
      typeof footnotesHTML !== 'string'
    )
      return null;
    entries.push({ date, title, entryHTML, footnotesHTML });
  }
  return { entries, index };
}
