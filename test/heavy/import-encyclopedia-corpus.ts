// The encyclopedia the importer derives from the whole edition (test/heavy/import-corpus.test.ts
// calls these within its import): the marks read, recounted from the edition's own text; topics
// and links per category, recounted from the files written; known works across the years; and
// what must never happen. Expectations about the edition are read from it at run time.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadContent } from '../../generator/content/load.ts';
import { DERIVED_ID_MIN, derivedId } from '../../generator/import/encyclopedia.ts';
import type { ImportReport } from '../../generator/import/report.ts';
import { entryParts } from '../helpers/content.ts';
import { readTree } from '../helpers/files.ts';

interface Imported {
  out: string;
  report: ImportReport;
  /** Entry files by path under entries/. */
  files: Map<string, string>;
}

interface TopicFile {
  id: number;
  title: string;
  category: string;
  text: string;
}

const LINK = /href="https:\/\/www\.pepysdiary\.com\/encyclopedia\/(\d+)\/"/g;

function topicFiles(out: string): TopicFile[] {
  return [...readTree(path.join(out, 'topics', 'standard-ebooks'))]
    .filter(([file]) => file.endsWith('.yaml'))
    .map(([, text]) => {
      const field = (key: string) =>
        /^(\w+): (.*)$/m.exec(text.split('\n').find((l) => l.startsWith(`${key}: `)) ?? '')?.[2] ?? '';
      const title = field('title');
      return {
        id: Number(field('id')),
        title: title.startsWith('"') ? (JSON.parse(title) as string) : title,
        category: field('categories').slice(1, -1),
        text,
      };
    });
}

