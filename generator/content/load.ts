// Content directory to validated model: discovery (fast-glob), reading and parsing (on every
// core, see parse-pool.ts), validation. The parsed files are kept file by file (ContentState) so
// that the watch mode can re-read one file and validate again without parsing the others.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import type { Model, SiteConfig } from '../core/model.ts';
import { type ConfigOverrides, loadSiteConfig } from './config.ts';
import { buildModel } from './build-model.ts';
import { type ParsedCategory, parseCategoriesFile } from './parse-categories.ts';
import type { ParsedEntry } from './parse-entry.ts';
import type { FileJob, ParsedFile } from './parse-file.ts';
import { autoWorkers, startParsePool } from './parse-pool.ts';
import type { ParsedTopic } from './parse-topic.ts';
import { ContentError, type Problem } from './problems.ts';

export const CATEGORIES_FILE = 'categories.yaml';
export const ENTRY_GLOB = 'entries/**/*.html';
export const TOPIC_GLOB = 'topics/**/*.yaml';

export interface LoadOptions {
  overrides?: ConfigOverrides;
  env?: Record<string, string | undefined>;
  /**
   * Parse worker threads besides the calling one: a number, or 'auto' (as many as the content's
   * size repays, at most one fewer than the cores; see parse-pool.ts). Default 0: a library call
   * does not start threads unasked.
   */
  workers?: number | 'auto';
}

export interface LoadedContent {
  model: Model;
  /** Number of files read, by kind. */
  files: { entries: number; topics: number; categories: number };
}

export interface ParsedCategories {
  found: boolean;
  categories: ParsedCategory[];
  problems: Problem[];
}

/** Every content file, parsed, with its own problems: the input of validation. */
export interface ContentState {
  contentDir: string;
  config: SiteConfig;
  /** Entry and topic files, each list sorted (the order problems and duplicates are found in). */
  entryFiles: string[];
  topicFiles: string[];
  /** The parse of each entry and topic file, by path. */
  parsed: Map<string, ParsedFile>;
  categories: ParsedCategories;
}

export function readCategories(contentDir: string): ParsedCategories {
  let text: string;
  try {
    text = readFileSync(join(contentDir, CATEGORIES_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return { found: false, categories: [], problems: [] };
  }
  const problems: Problem[] = [];
  return { found: true, categories: parseCategoriesFile(text, CATEGORIES_FILE, problems), problems };
}

/** Lists, reads and parses every content file. Throws ContentError only for site.yaml. */
export async function readContent(contentDir: string, options: LoadOptions = {}): Promise<ContentState> {
  const config = loadSiteConfig(contentDir, options.overrides ?? {}, options.env ?? {});
  const [entryFiles, topicFiles] = await Promise.all([
    fg(ENTRY_GLOB, { cwd: contentDir, onlyFiles: true }),
    fg(TOPIC_GLOB, { cwd: contentDir, onlyFiles: true }),
  ]);
  // Sorted, so that problems and duplicates are reported the same way on every machine.
  entryFiles.sort();
  topicFiles.sort();
  const jobs: FileJob[] = [
    ...entryFiles.map((file) => ({ kind: 'entry' as const, file })),
    ...topicFiles.map((file) => ({ kind: 'topic' as const, file })),
  ];
  const pool = startParsePool(options.workers === 'auto' ? autoWorkers(jobs.length) : (options.workers ?? 0));
  try {
    const results = await pool.run(contentDir, jobs, config.lastModifiedTime);
    const parsed = new Map<string, ParsedFile>();
    jobs.forEach((job, i) => parsed.set(job.file, results[i] as ParsedFile));
    return { contentDir, config, entryFiles, topicFiles, parsed, categories: readCategories(contentDir) };
  } finally {
    void pool.close();
  }
}

export type Validated = { ok: true; model: Model } | { ok: false; problems: Problem[] };

/** Cross-file validation of parsed content: the model, or every problem of every file. */
export function validate(state: ContentState): Validated {
  const problems: Problem[] = [];
  const entries: ParsedEntry[] = [];
  const topics: ParsedTopic[] = [];
  for (const file of state.entryFiles) {
    const f = state.parsed.get(file);
    if (f === undefined) continue;
    problems.push(...f.problems);
    if (f.kind === 'entry' && f.parsed !== null) entries.push(f.parsed);
  }
  for (const file of state.topicFiles) {
    const f = state.parsed.get(file);
    if (f === undefined) continue;
    problems.push(...f.problems);
    if (f.kind === 'topic' && f.parsed !== null) topics.push(f.parsed);
  }
  problems.push(...state.categories.problems);
  const { config } = state;
  const model = buildModel({ config, entries, topics, categoriesFile: CATEGORIES_FILE, categories: state.categories.categories }, problems);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, model };
}

/** Loads and validates a content directory; throws ContentError listing every problem. */
export async function loadContent(contentDir: string, options: LoadOptions = {}): Promise<LoadedContent> {
  const state = await readContent(contentDir, options);
  const v = validate(state);
  if (!v.ok) throw new ContentError(v.problems, contentDir);
  return {
    model: v.model,
    files: { entries: state.entryFiles.length, topics: state.topicFiles.length, categories: state.categories.found ? 1 : 0 },
  };
}
