// One build: content directory → validated model → rendered files → atomic write. Throws
// RefusedError (output/guard.ts) for a content or output directory it will not use, ContentError
// for invalid content, and the file system's own errors (with their path) for faults of the
// machine; in every case the previous output is left as it was.
//
// The files are created by a thread of their own (output/writer.ts beginSite) while this one
// reads, parses and renders, and it starts before the content is read: the detail files, 13,000
// of the whole diary's 14,000, are rendered as their files are parsed (see EarlyDetails), so that
// creating them overlaps reading and parsing the rest. What is rendered before validation is
// rendered as if the content were valid: should it prove invalid, the staging tree is discarded
// whole and none of it was ever the output.

import { createProgress } from './cli/progress.ts';
import { byDate, entryOf, topicEntriesOf, topicOf } from './content/build-model.ts';
import { kindsByCategory } from './content/derive.ts';
import { buildFingerprint } from './content/fingerprint.ts';
import { type LoadOptions, type ParsedCategories, readContent, validate } from './content/load.ts';
import type { FileJob, ParsedFile } from './content/parse-file.ts';
import { ContentError } from './content/problems.ts';
import type { Entry, Model, SiteConfig } from './core/model.ts';
import { originsOf } from './core/records.ts';
import type { IsoDate, TopicKind } from './core/types.ts';
import { beginRebuild, type Rebuild, type RebuildStats } from './output/rebuild.ts';
import { beginSite, prepareOutput, type StagedSite } from './output/writer.ts';
import { entryDetailFile, renderFiles, topicDetailFile } from './render/render-site.ts';
import { checkUnchanged } from './unchanged.ts';

export interface BuildOptions extends LoadOptions {
  contentDir: string;
  outDir: string;
  quiet?: boolean;
  /**
   * The content's fingerprint, from a caller that has already asked whether there is anything to
   * do (unchanged.ts checkUnchanged, as `npm run build` does): the build then does not ask again.
   */
  inputs?: string;
  /** Write a whole new tree, trusting nothing of the previous output (no rebuild, no skip). */
  full?: boolean;
}

export interface BuildReport {
  entries: number;
  categories: number;
  topics: number;
  files: number;
  bytes: number;
  /**
   * How the output was made: `full`, a new tree written whole; `rebuild`, only the files that
   * changed written into the other generation (output/rebuild.ts); `unchanged`, nothing to do (the
   * output was built from the same content, options and generator, and is as it was written).
   */
  mode: 'full' | 'rebuild' | 'unchanged';
  /** Files written (all of them for a full build) and removed. */
  written: number;
  deleted: number;
  /**
   * Milliseconds spent in each phase on the main thread: listing, reading and parsing the files
   * (`load`, which includes rendering the entries' details), checking them against each other
   * (`validate`), rendering the rest, then waiting for the writing thread to finish and swapping in
   * the new tree (`write`: the writing itself overlaps the phases before it).
   */
  timings: { load: number; validate: number; render: number; write: number; total: number };
}

/**
 * Renders the entries' and the topics' details while the files are read, each as soon as its
 * file is parsed, into the staging tree. A detail is a function of its record, the origins and,
 * for a topic, the dates of the entries that mention it (records.ts); readContent parses every
 * entry file before the first topic file, so those dates are known by then. Rendered as if the
 * content were valid: when it is, each entry and topic of the model comes from exactly one file
 * parsed without a problem, with no other entry of its date or topic of its id, and the
 * details rendered here are exactly those renderFiles renders. At the first problem (which makes
 * the build fail anyway) it stops.
 */
class EarlyDetails {
  private readonly entries: Entry[] = [];
  private topicEntries: Map<number, IsoDate[]> | null = null;
  private topics = 0;
  private stopped = false;
  private readonly site: StagedSite | Rebuild;

  constructor(site: StagedSite | Rebuild) {
    this.site = site;
  }

  private byCategory: Map<string, TopicKind> | null = null;

