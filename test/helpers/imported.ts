// What the importer's tests check of an import, in the everyday suite (a miniature edition) and
// the heavy one (the whole Standard Ebooks edition).

import { importStandardEbooks } from '../../generator/import/standard-ebooks.ts';
import { entryParts } from './content.ts';

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
