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

export function entryFields(e: Pick<EntryDetail, 'title' | 'entryHTML' | 'footnotesHTML'>): Fields {
  return [e.title, htmlText(e.entryHTML), htmlText(e.footnotesHTML)];
}

export function topicFields(t: Pick<TopicDetail, 'title' | 'tooltipText' | 'wheatleyHTML'>): Fields {
  return [t.title, t.tooltipText, htmlText(t.wheatleyHTML)];
}
