// Parsed files to the validated model: cross-file checks (duplicates, references, the tree) and
// the derived indexes. Every problem is collected; none stops the others from being found.

import type { Category, Entry, Model, SiteConfig, Topic } from '../core/model.ts';
import { entryTitle } from '../core/titles.ts';
import type { IsoDate } from '../core/types.ts';
import type { ParsedCategory } from './parse-categories.ts';
import type { ParsedEntry } from './parse-entry.ts';
import type { ParsedTopic } from './parse-topic.ts';
import type { Problem } from './problems.ts';

const MAX_DEPTH = 3;

export interface ParsedContent {
  config: SiteConfig;
  entries: ParsedEntry[];
  topics: ParsedTopic[];
  categoriesFile: string;
  categories: ParsedCategory[];
  /** False when the category file could not be read or parsed: topics' categories are then not checked. */
  categoriesUsable?: boolean;
}

export function buildModel(content: ParsedContent, problems: Problem[]): Model {
  const { config } = content;
  const categories = checkCategories(content.categoriesFile, content.categories, problems);
  const slugs = new Set(categories.map((c) => c.slug));

  const topicById = new Map<number, ParsedTopic>();
  for (const t of content.topics) {
    const first = topicById.get(t.topic.id);
    if (first)
      problems.push({
        file: t.file,
        line: t.idLine,
        message: `duplicate topic id ${t.topic.id}, also in ${first.file}`,
      });
    else topicById.set(t.topic.id, t);
    for (const slug of t.topic.categorySlugs) {
      if (content.categoriesUsable !== false && !slugs.has(slug))
        problems.push({ file: t.file, line: t.categoriesLine, message: `unknown category "${slug}"` });
    }
  }

  const entryByDate = new Map<IsoDate, ParsedEntry>();
  for (const e of content.entries) {
    const first = entryByDate.get(e.entry.date);
    if (first)
      problems.push({
        file: e.file,
        line: e.dateLine,
        message: `duplicate date ${e.entry.date}, also in ${first.file}`,
      });
    else entryByDate.set(e.entry.date, e);
    for (const id of e.entry.topicIds) {
      if (!topicById.has(id)) problems.push({ file: e.file, line: e.topicsLine, message: `unknown topic ${id}` });
    }
  }

  const entries: Entry[] = [...entryByDate.values()].map((e) => entryOf(e, config)).sort(byDate);
  // Keep field order of Entry stable for readers that print it.
  const topics: Topic[] = [...topicById.values()].map((t) => t.topic).sort((a, b) => a.id - b.id);

  const topicEntries = topicEntriesOf(entries, topics);

  const categoryTopics = new Map<string, number[]>(categories.map((c) => [c.slug, []]));
  for (const t of topics) for (const slug of t.categorySlugs) categoryTopics.get(slug)?.push(t.id);

  const bySlug = new Map(categories.map((c) => [c.slug, c]));
  const categoryChildren = new Map<string, string[]>(categories.map((c) => [c.slug, []]));
  for (const c of categories) if (c.parent !== null) categoryChildren.get(c.parent)?.push(c.slug);
  for (const children of categoryChildren.values()) {
    children.sort((a, b) => {
      const ta = bySlug.get(a)?.title ?? '';
      const tb = bySlug.get(b)?.title ?? '';
      return ta < tb ? -1 : ta > tb ? 1 : a < b ? -1 : a > b ? 1 : 0;
    });
  }
  const categoryAncestors = new Map<string, string[]>();
  for (const c of categories) {
    const chain: string[] = [];
    for (let p = c.parent; p !== null && chain.length < MAX_DEPTH; p = bySlug.get(p)?.parent ?? null) chain.unshift(p);
    categoryAncestors.set(c.slug, chain);
  }

  return { config, entries, categories, topics, topicEntries, categoryTopics, categoryChildren, categoryAncestors };
}

/**
 * The dates of the entries (ascending by date) that mention each topic: of `topics`, or of every
 * id mentioned when `topics` is null (what a build renders with before the topics are checked).
 */
export function topicEntriesOf(entries: readonly Entry[], topics: readonly Topic[] | null): Map<number, IsoDate[]> {
  const out = new Map<number, IsoDate[]>(topics === null ? [] : topics.map((t) => [t.id, []]));
  for (const e of entries) {
    for (const id of e.topicIds) {
      let dates = out.get(id);
      if (dates === undefined) {
        if (topics !== null) continue;
        dates = [];
        out.set(id, dates);
      }
      dates.push(e.date);
    }
  }
  return out;
}

/** Entries in the model's order: ascending by date. */
export function byDate(a: Entry, b: Entry): number {
  return a.date < b.date ? -1 : 1;
}

/** The model's record of a parsed entry: the title its file gives, or the one its date has. */
export function entryOf(e: ParsedEntry, config: SiteConfig): Entry {
  return { ...e.entry, title: e.givenTitle ?? entryTitle(e.entry.date, config.titleConvention) };
}

/** Duplicate slugs, unknown parents, cycles and depth; returns the categories sorted by slug. */
function checkCategories(file: string, parsed: ParsedCategory[], problems: Problem[]): Category[] {
  const bySlug = new Map<string, ParsedCategory>();
  for (const p of parsed) {
    const first = bySlug.get(p.category.slug);
    if (first)
      problems.push({
        file,
        line: p.line,
        message: `duplicate category slug "${p.category.slug}", first at line ${first.line}`,
      });
    else bySlug.set(p.category.slug, p);
  }
  for (const p of bySlug.values()) {
    const { slug, parent } = p.category;
    if (parent !== null && !bySlug.has(parent)) {
      problems.push({ file, line: p.line, message: `category "${slug}" has unknown parent "${parent}"` });
      continue;
    }
    // Walk up; a slug seen twice is a cycle, more than MAX_DEPTH levels is too deep.
    const seen = [slug];
    for (let q = parent; q !== null; q = bySlug.get(q)?.category.parent ?? null) {
      if (seen.includes(q)) {
        problems.push({ file, line: p.line, message: `category "${slug}" is in a cycle: ${[...seen, q].join(' → ')}` });
        break;
      }
      seen.push(q);
      if (!bySlug.has(q)) break;
    }
    if (seen.length > MAX_DEPTH && !problems.some((x) => x.line === p.line && x.message.includes('cycle'))) {
      problems.push({
        file,
        line: p.line,
        message: `category "${slug}" is at depth ${seen.length}; the tree has at most ${MAX_DEPTH} levels (${[...seen].reverse().join(' → ')})`,
      });
    }
  }
  return [...bySlug.values()].map((p) => p.category).sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}
