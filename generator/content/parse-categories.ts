// The category tree file: a YAML list of {slug, title, parent?}.

import type { Category } from '../core/model.ts';
import { CATEGORY_FILE_KEYS } from '../core/record-fields.ts';
import { asMapping, type FieldSource, problem, rejectUnknownKeys, requiredString } from './fields.ts';
import type { Problem } from './problems.ts';
import { parseYamlList } from './yaml-text.ts';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_SLUG_LENGTH = 100;

export interface ParsedCategory {
  line: number;
  category: Category;
}

/**
 * The categories of the file, each problem recorded; null when the file is unusable as a whole
 * (malformed YAML, not a list), so that references to categories are not checked against nothing.
 */
export function parseCategoriesFile(text: string, file: string, problems: Problem[]): ParsedCategory[] | null {
  const parsed = parseYamlList(text, file, problems);
  if (parsed === undefined) return null;
  const { data, itemLines: lines } = parsed;
  if (data === null || data === undefined) return [];
  if (!Array.isArray(data)) {
    problems.push({ file, line: 1, message: 'the category file must be a YAML list of categories' });
    return null;
  }
  const out: ParsedCategory[] = [];
  data.forEach((item, i) => {
    const line = lines[i] ?? 1;
    const map = asMapping(item);
    if (map === null) {
      problems.push({ file, line, message: 'each category must be a mapping with slug, title and optionally parent' });
      return;
    }
    const src: FieldSource = { file, text, firstLine: 1, baseLine: line, data: map, problems };
    rejectUnknownKeys(src, CATEGORY_FILE_KEYS);
    const slug = requiredString(src, 'slug');
    if (slug !== null && slug.length > MAX_SLUG_LENGTH) {
      // A slug names a file of the output: bounded here, not by the file system later.
      problem(src, 'slug', `slug is ${slug.length} characters long; at most ${MAX_SLUG_LENGTH}`);
    } else if (slug !== null && !SLUG_PATTERN.test(slug)) {
      problem(src, 'slug', `slug "${slug}" must be lowercase letters and digits, words joined by single hyphens`);
    }
    const title = requiredString(src, 'title');
    let parent: string | null = null;
    if (map.parent !== undefined && map.parent !== null) {
      if (typeof map.parent === 'string' && map.parent !== '') parent = map.parent;
      else problem(src, 'parent', '"parent" must be the slug of another category');
    }
    if (slug !== null && title !== null) out.push({ line, category: { slug, title, parent } });
  });
  return out;
}
