// One build: content directory → validated model → rendered files → atomic write. Throws
// RefusedError (output/guard.ts) for a content or output directory it will not use, ContentError
// for invalid content, and the file system's own errors (with their path) for faults of the
// machine; in every case the previous output is left as it was.

import { ContentError } from './content/problems.ts';
import { type LoadOptions, readContent, validate } from './content/load.ts';
import { createProgress } from './cli/progress.ts';
import { type OutputFile, renderFiles } from './render/render-site.ts';
import { prepareOutput, writeSiteAtomically } from './output/writer.ts';

export interface BuildOptions extends LoadOptions {
  contentDir: string;
  outDir: string;
  quiet?: boolean;
}

export interface BuildReport {
  entries: number;
  categories: number;
  topics: number;
  files: number;
  bytes: number;
  /**
   * Milliseconds spent in each phase: listing, reading and parsing the files (`load`), checking
   * them against each other (`validate`), rendering, writing and swapping in the new tree (the
   * last two interleaved, file by file, and told apart by timing each).
   */
  timings: { load: number; validate: number; render: number; write: number; total: number };
}

export async function build(options: BuildOptions): Promise<BuildReport> {
  const progress = createProgress(options.quiet === true);
  const t0 = performance.now();
  // Before any reading: a typo in --content or a wrong --out stops here, with nothing touched.
  prepareOutput(options.contentDir, options.outDir);
  progress.step(`reading ${options.contentDir}`);
  const state = await readContent(options.contentDir, options);
  const t1 = performance.now();
  const validated = validate(state);
  if (!validated.ok) throw new ContentError(validated.problems, options.contentDir);
  const { model } = validated;
  const t2 = performance.now();
  progress.step(`rendering and writing ${model.entries.length} entries, ${model.categories.length} categories, ${model.topics.length} topics to ${options.outDir}`);
  // Each file is written as soon as it is rendered: the site is never all in memory at once.
  let renderMs = 0;
  function* timed(files: Iterator<OutputFile>): Generator<OutputFile> {
    for (;;) {
      const t = performance.now();
      const next = files.next();
      renderMs += performance.now() - t;
      if (next.done === true) return;
      yield next.value;
    }
  }
  // The old tree is removed in the background; the build does not wait for it.
  const written = writeSiteAtomically(options.outDir, timed(renderFiles(model)));
  const t4 = performance.now();
  const t3 = t2 + renderMs;
  const report: BuildReport = {
    entries: model.entries.length,
    categories: model.categories.length,
    topics: model.topics.length,
    files: written.files,
    bytes: written.bytes,
    timings: { load: t1 - t0, validate: t2 - t1, render: t3 - t2, write: t4 - t3, total: t4 - t0 },
  };
  progress.done(
    `built ${options.outDir}: ${report.files} files, ${(report.bytes / 1048576).toFixed(1)} MiB ` +
      `(${report.entries} entries, ${report.categories} categories, ${report.topics} topics)`,
  );
  return report;
}
