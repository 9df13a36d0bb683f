// Small content directories written to a temp dir, for tests.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type ConfigOverrides, DEFAULT_CONFIG } from '../../generator/content/config.ts';
import { loadContent, readContent, validate } from '../../generator/content/load.ts';
import { parseEntryFile } from '../../generator/content/parse-entry.ts';
import { ContentError, type Problem } from '../../generator/content/problems.ts';
import type { Model } from '../../generator/core/model.ts';
import { tempDir } from './temp.ts';

/** Writes `files` (relative path → text) into a fresh temp directory and returns its path. */
export function writeContent(files: Record<string, string>): string {
  const dir = tempDir('pepys-content-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

export function entryFile(date: string, frontMatter = '', body = `<p>Text of ${date}.</p>`): string {
  return `---\ndate: ${date}\n${frontMatter}---\n${body}\n`;
}

/** categories.yaml of three categories in three levels: people > household > servants. */
export const CATEGORIES_YAML = [
  '- slug: people',
  '  title: People',
  '- slug: household',
  '  title: Household',
  '  parent: people',
  '- slug: servants',
  '  title: Servants',
  '  parent: household',
  '',
].join('\n');

/** A small valid site: three categories in three levels, two topics, three entries. */
export function smallSite(): Record<string, string> {
  return {
    'site.yaml': 'apiOrigin: https://api.test\nsiteOrigin: https://site.test\n',
    'categories.yaml': CATEGORIES_YAML,
    'topics/1.yaml': 'id: 1\ntitle: Jane\nkind: person\ncategories: [servants]\n',
    'topics/2.yaml': 'id: 2\ntitle: Axe Yard\nkind: place\ncategories: [household]\n',
    'entries/1660/1660-01-01.html': entryFile('1660-01-01', 'topics: [1, 2]\n'),
    'entries/1660/1660-01-02.html': entryFile('1660-01-02', 'topics: [2]\n'),
    'entries/1661/1661-01-20.html': entryFile('1661-01-20'),
  };
}

/** The HTML of an entry file and of its footnotes, as the build reads them (it must be valid). */
export function entryParts(text: string): { body: string; footnotes: string } {
  const problems: Problem[] = [];
  const parsed = parseEntryFile(text, 'entry.html', DEFAULT_CONFIG, problems);
  if (parsed === null || problems.length > 0)
    throw new Error(`not a valid entry file: ${problems.map((p) => p.message).join('; ')}`);
  return { body: parsed.entry.entryHTML, footnotes: parsed.entry.footnotesHTML };
}

/** Every problem a load of these content files reports (none: []). */
export async function problemsOf(files: Record<string, string>): Promise<Problem[]> {
  try {
    await loadContent(writeContent(files));
  } catch (err) {
    if (err instanceof ContentError) return err.problems;
    throw err;
  }
  return [];
}

/** The model of the content in `contentDir`, read (without read-ahead) and validated; throws on its first problem. */
export async function modelOf(contentDir: string, overrides: ConfigOverrides = {}): Promise<Model> {
  const v = validate(await readContent(contentDir, { env: {}, readAhead: false, overrides }));
  if (!v.ok) throw new Error(v.problems[0]?.message);
  return v.model;
}

/** Replaces `from` with `to` in the file at `path`. */
export function replaceIn(path: string, from: RegExp | string, to: string): void {
  writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
}
