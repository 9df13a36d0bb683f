// Content directory to validated model: discovery (discover.ts), reading and parsing, validation.
// The parsed files are kept file by file (ContentState) so that the watch mode can re-read one
// file and validate again without parsing the others.
// Reading never throws for anything in the content directory: every problem of every file,
// site.yaml and categories.yaml included, is collected, and validation reports them all at once.

import type { Model, SiteConfig } from '../core/model.ts';
import { buildModel } from './build-model.ts';
import { readSiteConfig, SITE_FILE } from './config.ts';
import { type ContentRead, listContent } from './discover.ts';
import { inputOf, inputsHash, type LoadOptions, type Sources } from './fingerprint.ts';
import { type ParsedCategory, parseCategoriesFile } from './parse-categories.ts';
import type { ParsedEntry } from './parse-entry.ts';
import { type FileJob, type ParsedFile, parseContentFile } from './parse-file.ts';
import type { ParsedTopic } from './parse-topic.ts';
import { ContentError, type Problem } from './problems.ts';
import { READ_AHEAD_MIN_FILES, startReadAhead } from './read-ahead.ts';
import { outcomeOfRead, type ReadOutcome, readContentFile } from './read-file.ts';

export const CATEGORIES_FILE = 'categories.yaml';

export interface ReadOptions extends LoadOptions {
  /**
   * Read the files on a second thread while this one parses (read-ahead.ts): 'auto' (the
   * default) when there are at least READ_AHEAD_MIN_FILES of them.
   */
  readAhead?: boolean | 'auto';
  /** Called as each entry or topic file is parsed (the build's progress counts them). */
  onParsed?: () => void;
  /** Called once the directory is listed, with the number of entry and topic files to read. */
  onListed?: (files: number) => void;
  /**
   * Also make the fingerprint of the files as they are read (fingerprint.ts), for the build to
   * record: what the output is made of, whatever changed since its first look.
   */
  fingerprint?: boolean;
  /** What was already read of the directory (discover.ts): used as it was read, each part taken out. */
  read?: ContentRead;
}

export interface LoadedContent {
  model: Model;
  /** Number of files read, by kind. */
  files: { entries: number; topics: number; categories: number };
}

export interface ParsedCategories {
  found: boolean;
  /**
   * False when the file could not be read or parsed as a whole: its own problem is reported, and
   * topics' references to categories are not checked against an empty tree.
   */
  usable: boolean;
  categories: ParsedCategory[];
  problems: Problem[];
  /** What was read (read-file.ts signatureAt), or null when there is no categories.yaml. */
  signature: string | null;
}

/** Every content file, parsed, with its own problems: the input of validation. */
export interface ContentState {
  contentDir: string;
  config: SiteConfig;
  /** Problems of site.yaml (the configuration then keeps the defaults they concern). */
  siteProblems: Problem[];
  /** site.yaml as read (read-file.ts signatureAt), or null when there is none. */
  siteSignature: string | null;
  /** Problems of discovery: directories that cannot be listed, loops of links. */
  listProblems: Problem[];
  /** Entry and topic files, each list sorted (the order problems and duplicates are found in). */
  entryFiles: string[];
  topicFiles: string[];
  /** The parse of each entry and topic file, by path. */
  parsed: Map<string, ParsedFile>;
  categories: ParsedCategories;
  /** The fingerprint of the files as they were read (when asked: ReadOptions.fingerprint). */
  fingerprint: string | null;
  /** The same, file by file (fingerprint.ts Sources), when asked. */
  sources: Sources | null;
}

export function readCategories(
  contentDir: string,
  read: ReadOutcome = readContentFile(contentDir, CATEGORIES_FILE),
): ParsedCategories {
  if (!read.ok) {
    return read.error.gone
      ? { found: false, usable: true, categories: [], problems: [], signature: null }
      : { found: true, usable: false, categories: [], problems: [read.error.problem], signature: read.error.signature };
  }
  const problems: Problem[] = [];
  const parsed = parseCategoriesFile(read.value.text, CATEGORIES_FILE, problems);
  return { found: true, usable: parsed !== null, categories: parsed ?? [], problems, signature: read.value.signature };
}

/**
 * Lists, reads and parses every content file. Never throws for the content (its problems are
 * in the state, for validate); only for a bad `env.URL`.
 */
