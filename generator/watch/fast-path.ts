// The watch mode's shorter way for the commonest edits (render/patch.ts): when the files that
// differ from the last valid render are only entries that keep their date and mention topics that
// exist, and topics that keep their id, categories and kind, each parsed without a problem, nothing
// another file says can have changed; the model is patched and only the files that depend on
// those records are rendered. The whole site is neither validated nor rendered again. This is
// what the last valid render was made from, and the test of whether an edit may take that way.

import { entryOf, topicOf } from '../content/build-model.ts';
import { kindsByCategory } from '../content/derive.ts';
import type { ContentState } from '../content/load.ts';
import type { ParsedFile } from '../content/parse-file.ts';
import { formatProblem, type Problem } from '../content/problems.ts';
import type { TopicKind } from '../core/record-fields.ts';
import { patchSite, type RecordEdits, type RenderedSite } from '../render/patch.ts';

export function problemsKey(problems: readonly Problem[]): string {
  return problems.map((p) => formatProblem(p, '')).join('\n');
}

/**
 * What the last valid render was made from: the parsed files, and the facts that come from
 * elsewhere (site.yaml, categories.yaml, the listing), each as the state held them. Its `site` is
 * the basis a build saves beside its manifest (render/basis.ts: the records and the search index,
 * with the list items), held in memory.
 */
export interface RenderBasis {
  site: RenderedSite;
  parsed: Map<string, ParsedFile>;
  config: ContentState['config'];
  siteProblems: ContentState['siteProblems'];
  categories: ContentState['categories'];
  listProblems: string;
  /** Positions of the entries by date and of the topics by id, in the model. */
  entryAt: Map<string, number>;
  topicAt: Map<number, number>;
}

/** What a valid render was made from: the content as the state `s` holds it now. */
export function basisOf(s: ContentState, site: RenderedSite): RenderBasis {
  return {
    site,
    parsed: new Map(s.parsed),
    config: s.config,
    siteProblems: s.siteProblems,
    categories: s.categories,
    listProblems: problemsKey(s.listProblems),
    entryAt: new Map(site.model.entries.map((e, i) => [e.date, i])),
    topicAt: new Map(site.model.topics.map((t, i) => [t.id, i])),
  };
}

/**
 * A patch whose result is dropped: the fast path's code warmed up as an edit runs it. The first
 * entry and topic with a word put before their text, so that every word of theirs moves: the
 * index is changed and its shards written as after a real edit. Warmed up with a patch that
 * changed nothing, the session's first edit of a long entry took 35–47 ms to render, the later
 * ones 17–26 ms. Returns the paths of the files it rendered (and dropped).
 */
export function warmFastPath(basis: RenderBasis | null): string[] {
  const site = basis?.site;
  const [entry] = site?.model.entries ?? [];
  const [topic] = site?.model.topics ?? [];
  if (site === undefined || entry === undefined || topic === undefined) return [];
  const { files } = patchSite(site, {
    entries: [{ position: 0, entry: { ...entry, entryHTML: `<p>warm</p>${entry.entryHTML}` } }],
    topics: [{ position: 0, topic: { ...topic, title: `warm ${topic.title}` } }],
  });
  return files.map((f) => f.path);
}

/**
 * The kinds the categories give topics, by the site configuration and the category file they
 * come from (both the same objects until read again).
 */
export class CategoryKinds {
  private kinds: { state: unknown; categories: unknown; byCategory: Map<string, TopicKind> } | null = null;

  of(state: ContentState): Map<string, TopicKind> {
    if (this.kinds === null || this.kinds.state !== state.config || this.kinds.categories !== state.categories) {
      const categories = state.categories.categories.map((c) => c.category);
      this.kinds = {
        state: state.config,
        categories: state.categories,
        byCategory: kindsByCategory(categories, state.config.kinds),
      };
    }
    return this.kinds.byCategory;
  }
}

/**
 * The records to replace when everything that differs from the last valid render is entry files
 * that keep their date and mention only topics that exist, and topic files that keep their id,
 * categories and kind, each parsed without a problem: then every check of validate() holds as it
 * did, and the model differs only in those records. Null for any other change.
 */
export function fastEdits(b: RenderBasis | null, state: ContentState, kinds: CategoryKinds): RecordEdits | null {
  if (b === null) return null;
  // site.yaml, categories.yaml and the listing as they were (each is replaced when read again).
  if (state.config !== b.config || state.siteProblems !== b.siteProblems || state.categories !== b.categories)
    return null;
  if (state.parsed.size !== b.parsed.size || problemsKey(state.listProblems) !== b.listProblems) return null;
  const edits: { entries: RecordEdits['entries'][number][]; topics: RecordEdits['topics'][number][] } = {
    entries: [],
    topics: [],
  };
  const changed: Array<[ParsedFile | undefined, ParsedFile]> = [];
  state.parsed.forEach((now, file) => {
    const was = b.parsed.get(file);
    if (was !== now) changed.push([was, now]);
  });
  for (const [was, now] of changed) {
    // A file the last render did not have (the same number of files: another one went).
    if (was === undefined || now.problems.length > 0) return null;
    if (now.kind === 'entry' && was.kind === 'entry' && now.parsed !== null && was.parsed !== null) {
      const date = now.parsed.entry.date;
      const position = b.entryAt.get(date);
      if (date !== was.parsed.entry.date || position === undefined) return null;
      const entry = entryOf(now.parsed, state.config);
      // A topic it lists or links to that does not exist: the general path reports it.
      if (!entry.topicIds.every((id) => b.topicAt.has(id))) return null;
      edits.entries.push({ position, entry });
    } else if (now.kind === 'topic' && was.kind === 'topic' && now.parsed !== null && was.parsed !== null) {
      const { id, categorySlugs } = now.parsed.topic;
      const position = b.topicAt.get(id);
      const before = was.parsed.topic.categorySlugs;
      if (id !== was.parsed.topic.id || position === undefined) return null;
      if (categorySlugs.length !== before.length || categorySlugs.some((slug, i) => slug !== before[i])) return null;
      const topic = topicOf(now.parsed, kinds.of(state));
      // Another kind moves the topic between the kinds' lists, their counts and every page after
      // it (core/topic-lists.ts): the general path renders them.
      if (topic.kind !== b.site.model.topics[position]?.kind) return null;
      edits.topics.push({ position, topic });
    } else return null;
  }
  return edits;
}
