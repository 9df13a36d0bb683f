// Writing the derived encyclopedia into a content directory, beside whatever else is there: the
// topics in `topics/standard-ebooks/` (replaced whole, like entries/, and only when an import wrote
// it), and the categories as one block of `categories.yaml` (the `works-and-ships` subtree,
// replaced in place; the rest of the file, hand-written or the fixture's, is kept). Nothing here is written when a derived id
// or slug is already a hand-written topic's or category's: the import refuses instead.

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { fail, ok, type Result } from '../core/result.ts';
import { isAlive } from '../output/trash.ts';
import { CATEGORY_TITLES, type DerivedTopic, ROOT_CATEGORY } from './encyclopedia.ts';
import { MARK_CATEGORIES } from './marks.ts';
import { replaceDirectory } from './write.ts';

/** The directory under `topics/` the import owns. */
export const IMPORTED_TOPICS_DIR = 'standard-ebooks';
const MARKER = '.pepys-import';
const MARKER_TEXT =
  'These topics were derived from the Standard Ebooks edition by npm run import; the next import replaces this directory whole.\n' +
  'Topics written by hand belong elsewhere under topics/.\n';

/**
 * The import's categories in a `categories.yaml`: the top-level category's item as the import
 * writes it, and the items right after it whose parent it is. No comment marks them: a comment
 * would take the file off the YAML fast path (content/yaml-fast.ts), which the build reads it by.
 */
const IMPORTED_BLOCK = new RegExp(
  `^- slug: ${ROOT_CATEGORY.slug}\\n {2}title: [^\\n]*\\n(?:- slug: [a-z0-9-]+\\n {2}title: [^\\n]*\\n {2}parent: ${ROOT_CATEGORY.slug}\\n)*`,
  'm',
);

