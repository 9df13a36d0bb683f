// Reading the Standard Ebooks edition: chapters (in reading order), their diary-entry articles,
// note references that sit outside any article, and the endnotes. No interpretation of dates or
// markup happens here; this module only finds things.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { descendants, getAttr, parseXml, textContent, type XElement } from './xml.ts';

export interface Chapter {
  /** 1-based chapter number from `chapter-N.xhtml`; the edition's reading order. */
  number: number;
  file: string;
  /** Text of the chapter's heading, e.g. "January 1659–60" (for messages only). */
  title: string;
}

export interface Article {
  /** Position in reading order over the whole edition, from 0. */
  index: number;
  chapter: Chapter;
  /** The article's `id`, e.g. `entry-1660-1-11`. */
  id: string;
  element: XElement;
}

/** A note reference found outside every article: in a chapter heading or between articles. */
export interface StrayNoteRef {
  noteId: string;
  file: string;
  place: 'chapter heading' | 'outside any article';
}

export interface Corpus {
  chapters: Chapter[];
  articles: Article[];
  strayNoteRefs: StrayNoteRef[];
  /** Every endnote by id (`note-N`), in the endnotes' order. */
  notes: Map<string, XElement>;
  /** Where each note's backlink points (e.g. `introduction.xhtml`), by note id. */
  noteBacklinkFiles: Map<string, string>;
}

const NOTE_HREF = /^endnotes\.xhtml#(note-\d+)$/;

/** The note id a link points to, when it is a reference into the endnotes. */
export function noteRefTarget(a: XElement): string | null {
  if (a.name !== 'a') return null;
  return NOTE_HREF.exec(getAttr(a, 'href') ?? '')?.[1] ?? null;
}

function chapterFiles(textDir: string): { number: number; file: string }[] {
  return readdirSync(textDir)
    .map((file) => ({ file, m: /^chapter-(\d+)\.xhtml$/.exec(file) }))
    .filter((x): x is { file: string; m: RegExpExecArray } => x.m !== null)
    .map(({ file, m }) => ({ number: Number(m[1]), file }))
    .sort((a, b) => a.number - b.number);
}

/** Articles and stray note references of one chapter, in document order. */
function scanChapter(
  root: XElement,
  chapter: Chapter,
  articles: Article[],
  stray: StrayNoteRef[],
): void {
  const walk = (node: XElement, inHeading: boolean): void => {
    for (const child of node.children) {
      if (child.kind !== 'element') continue;
      if (child.name === 'article') {
        // An article is taken whole; articles are never nested in this edition, and if one were,
        // it would stay part of its outer article rather than be lost or duplicated.
        articles.push({ index: articles.length, chapter, id: getAttr(child, 'id') ?? '', element: child });
        continue;
      }
      const noteId = noteRefTarget(child);
      if (noteId !== null) {
        stray.push({ noteId, file: chapter.file, place: inHeading ? 'chapter heading' : 'outside any article' });
        continue;
      }
      walk(child, inHeading || /^h[1-6]$/.test(child.name));
    }
  };
  walk(root, false);
}

function readEndnotes(textDir: string): Pick<Corpus, 'notes' | 'noteBacklinkFiles'> {
  const file = 'endnotes.xhtml';
  const root = parseXml(readFileSync(path.join(textDir, file), 'utf8'), file);
  const notes = new Map<string, XElement>();
  const noteBacklinkFiles = new Map<string, string>();
  const walk = (node: XElement): void => {
    for (const child of node.children) {
      if (child.kind !== 'element') continue;
      const id = getAttr(child, 'id') ?? '';
      if (child.name === 'li' && /^note-\d+$/.test(id)) {
        if (notes.has(id)) throw new Error(`${file}: duplicate note id ${id}`);
        notes.set(id, child);
        for (const a of descendants(child)) {
          const href = a.name === 'a' ? getAttr(a, 'href') ?? '' : '';
          const m = /^([^#]*)#noteref-\d+$/.exec(href);
          if (m && /\bbacklink\b/.test(getAttr(a, 'epub:type') ?? '')) noteBacklinkFiles.set(id, m[1] as string);
        }
        continue; // list items nested inside a note are part of that note
      }
      walk(child);
    }
  };
  walk(root);
  return { notes, noteBacklinkFiles };
}

/** Read `<dir>/text/chapter-*.xhtml` and `<dir>/text/endnotes.xhtml`. */
export function readCorpus(editionDir: string): Corpus {
  const textDir = path.join(editionDir, 'text');
  const chapters: Chapter[] = [];
  const articles: Article[] = [];
  const strayNoteRefs: StrayNoteRef[] = [];
  for (const { number, file } of chapterFiles(textDir)) {
    const root = parseXml(readFileSync(path.join(textDir, file), 'utf8'), file);
    const heading = [...descendants(root)].find((e) => /^h[1-6]$/.test(e.name));
    // Strip note labels (the trailing "47") from the heading text: it is only used in messages.
    const title = heading
      ? textContent({ ...heading, children: heading.children.filter((c) => !(c.kind === 'element' && noteRefTarget(c))) })
      : file;
    const chapter: Chapter = { number, file, title: title.trim() };
    chapters.push(chapter);
    scanChapter(root, chapter, articles, strayNoteRefs);
  }
  if (chapters.length === 0) throw new Error(`no chapter-N.xhtml files in ${textDir}`);
  return { chapters, articles, strayNoteRefs, ...readEndnotes(textDir) };
}
