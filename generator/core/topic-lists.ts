// The lists of the topics of one category or of one kind (`/api/v1/topics?category=…` or
// `?kind=…`, the filter alone): the build writes their pages as it writes the unfiltered list's,
// and the site index counts their topics. So such a page is one file to read, where it was the
// details of its 50 topics, each out of its pack (issue 34: an answer reads at most 20 files). The
// pages are those a filtered list computes (core/filters.ts), byte for byte: the topics in the
// list's order, the filter in the links.

import { pageFile } from './files.ts';
import type { Model } from './model.ts';
import { TOPIC_KINDS, type TopicKind } from './record-fields.ts';

/** One such list: the filter that selects it and its value. */
export type TopicList = { filter: 'category'; value: string } | { filter: 'kind'; value: TopicKind };

/** Page `page` of a list's pages, under the output directory. */
export function topicListFile(list: TopicList, page: number): string {
  return pageFile(`api/v1/topics/${list.filter === 'category' ? 'categories' : 'kinds'}/${list.value}`, page);
}

type Listed = Pick<Model, 'categories' | 'categoryTopics' | 'topics'>;

/** What the site index says of them: the topics of each category (in the model's order) and of each kind. */
export function topicListCounts(model: Listed): { categoryTopics: number[]; kindTopics: Record<TopicKind, number> } {
  const kindTopics = Object.fromEntries(TOPIC_KINDS.map((kind) => [kind, 0])) as Record<TopicKind, number>;
  for (const t of model.topics) kindTopics[t.kind]++;
  return {
    categoryTopics: model.categories.map((c) => (model.categoryTopics.get(c.slug) ?? []).length),
    kindTopics,
  };
}

/** Which lists to make (topicLists), and the topics' positions by id when the caller keeps them. */
export interface ListsWanted {
  categories?: ReadonlySet<string>;
  kinds?: ReadonlySet<TopicKind>;
  positionOf?: ReadonlyMap<number, number>;
}

/**
 * Every list that holds a topic, or those `wanted` names, with the positions of its topics in the
 * unfiltered list (ascending): the categories in the model's order, then the kinds. (The watch
 * mode's edit of a topic asks for its own lists only: at 100,000 topics, all of them took 45 ms.)
 */
export function topicLists(model: Listed, wanted: ListsWanted = {}): Array<{ list: TopicList; positions: number[] }> {
  const positionOf = wanted.positionOf ?? new Map(model.topics.map((t, p) => [t.id, p]));
  const lists: Array<{ list: TopicList; positions: number[] }> = [];
  for (const c of model.categories) {
    if (wanted.categories !== undefined && !wanted.categories.has(c.slug)) continue;
    const positions = (model.categoryTopics.get(c.slug) ?? []).map((id) => positionOf.get(id) as number);
    if (positions.length > 0) lists.push({ list: { filter: 'category', value: c.slug }, positions });
  }
  const kinds = TOPIC_KINDS.filter((kind) => wanted.kinds === undefined || wanted.kinds.has(kind));
  if (kinds.length === 0) return lists;
  const byKind = new Map<TopicKind, number[]>(kinds.map((kind) => [kind, []]));
  for (let p = 0; p < model.topics.length; p++) byKind.get((model.topics[p] as Listed['topics'][number]).kind)?.push(p);
  for (const [kind, positions] of byKind)
    if (positions.length > 0) lists.push({ list: { filter: 'kind', value: kind }, positions });
  return lists;
}
