// What is searched of each record, field by field (title, text, notes): for an entry its title,
// its text and its footnotes; for a topic its title, its tooltip and its Wheatley text. The build
// indexes these fields; a search answer cuts its snippets from the same fields of the record's
// detail file, so both see the same words at the same positions.

import type { EntryDetail, TopicDetail } from '../types.ts';
import { htmlText } from './text.ts';

/** The searched collections, and the weight of each field for relevance (title > text > notes). */
export const SEARCH_WEIGHTS = {
  entries: [4, 1, 0.5],
  topics: [4, 1, 0.5],
} as const;

export type SearchCollection = keyof typeof SEARCH_WEIGHTS;

export type Fields = [title: string, text: string, notes: string];

type EntryText = Pick<EntryDetail, 'title' | 'entryHTML' | 'footnotesHTML'>;
type TopicText = Pick<TopicDetail, 'title' | 'tooltipText' | 'wheatleyHTML'>;

export function entryFields(e: EntryText): Fields {
  return [e.title, htmlText(e.entryHTML), htmlText(e.footnotesHTML)];
}

export function topicFields(t: TopicText): Fields {
  return [t.title, t.tooltipText, htmlText(t.wheatleyHTML)];
}

/** Do two entries give the same fields? (What entryFields reads of them is the same.) */
export function sameEntryText(a: EntryText, b: EntryText): boolean {
  return a.title === b.title && a.entryHTML === b.entryHTML && a.footnotesHTML === b.footnotesHTML;
}

/** Do two topics give the same fields? (What topicFields reads of them is the same.) */
export function sameTopicText(a: TopicText, b: TopicText): boolean {
  return a.title === b.title && a.tooltipText === b.tooltipText && a.wheatleyHTML === b.wheatleyHTML;
}
