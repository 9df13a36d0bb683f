// Which entry each endnote goes to. A note's home is the entry holding its first reference in
// reading order; it is printed once, there. Later references (none in the 1893 text, but the rule
// must exist) link to that home. Notes with no reference inside any article — those of the
// edition's introduction, foreword and afterword, and those referenced from chapter headings —
// are set aside in the report with the reason.

import { type Article, type Corpus, noteRefTarget } from './corpus.ts';
import { descendants } from './xml.ts';

export interface NotePlan {
  /** Entry date of each note that is printed, by note id. */
  homes: Map<string, string>;
  /** Note ids printed in each entry, in order of first reference. */
  footnotesByEntry: Map<string, string[]>;
  /** References after the first to the same note. */
  repeatedRefs: { noteId: string; date: string; home: string }[];
  /** References to notes that do not exist in the endnotes. */
  missingNotes: { noteId: string; date: string }[];
  setAside: { noteId: string; reason: string }[];
  refsInArticles: number;
}

export function planNotes(corpus: Corpus, entryOfArticle: ReadonlyMap<number, string>): NotePlan {
  const homes = new Map<string, string>();
  const footnotesByEntry = new Map<string, string[]>();
  const repeatedRefs: NotePlan['repeatedRefs'] = [];
  const missingNotes: NotePlan['missingNotes'] = [];
  let refsInArticles = 0;

  // Reading order, not date order: "first reference" means first in the book.
  const placed = corpus.articles.filter((a: Article) => entryOfArticle.has(a.index));
  for (const article of placed) {
    const date = entryOfArticle.get(article.index) as string;
    for (const a of descendants(article.element)) {
      const noteId = noteRefTarget(a);
      if (noteId === null) continue;
      refsInArticles++;
      if (!corpus.notes.has(noteId)) {
        missingNotes.push({ noteId, date });
        continue;
      }
      const home = homes.get(noteId);
      if (home !== undefined) {
        repeatedRefs.push({ noteId, date, home });
        continue;
      }
      homes.set(noteId, date);
      const list = footnotesByEntry.get(date);
      if (list) list.push(noteId);
      else footnotesByEntry.set(date, [noteId]);
    }
  }

  const strayPlaces = new Map<string, string>();
  for (const ref of corpus.strayNoteRefs) {
    if (!strayPlaces.has(ref.noteId)) {
      const chapter = corpus.chapters.find((c) => c.file === ref.file);
      const where =
        ref.place === 'chapter heading' && chapter
          ? `the heading of ${ref.file} (“${chapter.title}”)`
          : `${ref.file}, ${ref.place}`;
      strayPlaces.set(ref.noteId, where);
    }
  }
  const setAside: NotePlan['setAside'] = [];
  for (const noteId of corpus.notes.keys()) {
    if (homes.has(noteId)) continue;
    const stray = strayPlaces.get(noteId);
    const backlink = corpus.noteBacklinkFiles.get(noteId);
    const reason =
      stray !== undefined
        ? `referenced only from ${stray}, which is no entry`
        : backlink !== undefined && !/^chapter-\d+\.xhtml$/.test(backlink)
          ? `referenced only from ${backlink}, which is not part of the diary text`
          : 'not referenced from any article';
    setAside.push({ noteId, reason });
  }
  return { homes, footnotesByEntry, repeatedRefs, missingNotes, setAside, refsInArticles };
}
