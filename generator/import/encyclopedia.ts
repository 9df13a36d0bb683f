// The encyclopedia the edition's marks make (docs/importing.md, "The encyclopedia"): a named thing
// Pepys writes in an entry's text is a topic; its entries are those whose text marks it, and for
// plays, ships, poems and songs also those whose notes mark it. Spellings are grouped by their
// normalised key and the hand-reviewed aliases, in one category each (a play and a newspaper of
// one title stay two topics). Ids come from the category and key, so they do not move when
// other names come or go.

import { createHash } from 'node:crypto';
import type { Aliases } from './aliases.ts';
import { type Description, describe } from './descriptions.ts';
import { MARK_CATEGORIES, type Mark, type MarkCategory } from './marks.ts';
import { isPlaceholder, normaliseName, withoutArticle } from './names.ts';
import type { XElement } from './xml.ts';

/** The top-level category and its children, in the order categories.yaml lists them. */
export const ROOT_CATEGORY = { slug: 'works-and-ships', title: 'Works and ships' } as const;
export const CATEGORY_TITLES: Readonly<Record<MarkCategory, string>> = {
  plays: 'Plays',
  ships: 'Ships',
  books: 'Books',
  periodicals: 'Periodicals',
  'pamphlets-and-essays': 'Pamphlets and essays',
  poems: 'Poems',
  'songs-and-music': 'Songs and music',
  'works-of-art': 'Works of art',
};

/** Categories whose marks in the notes count too (elsewhere the notes' marks are the editor's citations). */
const NOTES_COUNT: ReadonlySet<MarkCategory> = new Set(['plays', 'ships', 'poems', 'songs-and-music']);

/** Derived ids are nine digits, 100000000–999999999: above any id the fixture or a hand-kept list reaches. */
export const DERIVED_ID_MIN = 100_000_000;
const DERIVED_ID_SPAN = 900_000_000;

/** The id of a topic's identity (`plays/macbeth`), before any collision is resolved. */
export function derivedId(identity: string): number {
  const digest = createHash('sha256').update(identity, 'utf8').digest();
  return DERIVED_ID_MIN + (digest.readUIntBE(0, 6) % DERIVED_ID_SPAN);
}

export interface DerivedTopic {
  id: number;
  /** `category/normalised key`, what the id is made from. */
  identity: string;
  category: MarkCategory;
  title: string;
  orderTitle: string;
  description: Description | null;
  /** Dates of the entries that link it, ascending. */
  entries: string[];
}

export interface EncyclopediaReport {
  marksRead: {
    total: number;
    inText: number;
    inNotes: number;
    bySemantic: Record<string, { text: number; notes: number }>;
  };
  categories: { slug: string; title: string; topics: number; links: number; entryLinks: number; fromNotes: number }[];
  /** Marks that make no topic, grouped by name and reason. */
  setAside: { name: string; semantic: string; place: 'text' | 'note'; count: number; reason: string }[];
  /** Names marked as two kinds somewhere (text or notes), and what became of each. */
  twoKinds: { key: string; kinds: string[]; decision: string }[];
  /** Identities whose id was taken by another's (the later one, by identity, moved on). */
  idCollisions: { identity: string; wanted: number; got: number }[];
  /** Marks inside a link or inside another linked mark: no link of their own. */
  notLinked: { name: string; date: string | null; reason: string }[];
  /** Topics described by their mark's note, and the notes passed over. */
  described: number;
}

export interface Encyclopedia {
  topics: DerivedTopic[];
  /** The topic id each linked mark's element links to. */
  linkOf: Map<XElement, number>;
  report: EncyclopediaReport;
}

interface Resolved {
  mark: Mark;
  identity: string;
  title: string | null;
}