  readonly onParsed = (_job: FileJob, file: ParsedFile, config: SiteConfig, categories: ParsedCategories): void => {
    if (this.stopped) return;
    if (file.parsed === null || file.problems.length > 0) {
      this.stopped = true;
      return;
    }
    const o = originsOf({ config });
    if (file.kind === 'entry') {
      const entry = entryOf(file.parsed, config);
      this.entries.push(entry);
      this.add(entryDetailFile(o, entry));
      return;
    }
    if (this.topicEntries === null) {
      const sorted = [...this.entries].sort(byDate);
      // Two entries of one date: the content is invalid, the dates of no topic are known.
      if (sorted.some((e, i) => i > 0 && sorted[i - 1]?.date === e.date)) {
        this.stopped = true;
        return;
      }
      this.topicEntries = topicEntriesOf(sorted, null);
    }
    this.topics++;
    // Kinds from the category file as read: when it is valid (else the build fails), the model's.
    this.byCategory ??= kindsByCategory(
      categories.categories.map((c) => c.category),
      config.kinds,
    );
    this.add(topicDetailFile(o, topicOf(file.parsed, this.byCategory), this.topicEntries));
  };

  /** True when every detail of the model, and no other, was rendered here. */
  covers(model: Model): boolean {
    return !this.stopped && this.entries.length === model.entries.length && this.topics === model.topics.length;
  }

  private add(file: { path: string; body: string }): void {
    this.site.add(file.path, file.body);
  }
}

export async function build(options: BuildOptions): Promise<BuildReport> {
  const progress = createProgress(options.quiet === true);
  const t0 = performance.now();
  // Before any reading: a typo in --content or a wrong --out stops here, with nothing touched.
  prepareOutput(options.contentDir, options.outDir);
  // What the build is made from: when the output was made from the same, there is nothing to do.
  let inputs = options.inputs;
  if (inputs === undefined) {
    if (options.full === true) inputs = buildFingerprint(options.contentDir, options);
    else {
      const check = checkUnchanged(options, progress.done, t0);
      if (check.report !== null) return check.report;
      inputs = check.inputs;
    }
  }
  progress.step(`reading ${options.contentDir}`);
  let site: StagedSite | Rebuild =
    (options.full === true ? null : beginRebuild(options.outDir, inputs)) ?? beginSite(options.outDir, inputs);
  try {
    const early = new EarlyDetails(site);
    const state = await readContent(options.contentDir, {
      ...options,
      onListed: (files) => progress.counted(`reading ${options.contentDir}`, files),
      onParsed: (job, file, config, categories) => {
        progress.tick();
        early.onParsed(job, file, config, categories);
      },
    });
    const t1 = performance.now();
    const validated = validate(state);
    if (!validated.ok) throw new ContentError(validated.problems, options.contentDir);
    const { model } = validated;
    const t2 = performance.now();
    progress.step(
      `rendering and writing ${model.entries.length} entries, ${model.categories.length} categories, ${model.topics.length} topics to ${options.outDir}`,
    );
    // Cannot happen (see EarlyDetails); should it, the tree is made again without their help.
    const covered = early.covers(model);
    if (!covered) {
      await site.abandon();
      site = beginSite(options.outDir, inputs);
    }
    for (const f of renderFiles(model, undefined, { withoutDetails: covered })) site.add(f.path, f.body);
    const t3 = performance.now();
    // The old tree is removed in the background; the build does not wait for it.
    const written = (await site.commit()) as Awaited<ReturnType<StagedSite['commit']>> | RebuildStats;
    const t4 = performance.now();
    const rebuilt = 'deleted' in written;
    const report: BuildReport = {
      entries: model.entries.length,
      categories: model.categories.length,
      topics: model.topics.length,
      files: written.files,
      bytes: written.bytes,
      mode: rebuilt ? 'rebuild' : 'full',
      written: rebuilt ? written.written : written.files,
      deleted: rebuilt ? written.deleted : 0,
      timings: { load: t1 - t0, validate: t2 - t1, render: t3 - t2, write: t4 - t3, total: t4 - t0 },
    };
    const counts = `(${report.entries} entries, ${report.categories} categories, ${report.topics} topics)`;
    progress.done(
      rebuilt
        ? `rebuilt ${options.outDir}: ${report.written} files written, ${report.deleted} removed, of ${report.files} ${counts}`
        : `built ${options.outDir}: ${report.files} files, ${(report.bytes / 1048576).toFixed(1)} MiB ${counts}`,
    );
    return report;
  } catch (err) {
    await site.abandon();
    throw err;
  }
}
