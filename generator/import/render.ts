// The text of one entry file (docs/content-format.md): front matter, the entry's HTML, and after
// a `<!-- footnotes -->` line the footnotes as an ordered list. Output depends only on its inputs,
// so a second import writes byte-identical files.

import { FOOTNOTES_MARKER } from '../content/parse-entry.ts';

export interface Footnote {
  /** `note-N`. */
  id: string;
  /** The note's inner HTML, cleaned. */
  html: string;
}

/**
 * Remove the indentation the source's nesting gave a fragment (tabs in Standard Ebooks), and the
 * blank lines around it. Only leading whitespace of lines changes, which HTML renders the same.
 */
export function dedent(html: string): string {
  const lines = html
    .replace(/^\s*\n/, '')
    .replace(/\s+$/, '')
    .split('\n');
  let common: string | null = null;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const indent = /^[\t ]*/.exec(line)?.[0] ?? '';
    if (common === null || !indent.startsWith(common)) {
      let i = 0;
      const base: string = common ?? indent;
      while (i < base.length && i < indent.length && base[i] === indent[i]) i++;
      common = base.slice(0, i);
    }
  }
  const cut = (common ?? '').length;
  return lines.map((line) => (line.trim() === '' ? '' : line.slice(cut))).join('\n');
}

function indent(html: string, prefix: string): string {
  return html
    .split('\n')
    .map((line) => (line === '' ? line : prefix + line))
    .join('\n');
}

function renderFootnotes(footnotes: readonly Footnote[]): string {
  const items = footnotes.map((note) => {
    // value= keeps the list's visible numbers equal to the edition's note numbers, which the
    // references in the text show (an <ol> would otherwise restart at 1 in every entry).
    const number = note.id.slice('note-'.length);
    return `\t<li id="${note.id}" value="${number}">\n${indent(dedent(note.html), '\t\t')}\n\t</li>`;
  });
  return `<ol>\n${items.join('\n')}\n</ol>`;
}

export function renderEntryFile(date: string, bodyParts: readonly string[], footnotes: readonly Footnote[]): string {
  const body = bodyParts.map(dedent).join('\n');
  const lines = ['---', `date: ${date}`, 'topics: []', '---', body];
  if (footnotes.length > 0) lines.push(FOOTNOTES_MARKER, renderFootnotes(footnotes));
  return `${lines.join('\n')}\n`;
}
