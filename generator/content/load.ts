// Content directory to validated model: discovery (fast-glob), reading, parsing, validation.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fg from 'fast-glob';
import type { Model } from '../core/model.ts';
import { type ConfigOverrides, loadSiteConfig } from './config.ts';
import { buildModel } from './model.ts';
import { type ParsedCategory, parseCategoriesFile } from './parse-categories.ts';
import { type ParsedEntry, parseEntryFile } from './parse-entry.ts';
import { type ParsedTopic, parseTopicFile } from './parse-topic.ts';
import { ContentError, type Problem } from './problems.ts';

export const CATEGORIES_FILE = 'categories.yaml';
export const ENTRY_GLOB = 'entries/**/*.html';
export const TOPIC_GLOB = 'topics/**/*.yaml';

export interface LoadOptions {
  overrides?: ConfigOverrides;
  env?: Record<string, string | undefined>;
}

export interface LoadedContent {
  model: Model;
  /** Number of files read, by kind. */
  files: { entries: number; topics: number; categories: number };
}

/** Reads many files with bounded concurrency, keeping their order. */
async function readAll(dir: string, files: string[]): Promise<string[]> {
  const out = new Array<string>(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      out[i] = await readFile(join(dir, files[i] as string), 'utf8');
    }
  };
  await Promise.all(Array.from({ length: Math.min(64, files.length) }, worker));
  return out;
}

/** Loads and validates a content directory; throws ContentError listing every problem. */
export async function loadContent(contentDir: string, options: LoadOptions = {}): Promise<LoadedContent> {
  const config = loadSiteConfig(contentDir, options.overrides ?? {}, options.env ?? {});
  const problems: Problem[] = [];
  const [entryFiles, topicFiles] = await Promise.all([
    fg(ENTRY_GLOB, { cwd: contentDir, onlyFiles: true }),
    fg(TOPIC_GLOB, { cwd: contentDir, onlyFiles: true }),
  ]);
  // Sorted, so that problems and duplicates are reported the same way on every machine.
  entryFiles.sort();
  topicFiles.sort();
  const [entryTexts, topicTexts] = await Promise.all([readAll(contentDir, entryFiles), readAll(contentDir, topicFiles)]);

  const entries: ParsedEntry[] = [];
  entryTexts.forEach((text, i) => {
    const parsed = parseEntryFile(text, entryFiles[i] as string, config.lastModifiedTime, problems);
    if (parsed) entries.push(parsed);
  });
  const topics: ParsedTopic[] = [];
  topicTexts.forEach((text, i) => {
    const parsed = parseTopicFile(text, topicFiles[i] as string, config.lastModifiedTime, problems);
    if (parsed) topics.push(parsed);
  });
  let categories: ParsedCategory[] = [];
  let categoriesFound = 0;
  try {
    const text = await readFile(join(contentDir, CATEGORIES_FILE), 'utf8');
    categoriesFound = 1;
    categories = parseCategoriesFile(text, CATEGORIES_FILE, problems);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const model = buildModel({ config, entries, topics, categoriesFile: CATEGORIES_FILE, categories }, problems);
  if (problems.length > 0) throw new ContentError(problems, contentDir);
  return { model, files: { entries: entryFiles.length, topics: topicFiles.length, categories: categoriesFound } };
}
