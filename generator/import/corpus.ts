// Reading the Standard Ebooks edition: chapters (in reading order), their diary-entry articles,
// note references that sit outside any article, and the endnotes. No interpretation of dates or
// markup happens here; this module only finds things.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { descendants, getAttr, parseXml, textContent, type XElement } from './xml.ts';

/** A file of the edition that cannot be read whole; the message names the file. */
export class EditionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EditionError';
  }
}

interface Chapter {
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
interface StrayNoteRef {
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

/** Line (1-based) and byte offset of the first byte that is not valid UTF-8, or null. */
function firstInvalidUtf8(bytes: Uint8Array): { offset: number; line: number } | null {
  let line = 1;
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] as number;
    if (b === 0x0a) line++;
    const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (n === 0 || i + n > bytes.length) return { offset: i, line };
    for (let k = 1; k < n; k++) if (((bytes[i + k] as number) & 0xc0) !== 0x80) return { offset: i, line };
    // Overlong forms, surrogates and code points past U+10FFFF.
    const c1 = bytes[i + 1] as number;
    if (
      (b === 0xe0 && c1 < 0xa0) ||
      (b === 0xed && c1 > 0x9f) ||
      (b === 0xf0 && c1 < 0x90) ||
      (b === 0xf4 && c1 > 0x8f)
    )
      return { offset: i, line };
    i += n;
  }
  return null;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of one file of the edition, read whole or not at all: an unreadable, empty or
 * non-UTF-8 file stops the import with its path, since going on would lose its entries silently.
 */
function readEditionFile(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new EditionError(`${file}: cannot be read (${e.code ?? e.message})`);
  }
  if (bytes.length === 0) throw new EditionError(`${file}: the file is empty (0 bytes)`);
  try {
    return UTF8.decode(bytes);
  } catch {
    const bad = firstInvalidUtf8(bytes);
    throw new EditionError(
      `${file}:${bad?.line ?? 1}: not UTF-8 (byte ${bad?.offset ?? '?'} is not part of a UTF-8 character)`,
    );
  }
}

/**
 * Parses a whole XHTML file of the edition. A truncated file fails in the parser (an element
 * never closed); one cut between top-level constructs has no <html> root, checked here.
 */
function readXhtml(file: string): XElement {
  const root = parseXml(readEditionFile(file), file);
  const html = root.children.filter((c): c is XElement => c.kind === 'element');
  if (html.length !== 1 || html[0]?.name !== 'html') {
    throw new EditionError(`${file}: not a whole XHTML document (no single <html> root element): truncated?`);
  }
  return root;
}

function chapterFiles(textDir: string): { number: number; file: string }[] {
  let names: string[];
  try {
    names = readdirSync(textDir);
  } catch (err) {
    throw new EditionError(
      `${textDir}: cannot be listed (${(err as NodeJS.ErrnoException).code ?? String(err)}); is this the edition's directory?`,
    );
  }
  const chapters = names
    .map((file) => ({ file, m: /^chapter-(\d+)\.xhtml$/.exec(file) }))
    .filter((x): x is { file: string; m: RegExpExecArray } => x.m !== null)
    .map(({ file, m }) => ({ number: Number(m[1]), file }))
    .sort((a, b) => a.number - b.number);
  // A missing chapter is a missing month: the numbers run 1, 2, … with no gap.
  chapters.forEach((c, i) => {
    if (c.number !== i + 1)
      throw new EditionError(
        `${path.join(textDir, `chapter-${i + 1}.xhtml`)}: missing (the chapters run from 1 with no gap)`,
      );
  });
  return chapters;
}

/** Every chapter the edition's table of contents names must be there (a missing last one too). */
function checkTableOfContents(editionDir: string, chapters: readonly { file: string }[]): void {
  const toc = path.join(editionDir, 'toc.xhtml');
  if (!existsSync(toc)) return;
  const have = new Set(chapters.map((c) => c.file));
  for (const m of readEditionFile(toc).matchAll(/href="text\/(chapter-\d+\.xhtml)[#"]/g)) {
    const file = m[1] as string;
    if (!have.has(file)) throw new EditionError(`${path.join(editionDir, 'text', file)}: missing (toc.xhtml lists it)`);
  }
}

/** Articles and stray note references of one chapter, in document order. */
function scanChapter(root: XElement, chapter: Chapter, articles: Article[], stray: StrayNoteRef[]): void {
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
  const root = readXhtml(path.join(textDir, file));
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
          const href = a.name === 'a' ? (getAttr(a, 'href') ?? '') : '';
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
  const files = chapterFiles(textDir);
  checkTableOfContents(editionDir, files);
  for (const { number, file } of files) {
    const root = readXhtml(path.join(textDir, file));
    const heading = [...descendants(root)].find((e) => /^h[1-6]$/.test(e.name));
    // Strip note labels (the trailing "47") from the heading text: it is only used in messages.
    const title = heading
      ? textContent({
          ...heading,
          children: heading.children.filter((c) => !(c.kind === 'element' && noteRefTarget(c))),
        })
      : file;
    const chapter: Chapter = { number, file, title: title.trim() };
    chapters.push(chapter);
    const before = articles.length;
    scanChapter(root, chapter, articles, strayNoteRefs);
    // Every chapter of the edition is a month of entries: one with none lost its text.
    if (articles.length === before)
      throw new EditionError(`${path.join(textDir, file)}: no diary entry (<article>) in it: truncated or emptied?`);
  }
  if (chapters.length === 0)
    throw new EditionError(`${textDir}: no chapter-N.xhtml files in it; is this the edition's directory?`);
  return { chapters, articles, strayNoteRefs, ...readEndnotes(textDir) };
}
