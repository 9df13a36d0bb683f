// Parsed files to the validated model: cross-file checks (duplicates, references, the tree) and
// the derived indexes. Every problem is collected; none stops the others from being found.

import type { Category, Entry, Model, SiteConfig, Topic } from '../core/model.ts';
import type { TopicKind } from '../core/record-fields.ts';
import { entryTitle } from '../core/titles.ts';
import type { IsoDate } from '../core/types.ts';
import { derivedKind, kindsByCategory, personOrderTitle } from './derive.ts';
import { titleRules } from './locale.ts';
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
    for (const link of e.links) {
      if (!topicById.has(link.id))
        problems.push({
          file: e.file,
          line: link.line,
          message: `a link to the page of topic ${link.id}, which does not exist`,
        });
    }
  }

  const entries: Entry[] = [...entryByDate.values()].map((e) => entryOf(e, config)).sort(byDate);
  // Keep field order of Entry stable for readers that print it.
  const byCategory = kindsByCategory(categories, config.kinds);
  const topics: Topic[] = [...topicById.values()].map((t) => topicOf(t, byCategory)).sort((a, b) => a.id - b.id);

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

/** The dates of the entries (ascending by date) that mention each of `topics`. */
export function topicEntriesOf(entries: readonly Entry[], topics: readonly Topic[]): Map<number, IsoDate[]> {
  const out = new Map<number, IsoDate[]>(topics.map((t) => [t.id, []]));
  for (const e of entries) for (const id of e.topicIds) out.get(id)?.push(e.date);
  return out;
}

/** Entries in the model's order: ascending by date. */
function byDate(a: Entry, b: Entry): number {
  return a.date < b.date ? -1 : 1;
}

/**
 * The model's record of a parsed entry: the title its file gives, or the one its date has; the
 * topics its front matter lists and those its text links to.
 */
export function entryOf(e: ParsedEntry, config: SiteConfig): Entry {
  const title = e.givenTitle ?? entryTitle(e.entry.date, titleRules(config));
  if (e.links.length === 0) return { ...e.entry, title };
  const topicIds = [...new Set([...e.entry.topicIds, ...e.links.map((l) => l.id)])].sort((a, b) => a - b);
  return { ...e.entry, title, topicIds };
}

/**
 * The model's record of a parsed topic: the kind its file gives, or its categories' (derive.ts);
 * the sorting title its file gives, or, for a person, the name surname first.
 */
export function topicOf(t: ParsedTopic, byCategory: ReadonlyMap<string, TopicKind>): Topic {
  if (t.kindGiven && t.orderTitleGiven) return t.topic;
  const kind = t.kindGiven ? t.topic.kind : derivedKind(t.topic.categorySlugs, byCategory);
  const orderTitle = t.orderTitleGiven || kind !== 'person' ? t.topic.orderTitle : personOrderTitle(t.topic.title);
  return kind === t.topic.kind && orderTitle === t.topic.orderTitle ? t.topic : { ...t.topic, kind, orderTitle };
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
  checkTree(file, bySlug, problems);
  return [...bySlug.values()].map((p) => p.category).sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}

/** A cycle longer than this is reported once, by its first member in the file, not by each. */
const CYCLE_EACH = 10;
/** Slugs of a long cycle shown in its message. */
const CYCLE_SHOWN = 6;

/**
 * Unknown parents, cycles and depth, in time linear in the number of categories (each has at
 * most one parent: one walk up from each category, stopping at one already walked) and output
 * bounded by it: a cycle is reported by each member only when it is short, a subtree too deep
 * once, at its first category below the third level, however deep it goes.
 */