/** A YAML string: plain when it reads back as itself, else double-quoted (JSON's escapes are YAML's). */
function yamlString(text: string): string {
  const plain =
    /^[A-Za-z][^:#\n"'\\]*$/.test(text) && !/\s$/.test(text) && !/^(?:y|n|yes|no|on|off|true|false|null)$/i.test(text);
  return plain ? text : JSON.stringify(text);
}

/** The category slugs the derived topics use, top-level first: only categories that have topics. */
function derivedCategories(topics: readonly DerivedTopic[]): { slug: string; title: string; parent: string | null }[] {
  const used = MARK_CATEGORIES.filter((c) => topics.some((t) => t.category === c));
  if (used.length === 0) return [];
  return [
    { slug: ROOT_CATEGORY.slug, title: ROOT_CATEGORY.title, parent: null },
    ...used.map((slug) => ({ slug, title: CATEGORY_TITLES[slug], parent: ROOT_CATEGORY.slug })),
  ];
}

function renderTopicFile(t: DerivedTopic): string {
  const lines = [`id: ${t.id}`, `title: ${yamlString(t.title)}`];
  if (t.orderTitle !== t.title) lines.push(`orderTitle: ${yamlString(t.orderTitle)}`);
  lines.push('kind: default', `categories: [${t.category}]`);
  if (t.description !== null) {
    lines.push(`tooltipText: ${yamlString(t.description.tooltipText)}`);
    lines.push(`wheatleyHTML: ${JSON.stringify(t.description.wheatleyHTML)}`);
  }
  lines.push('wikipediaURL: null', 'thumbnailURL: null', 'latitude: null', 'longitude: null', 'zoom: null');
  return `${lines.join('\n')}\n`;
}

function categoriesBlock(topics: readonly DerivedTopic[]): string {
  return derivedCategories(topics)
    .map(
      (c) =>
        `- slug: ${c.slug}\n  title: ${yamlString(c.title)}${c.parent === null ? '' : `\n  parent: ${c.parent}`}\n`,
    )
    .join('');
}

/** The import's block of a `categories.yaml` text, and the slugs in it; null when none. */
export function importedCategories(text: string | null): { block: string; slugs: string[] } | null {
  const m = text === null ? null : IMPORTED_BLOCK.exec(text);
  if (m === null) return null;
  return { block: m[0], slugs: [...m[0].matchAll(/^- slug: (\S+)$/gm)].map((x) => x[1] as string) };
}

/** The text of `categories.yaml` with the import's block in it (in place of an earlier one), or why it cannot hold it. */
export function mergeCategories(existing: string | null, topics: readonly DerivedTopic[]): Result<string, string> {
  const block = categoriesBlock(topics);
  const m = existing === null ? null : IMPORTED_BLOCK.exec(existing);
  if (existing !== null && m !== null) {
    const before = existing.slice(0, m.index);
    const after = existing.slice(m.index + m[0].length);
    if (block === '' && `${before}${after}`.replace(/#.*$/gm, '').trim() === '') return ok('[]\n');
    return checkedMerge(`${before}${after}`, block, before, after);
  }
  if (existing === null || existing.replace(/#.*$/gm, '').trim() === '' || existing.trim() === '[]')
    return ok(block === '' ? (existing ?? '[]\n') : block);
  return checkedMerge(existing, block, existing.endsWith('\n') ? existing : `${existing}\n`, '');
}

/** `before + block + after`, when the hand-written rest is a block list whose slugs are not the import's. */
function checkedMerge(rest: string, block: string, before: string, after: string): Result<string, string> {
  let data: unknown;
  try {
    data = parse(rest);
  } catch (error) {
    return fail(
      `categories.yaml cannot be read (${(error as Error).message.split('\n')[0]}); fix it, then import again`,
    );
  }
  const firstLine = rest.split('\n').find((l) => l.trim() !== '' && !l.trimStart().startsWith('#')) ?? '';
  if (!(data === null || Array.isArray(data)) || !(firstLine === '' || firstLine.startsWith('- '))) {
    return fail(
      'categories.yaml is not a block list ("- slug: …" items) the import can add its categories to; write it so, or move it away',
    );
  }
  const ours = new Set<string>([ROOT_CATEGORY.slug, ...MARK_CATEGORIES]);
  const clash = (Array.isArray(data) && block !== '' ? data : [])
    .map((c: unknown) => (typeof c === 'object' && c !== null ? (c as { slug?: unknown }).slug : undefined))
    .find((s) => typeof s === 'string' && ours.has(s));
  if (clash !== undefined)
    return fail(
      `categories.yaml already has a category "${String(clash)}", a slug the import's categories use; rename yours`,
    );
  return ok(`${before}${block}${after}`);
}

/** Every topic id under `topics/` but the import's own directory: the hand-written and the fixture's. */
function otherTopicIds(contentDir: string): Map<number, string> {
  const ids = new Map<number, string>();
  const root = path.join(contentDir, 'topics');
  const walk = (relative: string): void => {
    let items: import('node:fs').Dirent[];
    try {
      items = readdirSync(path.join(root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const item of items) {
      if (item.name.startsWith('.')) continue;
      const child = path.join(relative, item.name);
      if (relative === '' && item.name === IMPORTED_TOPICS_DIR) continue;
      const full = path.join(root, child);
      if (item.isDirectory() || (item.isSymbolicLink() && statSync(full, { throwIfNoEntry: false })?.isDirectory()))
        walk(child);
      else if (item.name.endsWith('.yaml')) {
        let text: string;
        try {
          text = readFileSync(full, 'utf8');
        } catch {
          continue; // the build reports it
        }
        const id = /^id:[ \t]*([0-9]+)[ \t]*(?:#.*)?$/m.exec(text)?.[1];
        if (id !== undefined) ids.set(Number(id), path.join('topics', child));
      }
    }
  };
  walk('');
  return ids;
}

/** Whether the derived encyclopedia can go into `contentDir`: its directory is the import's, its ids free. */
export function checkEncyclopediaTarget(contentDir: string, topics: readonly DerivedTopic[]): Result<void, string> {
  const dir = path.join(contentDir, 'topics', IMPORTED_TOPICS_DIR);
  if (existsSync(dir) && !(existsSync(path.join(dir, MARKER)) || readdirSync(dir).length === 0)) {
    return fail(
      `${dir} holds topics this importer did not write (no ${MARKER} in it), and an import replaces it whole; move them elsewhere under topics/`,
    );
  }
  const others = otherTopicIds(contentDir);
  for (const t of topics) {
    const file = others.get(t.id);
    if (file !== undefined)
      return fail(
        `${path.join(contentDir, file)} has id ${t.id}, the id the import derives for "${t.title}" (${t.category}); give that topic another id (derived ids are 100000000 and above)`,
      );
  }
  return ok(undefined);
}

/** Writes the topics (swapped in whole) and categories.yaml (given, already merged). */
export function writeEncyclopedia(contentDir: string, topics: readonly DerivedTopic[], categoriesYaml: string): void {
  const topicsDir = path.join(contentDir, 'topics');
  mkdirSync(topicsDir, { recursive: true });
  for (const name of readdirSync(topicsDir)) {
    const m = /^\.standard-ebooks-(?:import|old)-(\d+)$/.exec(name);
    if (m !== null && !isAlive(Number(m[1]))) rmSync(path.join(topicsDir, name), { recursive: true, force: true });
  }
  const target = path.join(topicsDir, IMPORTED_TOPICS_DIR);
  const staging = path.join(topicsDir, `.standard-ebooks-import-${process.pid}`);
  const old = path.join(topicsDir, `.standard-ebooks-old-${process.pid}`);
  replaceDirectory(staging, target, old, () => {
    writeFileSync(path.join(staging, MARKER), MARKER_TEXT);
    for (const t of topics) writeFileSync(path.join(staging, `${t.id}.yaml`), renderTopicFile(t));
    // categories.yaml first: the topics it names exist before and after, as no slug is renamed.
    const categoriesFile = path.join(contentDir, 'categories.yaml');
    writeFileSync(`${categoriesFile}.import-${process.pid}`, categoriesYaml);
    renameSync(`${categoriesFile}.import-${process.pid}`, categoriesFile);
  });
}
