// The named things the edition marks with semantics (`epub:type="se:name.publication.play"`,
// `se:name.vessel.ship`, …), in the entries' text and in the notes, with the entry each belongs
// to: an article's marks to its entry; a note's to the entry its back-link points to (the entry
// holding the reference). Only finds; encyclopedia.ts decides what becomes a topic.

import type { Corpus } from './corpus.ts';
import { displayName } from './names.ts';
import { descendants, getAttr, textContent, type XElement } from './xml.ts';

/** The encyclopedia's categories, by the slug each gets (encyclopedia.ts names them). */
export const MARK_CATEGORIES = [
  'plays',
  'ships',
  'books',
  'periodicals',
  'pamphlets-and-essays',
  'poems',
  'songs-and-music',
  'works-of-art',
] as const;
export type MarkCategory = (typeof MARK_CATEGORIES)[number];

/** The edition's semantics, and the category each goes to; others (a legal case) are counted only. */
const CATEGORY_OF: Readonly<Record<string, MarkCategory>> = {
  'se:name.publication.play': 'plays',
  'se:name.music.opera': 'plays',
  'se:name.vessel.ship': 'ships',
  'se:name.publication.book': 'books',
  'se:name.publication.newspaper': 'periodicals',
  'se:name.publication.journal': 'periodicals',
  'se:name.publication.magazine': 'periodicals',
  'se:name.publication.pamphlet': 'pamphlets-and-essays',
  'se:name.publication.essay': 'pamphlets-and-essays',
  'se:name.publication.paper': 'pamphlets-and-essays',
  'se:name.publication.poem': 'poems',
  'se:name.music.song': 'songs-and-music',
  'se:name.visual-art.engraving': 'works-of-art',
  'se:name.visual-art.painting': 'works-of-art',
};

export interface Mark {
  element: XElement;
  /** The `se:name.…` value, e.g. `se:name.vessel.ship`. */
  semantic: string;
  category: MarkCategory | null;
  place: 'text' | 'note';
  /** The entry it belongs to; null for a note no entry prints. */
  date: string | null;
  /** The note it is in (`note-N`), for a mark in a note. */
  noteId: string | null;
  /** The name as shown (nested markup's text kept whole). */
  name: string;
  /** The note whose reference follows the mark in the text, if any (`note-N`). */
  tiedNote: string | null;
  /** The mark this one is inside, if any (a ship named in a book's title). */
  outer: Mark | null;
  /** Inside a link of the edition's: it cannot be a link of its own. */
  inLink: boolean;
}

const NOTEREF = /^endnotes\.xhtml#(note-\d+)$/;

/** The `se:name.…` token of an element's epub:type, if any. */
function semanticOf(element: XElement): string | null {
  const type = getAttr(element, 'epub:type');
  if (type === undefined) return null;
  return type.split(/\s+/).find((t) => t.startsWith('se:name.')) ?? null;
}

/** The note referenced right after `element` (only spaces and punctuation between them). */
function tiedNoteAfter(parent: XElement, element: XElement): string | null {
  const siblings = parent.children;
  for (let i = siblings.indexOf(element) + 1; i < siblings.length; i++) {
    const next = siblings[i];
    if (next === undefined) break;
    if (next.kind === 'text') {
      if (/^[\s,.;:!?’”)]*$/.test(next.text)) continue;
      return null;
    }
    if (next.kind !== 'element') continue;
    return next.name === 'a' ? (NOTEREF.exec(getAttr(next, 'href') ?? '')?.[1] ?? null) : null;
  }
  return null;
}

function collect(
  root: XElement,
  where: Pick<Mark, 'place' | 'date' | 'noteId'>,
  out: Mark[],
  outer: Mark | null = null,
  inLink = false,
): void {
  for (const child of root.children) {
    if (child.kind !== 'element') continue;
    const semantic = semanticOf(child);
    let mark: Mark | null = null;
    if (semantic !== null) {
      mark = {
        element: child,
        semantic,
        category: CATEGORY_OF[semantic] ?? null,
        ...where,
        name: displayName(textContent(child)),
        tiedNote: where.place === 'text' ? tiedNoteAfter(root, child) : null,
        outer,
        inLink,
      };
      out.push(mark);
    }
    collect(child, where, out, mark ?? outer, inLink || child.name === 'a');
  }
}

/**
 * Every mark, in reading order: the articles' (those placed in an entry) and then the notes'.
 * `entryOfArticle` is the importer's placing of articles (entries.ts).
 */
export function findMarks(corpus: Corpus, entryOfArticle: ReadonlyMap<number, string>): Mark[] {
  const marks: Mark[] = [];
  // Where each reference is: a note's back-link points at it (`chapter-K.xhtml#noteref-N`).
  const entryOfRef = new Map<string, string>();
  for (const article of corpus.articles) {
    const date = entryOfArticle.get(article.index);
    if (date === undefined) continue;
    collect(article.element, { place: 'text', date, noteId: null }, marks);
    for (const e of descendants(article.element)) {
      const id = getAttr(e, 'id');
      if (id?.startsWith('noteref-') && !entryOfRef.has(`${article.chapter.file}#${id}`))
        entryOfRef.set(`${article.chapter.file}#${id}`, date);
    }
  }
  for (const [noteId, note] of corpus.notes) {
    let date: string | null = null;
    for (const a of descendants(note)) {
      if (!/\bbacklink\b/.test(getAttr(a, 'epub:type') ?? '')) continue;
      date = entryOfRef.get(getAttr(a, 'href') ?? '') ?? null;
      break;
    }
    collect(note, { place: 'note', date, noteId }, marks);
  }
  return marks;
}