function checkTree(file: string, bySlug: ReadonlyMap<string, ParsedCategory>, problems: Problem[]): void {
  // Depth of each category walked: 1 for a top-level one (or one whose parent is unknown);
  // Infinity for one in a cycle or below one.
  const depth = new Map<string, number>();
  // The category at depth MAX_DEPTH + 1 above each one deeper (itself at that depth).
  const tooDeepAt = new Map<string, string>();
  const below = new Map<string, number>();
  const walking = new Set<string>();
  for (const p of bySlug.values()) {
    const { slug, parent } = p.category;
    if (parent !== null && !bySlug.has(parent))
      problems.push({ file, line: p.line, message: `category "${slug}" has unknown parent "${parent}"` });
  }
  for (const start of bySlug.keys()) {
    if (depth.has(start)) continue;
    // Up from `start` until a category already walked, the top, or one walked in this very walk.
    const path: string[] = [];
    let base = 0;
    for (let q: string | null = start; ; ) {
      if (q === null) break;
      const known = depth.get(q);
      if (known !== undefined) {
        base = known;
        break;
      }
      if (walking.has(q)) {
        const cycle = path.slice(path.indexOf(q));
        reportCycle(file, bySlug, cycle, problems);
        for (const c of cycle) depth.set(c, Number.POSITIVE_INFINITY);
        path.length -= cycle.length;
        base = Number.POSITIVE_INFINITY;
        break;
      }
      walking.add(q);
      path.push(q);
      const parent: string | null = bySlug.get(q)?.category.parent ?? null;
      q = parent !== null && bySlug.has(parent) ? parent : null;
    }
    // Down again: each depth from its parent's.
    for (let i = path.length - 1; i >= 0; i--) {
      const slug = path[i] as string;
      base += 1;
      depth.set(slug, base);
      walking.delete(slug);
      if (!Number.isFinite(base) || base <= MAX_DEPTH) continue;
      const parent = bySlug.get(slug)?.category.parent ?? '';
      const top = base === MAX_DEPTH + 1 ? slug : (tooDeepAt.get(parent) ?? slug);
      tooDeepAt.set(slug, top);
      if (top !== slug) below.set(top, (below.get(top) ?? 0) + 1);
    }
    for (const slug of path) walking.delete(slug);
  }
  for (const p of bySlug.values()) {
    const slug = p.category.slug;
    if (depth.get(slug) !== MAX_DEPTH + 1) continue;
    const chain = [slug];
    for (let q = p.category.parent; q !== null && chain.length <= MAX_DEPTH; q = bySlug.get(q)?.category.parent ?? null)
      chain.unshift(q);
    const deeper = below.get(slug) ?? 0;
    problems.push({
      file,
      line: p.line,
      message:
        `category "${slug}" is at depth ${MAX_DEPTH + 1}; the tree has at most ${MAX_DEPTH} levels (${chain.join(' → ')})` +
        (deeper > 0 ? `, and ${deeper} ${deeper === 1 ? 'category lies' : 'categories lie'} below it` : ''),
    });
  }
}

/** A cycle, given from a member up through its parents: each member says so, or the first once. */
function reportCycle(
  file: string,
  bySlug: ReadonlyMap<string, ParsedCategory>,
  cycle: readonly string[],
  problems: Problem[],
): void {
  const lineOf = (slug: string) => bySlug.get(slug)?.line ?? 1;
  const from = (i: number) => [...cycle.slice(i), ...cycle.slice(0, i), cycle[i] as string];
  if (cycle.length <= CYCLE_EACH) {
    cycle.forEach((slug, i) => {
      problems.push({ file, line: lineOf(slug), message: `category "${slug}" is in a cycle: ${from(i).join(' → ')}` });
    });
    return;
  }
  let first = 0;
  cycle.forEach((slug, i) => {
    if (lineOf(slug) < lineOf(cycle[first] as string)) first = i;
  });
  const chain = from(first);
  problems.push({
    file,
    line: lineOf(cycle[first] as string),
    message: `category "${cycle[first]}" is in a cycle of ${cycle.length} categories: ${chain.slice(0, CYCLE_SHOWN).join(' → ')} → … → ${chain.at(-1)}`,
  });
}
