// Which of the downloads' tables a rebuild's edits leave as they were, so that its database copies
// their rows from the last build's and its NDJSON of their collections is the last build's, none of
// their details made again (downloads.ts lastDownloads). Only for the edits of the fast path
// (render/patch.ts: entries keeping their date, topics their id and categories, nothing else
// changed), whose reach is known from what each row is made of (core/records.ts):
//
// - entries, entries_fts: an entry's detail and searched fields are the entry's own;
// - categories, topic_categories: a category's detail lists the topics filed in it, and no topic
//   changes its categories on the fast path;
// - topics: a topic's detail is the topic's own, and the dates of the entries that mention it;
// - topics_fts: a topic's searched fields are its own;
// - entry_topics: which entries mention which topics.

import type { Entry } from '../core/model.ts';
import { sameList } from './basis.ts';
import type { Table } from './database-tables.ts';
import type { RecordEdits } from './patch.ts';

/**
 * The tables `edits` leave as they were; `before` gives an edited entry as it was (the basis's),
 * null when it cannot (nothing then is known of its topics).
 */
export function tablesLeft(edits: RecordEdits, before: (position: number) => Entry | null): Set<Table> {
  const left = new Set<Table>(['categories', 'topic_categories']);
  const mentionsKept = edits.entries.every(({ position, entry }) => {
    const old = before(position);
    return old !== null && sameList(old.topicIds, entry.topicIds);
  });
  if (edits.entries.length === 0) left.add('entries').add('entries_fts');
  if (edits.topics.length === 0) left.add('topics_fts');
  if (mentionsKept) left.add('entry_topics');
  if (mentionsKept && edits.topics.length === 0) left.add('topics');
  return left;
}