export async function readContent(contentDir: string, options: ReadOptions = {}): Promise<ContentState> {
  const siteRead = readContentFile(contentDir, SITE_FILE);
  const site = readSiteConfig(contentDir, options.overrides ?? {}, options.env ?? {}, siteRead);
  const { config } = site;
  const listing = options.read?.listing ?? listContent(contentDir);
  if (options.read !== undefined) options.read.listing = null;
  // Before the records: a topic's kind may come from its categories (build.ts renders details early).
  const categoriesRead = readContentFile(contentDir, CATEGORIES_FILE);
  const categories = readCategories(contentDir, categoriesRead);
  // In the order buildFingerprint reads them.
  const inputs = options.fingerprint === true ? inputsHash(options) : null;
  if (inputs !== null) {
    // Absent when gone, as the check reads them.
    inputs.file(SITE_FILE, inputOf(siteRead) ?? { bytes: null });
    inputs.file(CATEGORIES_FILE, inputOf(categoriesRead) ?? { bytes: null });
    inputs.problems(listing.problems);
  }
  // Parsed on this thread (with the YAML fast path, parsing no longer repays worker threads:
  // docs/performance.md); a second thread may read the files ahead of it.
  const all = [...listing.entryFiles, ...listing.topicFiles];
  options.onListed?.(all.length);
  const already = options.read?.files;
  const toRead = already === undefined || already.size === 0 ? all : all.filter((file) => !already.has(file));
  const readAhead = options.readAhead ?? 'auto';
  const reader = (readAhead === 'auto' ? toRead.length >= READ_AHEAD_MIN_FILES : readAhead && toRead.length > 0)
    ? startReadAhead(contentDir, toRead)
    : null;
  const parsed = new Map<string, ParsedFile>();
  try {
    for (const [kind, files] of [
      ['entry', listing.entryFiles],
      ['topic', listing.topicFiles],
    ] as const) {
      for (const file of files) {
        const job: FileJob = { kind, file };
        const before = already?.take(file);
        const read =
          before !== undefined
            ? outcomeOfRead(file, before.facts, before.readAt, before.bytes)
            : (reader?.next(file) ?? readContentFile(contentDir, file));
        const p = parseContentFile(contentDir, job, config, read);
        // A file removed after it was listed is as if it had not been listed.
        if (p.gone) continue;
        // Each file's bytes are hashed once: the check's reading kept its hash.
        const input =
          inputs === null ? null : before !== undefined && read.ok ? { digest: before.digest } : inputOf(read);
        if (input !== null) inputs?.file(file, input);
        parsed.set(file, p);
        options.onParsed?.();
      }
    }
  } finally {
    reader?.close();
    already?.clear();
  }
  const present = (file: string) => parsed.has(file);
  return {
    contentDir,
    config,
    siteProblems: site.problems,
    siteSignature: site.signature,
    listProblems: listing.problems,
    entryFiles: listing.entryFiles.filter(present),
    topicFiles: listing.topicFiles.filter(present),
    parsed,
    categories,
    fingerprint: inputs?.digest() ?? null,
    sources: inputs?.sources() ?? null,
  };
}

export type Validated = { ok: true; model: Model } | { ok: false; problems: Problem[] };

/** Cross-file validation of parsed content: the model, or every problem of every file. */
export function validate(state: ContentState): Validated {
  const problems: Problem[] = [...state.siteProblems, ...state.listProblems];
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
  const model = buildModel(
    {
      config,
      entries,
      topics,
      categoriesFile: CATEGORIES_FILE,
      categories: state.categories.categories,
      categoriesUsable: state.categories.usable,
    },
    problems,
  );
  return problems.length > 0 ? { ok: false, problems } : { ok: true, model };
}

/** Loads and validates a content directory; throws ContentError listing every problem. */
export async function loadContent(contentDir: string, options: LoadOptions = {}): Promise<LoadedContent> {
  const state = await readContent(contentDir, options);
  const v = validate(state);
  if (!v.ok) throw new ContentError(v.problems, contentDir);
  return {
    model: v.model,
    files: {
      entries: state.entryFiles.length,
      topics: state.topicFiles.length,
      categories: state.categories.found ? 1 : 0,
    },
  };
}
