// What a rebuild in a fresh process reuses of the last build's search index (build.ts): the
// entries' index as the live tree holds it, and the entries it was made of (their details, out of
// that tree's packs), so that only the entries whose text changed are indexed again, as the watch
// mode does (search-index.ts changeDocuments; the files are those of an index made whole). The
// reader gives a file's bytes only when they are what the tree's manifest says (output/rebuild.ts
// readLive); a file missing, damaged or not of the same build gives null here, and the build then
// makes the index whole.

import { detailFile, SITE_INDEX_FILE, searchDocsFile, searchShardFile } from '../core/files.ts';
import { unpacking } from '../core/packs.ts';
import { isIndexOf, parseSearchDocs } from '../core/search/index-file.ts';
import { decodeShard } from '../core/search/postings.ts';
import { parseSiteIndex } from '../core/site-index.ts';
import type { EntryDetail } from '../core/types.ts';
import type { EntriesBasis, EntryText } from './search-index.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Bytes as text, or null when they are not UTF-8. */
function textOf(bytes: Uint8Array | null): string | null {
  if (bytes === null) return null;
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** The entries' basis of the tree `read` reads (see above), or null. */
export function entriesBasis(read: (path: string) => Uint8Array | null): EntriesBasis | null {
  // Each file once: the details of a pack's records all come out of one read.
  const kept = new Map<string, Uint8Array | null>();
  const readOnce = (path: string): Uint8Array | null => {
    if (!kept.has(path)) kept.set(path, read(path));
    return kept.get(path) ?? null;
  };
  const siteText = textOf(readOnce(SITE_INDEX_FILE));
  const site = siteText === null ? null : parseSiteIndex(siteText);
  if (site === null || !site.ok) return null;
  const dates = site.value.entryDates;
  const docsText = textOf(readOnce(searchDocsFile('entries')));
  const docs = docsText === null ? null : parseSearchDocs(docsText);
  if (docs === null || !docs.ok) return null;
  if (!isIndexOf(docs.value, 'entries', dates.length)) return null;
  const { shards, count, lengths } = docs.value;
  const postings = new Map<string, string>();
  const shardWords: string[][] = [];
  for (let shard = 0; shard < shards; shard++) {
    const text = textOf(readOnce(searchShardFile('entries', shard)));
    const lines = text === null ? null : decodeShard(text);
    if (lines === null) return null;
    shardWords.push(lines.map(([word]) => word));
    for (const [word, packed] of lines) postings.set(word, packed);
  }
  const details = unpacking(readOnce, site.value);
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
  return { entries, index: { collection: 'entries', shards, count, lengths, postings, shardWords } };
}