export function defineEncyclopediaTests(corpusDir: string, imported: () => Imported): void {
  const byTitle = (category: string, title: string): TopicFile => {
    const found = topicFiles(imported().out).filter((t) => t.category === category && t.title === title);
    expect(found.length, `${category}/${title}`).toBe(1);
    return found[0] as TopicFile;
  };
  /** The dates of the entries that link a topic: in the text, in the notes (read once from the files). */
  let index: Map<number, { text: string[]; notes: string[] }> | null = null;
  const linkedFrom = (id: number): { text: string[]; notes: string[] } => {
    if (index === null) {
      const made = new Map<number, { text: string[]; notes: string[] }>();
      const at = (i: number) =>
        made.get(i) ?? (made.set(i, { text: [], notes: [] }).get(i) as { text: string[]; notes: string[] });
      for (const [file, content] of [...imported().files].sort()) {
        const { body, footnotes } = entryParts(content);
        const date = path.basename(file, '.html');
        for (const i of new Set([...body.matchAll(LINK)].map((m) => Number(m[1])))) at(i).text.push(date);
        for (const i of new Set([...footnotes.matchAll(LINK)].map((m) => Number(m[1])))) at(i).notes.push(date);
      }
      index = made;
    }
    return index.get(id) ?? { text: [], notes: [] };
  };

  it('reads every semantic mark of the edition: those in the articles and those in the notes', () => {
    const { report } = imported();
    const textDir = path.join(corpusDir, 'text');
    const recount: Record<string, { text: number; notes: number }> = {};
    const add = (html: string, place: 'text' | 'notes') => {
      for (const m of html.matchAll(/epub:type="(?:[^"]* )?(se:name\.[^" ]+)/g)) {
        recount[m[1] as string] ??= { text: 0, notes: 0 };
        (recount[m[1] as string] as { text: number; notes: number })[place]++;
      }
    };
    for (const f of readdirSync(textDir).filter((n) => /^chapter-\d+\.xhtml$/.test(n)))
      for (const a of readFileSync(path.join(textDir, f), 'utf8').matchAll(/<article[\s\S]*?<\/article>/g))
        add(a[0], 'text');
    add(readFileSync(path.join(textDir, 'endnotes.xhtml'), 'utf8'), 'notes');
    expect(report.encyclopedia.marksRead.bySemantic).toEqual(recount);
    // The figures (the edition at a3031890): 664 plays, 735 ships, 1,532 books.
    const both = (k: string) => (recount[k]?.text ?? 0) + (recount[k]?.notes ?? 0);
    expect([both('se:name.publication.play'), both('se:name.vessel.ship'), both('se:name.publication.book')]).toEqual([
      664, 735, 1532,
    ]);
    expect(report.encyclopedia.marksRead.total).toBe(Object.values(recount).reduce((n, c) => n + c.text + c.notes, 0));
  });

  it('writes as many topics and links per category as the report says, recounted from the files', () => {
    const { out, report, files } = imported();
    const topics = topicFiles(out);
    const categoryOf = new Map(topics.map((t) => [t.id, t.category]));
    const links = new Map<string, number>();
    const pairs = new Map<string, number>();
    for (const text of files.values()) {
      const ids = [...text.matchAll(LINK)].map((m) => Number(m[1]));
      for (const id of ids) links.set(categoryOf.get(id) ?? '?', (links.get(categoryOf.get(id) ?? '?') ?? 0) + 1);
      for (const id of new Set(ids))
        pairs.set(categoryOf.get(id) ?? '?', (pairs.get(categoryOf.get(id) ?? '?') ?? 0) + 1);
    }
    expect(links.has('?')).toBe(false); // a link to a topic that was not written
    for (const c of report.encyclopedia.categories) {
      expect(topics.filter((t) => t.category === c.slug).length, c.slug).toBe(c.topics);
      expect(links.get(c.slug) ?? 0, c.slug).toBe(c.links);
      expect(pairs.get(c.slug) ?? 0, c.slug).toBe(c.entryLinks);
    }
    // The edition names many plays and ships, and a few of everything else.
    const size = Object.fromEntries(report.encyclopedia.categories.map((c) => [c.slug, c.topics]));
    expect(size.plays).toBeGreaterThan(140);
    expect(size.ships).toBeGreaterThan(110);
    expect(size.books).toBeGreaterThan(100);
    for (const slug of ['periodicals', 'pamphlets-and-essays', 'poems', 'songs-and-music', 'works-of-art'])
      expect(size[slug], slug).toBeGreaterThan(0);
    const categories = readFileSync(path.join(out, 'categories.yaml'), 'utf8');
    expect(categories).toContain('- slug: works-and-ships\n  title: Works and ships\n');
    expect(categories).toContain('- slug: plays\n  title: Plays\n  parent: works-and-ships\n');
  });

  it('finds the plays and ships everyone asks about, across the years', () => {
    // Macbeth: seen in 1664, 1666–69; once spelt "Mackbeth" (1667-04-19).
    const macbeth = byTitle('plays', 'Macbeth');
    expect(macbeth.id).toBe(derivedId('plays/macbeth'));
    const seen = linkedFrom(macbeth.id).text;
    expect(seen).toEqual(expect.arrayContaining(['1664-11-05', '1666-12-28', '1667-04-19', '1668-12-21']));
    expect(new Set(seen.map((d) => d.slice(0, 4))).size).toBeGreaterThanOrEqual(4);
    expect(macbeth.text).toMatch(/^tooltipText: .*Davenant/m);
    // Hamlet and The Tempest, in several years.
    expect(new Set(linkedFrom(byTitle('plays', 'Hamlet').id).text.map((d) => d.slice(0, 4))).size).toBeGreaterThan(2);
    expect(new Set(linkedFrom(byTitle('plays', 'The Tempest').id).text.map((d) => d.slice(0, 4))).size).toBeGreaterThan(
      1,
    );
    // The Royal Charles: the Naseby until May 1660, "the Charles", the Medway in June 1667.
    const charles = byTitle('ships', 'Royal Charles');
    const aboard = linkedFrom(charles.id).text;
    expect(aboard).toEqual(
      expect.arrayContaining(['1660-03-12', '1660-05-23', '1666-06-02', '1667-06-12', '1667-06-13']),
    );
    expect(aboard).not.toContain('1668-03-03');
    // The new Charles launched at Deptford on 3 March 1668 is another ship.
    expect(linkedFrom(byTitle('ships', 'The Charles (1668)').id).text).toEqual(['1668-03-03']);
    // The London blew up in March 1665; the Loyal London is the City's new ship, burnt in 1667.
    expect(linkedFrom(byTitle('ships', 'London').id).text).toContain('1665-03-08');
    expect(linkedFrom(byTitle('ships', 'Loyal London').id).text).toEqual(
      expect.arrayContaining(['1666-06-10', '1667-06-13']),
    );
    // A ship's notes count: the Royal Charles is linked from notes too.
    expect(linkedFrom(charles.id).notes.length).toBeGreaterThan(0);
  });

  it('never makes a topic of an empty or placeholder name, a name with a newline or joiner, or a citation', async () => {
    const { out, report, files } = imported();
    const topics = topicFiles(out);
    for (const t of topics) {
      expect(t.title.trim(), String(t.id)).not.toBe('');
      expect(t.title, String(t.id)).toBe(t.title.trim());
      expect(t.title, String(t.id)).not.toMatch(/[\n\r\t\u00ad\u200b-\u200f\u2060-\u2064\ufeff⸻]/);
      expect(t.id).toBeGreaterThanOrEqual(DERIVED_ID_MIN);
      expect(t.id).toBeLessThan(1_000_000_000);
      // Every topic is named in an entry's text, not only in a note.
      expect(linkedFrom(t.id).text.length, t.title).toBeGreaterThan(0);
      // tooltipText, when given, is no bare cross-reference.
      expect(t.text).not.toMatch(/^tooltipText: "?(See|Vide)\b/m);
    }
    expect(new Set(topics.map((t) => t.id)).size).toBe(topics.length);
    // The editor's citations are no topics, nor are the editor's signatures.
    const titles = new Set(topics.map((t) => t.title));
    for (const citation of [
      'Calendar of State Papers',
      'Diary',
      'State Papers',
      'Notes and Queries',
      'Gent. Mag.',
      'Phil. Trans.',
    ])
      expect(titles.has(citation), citation).toBe(false);
    for (const t of titles) expect(t).not.toMatch(/^[—–-]?\s*(?:Ed|B|M\. B|P\. G)\.?$/);
    expect(report.encyclopedia.setAside.some((s) => s.name === 'The ⸻' && s.place === 'text')).toBe(true);
    // The content loads: each link is to a topic that exists, each topic's entries exist and link it.
    const { model } = await loadContent(out);
    const dates = new Set(model.entries.map((e) => e.date));
    expect(model.topics.length).toBe(topics.length);
    for (const t of model.topics) {
      const entries = model.topicEntries.get(t.id) ?? [];
      expect(entries.length, t.title).toBeGreaterThan(0);
      for (const d of entries) expect(dates.has(d), `${t.title}: ${d}`).toBe(true);
    }
    expect(model.entries.reduce((n, e) => n + e.topicIds.length, 0)).toBe(
      report.encyclopedia.categories.reduce((n, c) => n + c.entryLinks, 0),
    );
    expect(files.size).toBe(model.entries.length);
  });
}
