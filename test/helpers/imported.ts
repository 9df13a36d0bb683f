// What the importer's tests check of an import, in the everyday suite (a miniature edition) and
// the heavy one (the whole Standard Ebooks edition).

import { importStandardEbooks } from '../../generator/import/standard-ebooks.ts';
import { entryParts } from './content.ts';

// The edition's markup, for miniature editions (test/import-standard-ebooks.test.ts, test/import-encyclopedia.test.ts).
export const NS = 'xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en-GB"';
export const ref = (n: number): string =>
  `<a href="endnotes.xhtml#note-${n}" id="noteref-${n}" epub:type="noteref">${n}</a>`;
export const article = (id: string, inner: string): string =>
  `\t\t\t<article id="${id}" epub:type="z3998:diary-entry">\n\t\t\t\t${inner}\n\t\t\t</article>\n`;
export const chapter = (n: number, title: string, articles: string): string =>
  `<?xml version="1.0" encoding="utf-8"?>\n<html ${NS}>\n\t<head><title>${title}</title></head>\n\t<body epub:type="bodymatter">\n` +
  `\t\t<section id="chapter-${n}" epub:type="chapter">\n\t\t\t<h2 epub:type="title">${title}${n === 1 ? ref(1) : ''}</h2>\n` +
  `${articles}\t\t</section>\n\t</body>\n</html>\n`;
export const note = (n: number, backTo: string, inner: string): string =>
  `\t\t\t\t<li id="note-${n}">\n\t\t\t\t\t<p>${inner} <a href="${backTo}#noteref-${n}" epub:type="backlink">↩</a></p>\n\t\t\t\t</li>\n`;

/** The error an import throws, or null. */
export function importError(edition: string, contentDir: string): Error | null {
  try {
    importStandardEbooks(edition, contentDir);
    return null;
  } catch (error) {
    return error as Error;
  }
}

/** Problems with an entry's note wiring: every reference has its note here, and back. */
export function noteProblems(file: string, text: string): string[] {
  const { body, footnotes } = entryParts(text);
  const problems: string[] = [];
  const refs = [...body.matchAll(/<a href="#(note-\d+)"( id="noteref-(\d+)")?/g)];
  const notes = new Set([...footnotes.matchAll(/<li id="(note-\d+)"/g)].map((m) => m[1]));
  const refIds = new Set(refs.filter((m) => m[2]).map((m) => `note-${m[3]}`));
  for (const m of refs)
    if (!notes.has(m[1] as string)) problems.push(`${file}: ${m[1]} referenced but not in the footnotes`);
  for (const note of notes)
    if (!refIds.has(note as string)) problems.push(`${file}: ${note} printed but never referenced`);
  for (const m of footnotes.matchAll(/href="#noteref-(\d+)"/g)) {
    if (!body.includes(`id="noteref-${m[1]}"`)) problems.push(`${file}: backlink to missing noteref-${m[1]}`);
  }
  const ids = [...text.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
  if (new Set(ids).size !== ids.length) problems.push(`${file}: duplicate ids`);
  return problems;
}

/** An edition's `endnotes.xhtml` around these notes (made with note()). */
export const endnotes = (notes: string): string =>
  `<?xml version="1.0" encoding="utf-8"?>\n<html ${NS}>\n\t<body>\n\t\t<section id="endnotes" epub:type="endnotes">\n\t\t\t<ol>\n` +
  `${notes}\t\t\t</ol>\n\t\t</section>\n\t</body>\n</html>\n`;