export function deriveEncyclopedia(
  marks: readonly Mark[],
  aliases: Aliases,
  notes: ReadonlyMap<string, XElement>,
): Encyclopedia {
  const setAside = new Map<string, EncyclopediaReport['setAside'][number]>();
  const aside = (mark: Mark, reason: string): void => {
    const k = `${mark.semantic}\u0000${mark.place}\u0000${mark.name}\u0000${reason}`;
    const seen = setAside.get(k);
    if (seen) seen.count++;
    else setAside.set(k, { name: mark.name, semantic: mark.semantic, place: mark.place, count: 1, reason });
  };

  // Every mark's identity (category and key after the aliases), or the reason it has none.
  const resolved: Resolved[] = [];
  for (const mark of marks) {
    if (mark.category === null) {
      aside(mark, 'a kind of name the encyclopedia has no category for');
      continue;
    }
    if (isPlaceholder(mark.name)) {
      aside(mark, 'a placeholder, not a name (the title is left blank in the text)');
      continue;
    }
    const r = aliases.resolve(mark.category, normaliseName(mark.name), mark.date);
    if (r.kind === 'setAside') aside(mark, `alias list: ${r.reason}`);
    else resolved.push({ mark, identity: `${mark.category}/${r.key}`, title: r.title });
  }

  const inText = new Set(resolved.filter((r) => r.mark.place === 'text').map((r) => r.identity));
  const linked = new Set<Mark>();
  const notLinked: EncyclopediaReport['notLinked'] = [];
  const byIdentity = new Map<string, Resolved[]>();
  for (const r of resolved) {
    const { mark } = r;
    if (!inText.has(r.identity)) {
      aside(mark, 'named only in the notes (the editor’s citation or remark, not Pepys’s)');
      continue;
    }
    if (mark.place === 'note' && !NOTES_COUNT.has(mark.category as MarkCategory)) {
      aside(mark, `in a note: the notes’ ${mark.category} are the editor’s citations; only the text links them`);
      continue;
    }
    if (mark.date === null) {
      aside(mark, 'in a note that no entry prints');
      continue;
    }
    if (mark.inLink || (mark.outer !== null && linked.has(mark.outer))) {
      notLinked.push({
        name: mark.name,
        date: mark.date,
        reason: mark.inLink ? 'inside a link' : 'inside another linked name',
      });
      continue;
    }
    linked.add(mark);
    byIdentity.set(r.identity, [...(byIdentity.get(r.identity) ?? []), r]);
  }

  // Ids: in order of identity, so a collision is settled the same way whatever else exists.
  const identities = [...byIdentity.keys()].sort();
  const taken = new Set<number>();
  const idCollisions: EncyclopediaReport['idCollisions'] = [];
  const topics: DerivedTopic[] = [];
  const linkOf = new Map<XElement, number>();
  let described = 0;
  for (const identity of identities) {
    const group = byIdentity.get(identity) as Resolved[];
    const wanted = derivedId(identity);
    let id = wanted;
    while (taken.has(id)) id = id + 1 >= DERIVED_ID_MIN + DERIVED_ID_SPAN ? DERIVED_ID_MIN : id + 1;
    taken.add(id);
    if (id !== wanted) idCollisions.push({ identity, wanted, got: id });
    const text = group.filter((r) => r.mark.place === 'text');
    // Pepys's most frequent spelling of the name itself (Royal Charles, not Nazeby), else of any.
    const key = identity.slice(identity.indexOf('/') + 1);
    const own = text.filter((r) => normaliseName(r.mark.name) === key);
    const title =
      group.find((r) => r.title !== null)?.title ?? mostFrequent((own.length > 0 ? own : text).map((r) => r.mark.name));
    let description: Description | null = null;
    const keys = [...new Set([key, ...group.map((r) => normaliseName(r.mark.name))])];
    for (const r of text) {
      const note = r.mark.tiedNote === null ? undefined : notes.get(r.mark.tiedNote);
      description = note === undefined ? null : describe(note, keys);
      if (description !== null) break;
    }
    if (description !== null) described++;
    for (const r of group) linkOf.set(r.mark.element, id);
    topics.push({
      id,
      identity,
      category: group[0]?.mark.category as MarkCategory,
      title,
      orderTitle: withoutArticle(title),
      description,
      entries: [...new Set(group.map((r) => r.mark.date as string))].sort(),
    });
  }
  topics.sort((a, b) => a.id - b.id);

  return {
    topics,
    linkOf,
    report: {
      marksRead: countMarks(marks),
      categories: MARK_CATEGORIES.map((slug) => {
        const mine = topics.filter((t) => t.category === slug);
        const groups = identities.filter((i) => i.startsWith(`${slug}/`)).map((i) => byIdentity.get(i) as Resolved[]);
        return {
          slug,
          title: CATEGORY_TITLES[slug],
          topics: mine.length,
          links: groups.reduce((n, g) => n + g.length, 0),
          entryLinks: mine.reduce((n, t) => n + t.entries.length, 0),
          fromNotes: groups.reduce((n, g) => n + g.filter((r) => r.mark.place === 'note').length, 0),
        };
      }),
      setAside: [...setAside.values()].sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1)),
      twoKinds: twoKinds(resolved, inText),
      idCollisions,
      notLinked,
      described,
    },
  };
}

/** The most frequent of the spellings; of equally frequent ones, the first written. */
function mostFrequent(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  let best = names[0] as string;
  for (const [name, count] of counts) if (count > (counts.get(best) ?? 0)) best = name;
  return best;
}

function countMarks(marks: readonly Mark[]): EncyclopediaReport['marksRead'] {
  const bySemantic: Record<string, { text: number; notes: number }> = {};
  for (const m of marks) {
    const c = bySemantic[m.semantic] ?? { text: 0, notes: 0 };
    bySemantic[m.semantic] = c;
    if (m.place === 'text') c.text++;
    else c.notes++;
  }
  const inText = marks.filter((m) => m.place === 'text').length;
  return { total: marks.length, inText, inNotes: marks.length - inText, bySemantic };
}

/** Keys marked in more than one category: each category's is its own topic (when Pepys names it). */
function twoKinds(resolved: readonly Resolved[], inText: ReadonlySet<string>): EncyclopediaReport['twoKinds'] {
  const kinds = new Map<string, Set<string>>();
  for (const r of resolved) {
    const key = r.identity.slice(r.identity.indexOf('/') + 1);
    kinds.set(key, (kinds.get(key) ?? new Set()).add(r.identity.slice(0, r.identity.indexOf('/'))));
  }
  return [...kinds]
    .filter(([, k]) => k.size > 1)
    .map(([key, k]) => {
      const all = [...k].sort();
      const topics = all.filter((c) => inText.has(`${c}/${key}`));
      return {
        key,
        kinds: all,
        decision:
          topics.length === 0
            ? 'no topic: named only in the notes'
            : `kept apart: a topic in ${topics.join(' and in ')}; ${all.length - topics.length} other kind(s) only in the notes`,
      };
    })
    .sort((a, b) => (a.key < b.key ? -1 : 1));
}
