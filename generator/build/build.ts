// One build: content directory → validated model → rendered files → atomic write.

import { loadContent, type LoadOptions } from '../content/load.ts';
import { createProgress } from './progress.ts';
import { renderSite } from './render-site.ts';
import { writeSiteAtomically } from './writer.ts';

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
  /** Milliseconds spent in each phase. */
  timings: { load: number; render: number; write: number; total: number };
}

export async function build(options: BuildOptions): Promise<BuildReport> {
  const progress = createProgress(options.quiet === true);
  const t0 = performance.now();
  progress.step(`reading ${options.contentDir}`);
  const { model } = await loadContent(options.contentDir, options);
  const t1 = performance.now();
  progress.step(`rendering ${model.entries.length} entries, ${model.categories.length} categories, ${model.topics.length} topics`);
  const files = renderSite(model);
  const t2 = performance.now();
  progress.step(`writing ${files.length} files to ${options.outDir}`);
  const written = await writeSiteAtomically(options.outDir, files);
  await written.removed;
  const t3 = performance.now();
  const report: BuildReport = {
    entries: model.entries.length,
    categories: model.categories.length,
    topics: model.topics.length,
    files: written.files,
    bytes: written.bytes,
    timings: { load: t1 - t0, render: t2 - t1, write: t3 - t2, total: t3 - t0 },
  };
  progress.done(
    `built ${options.outDir}: ${report.files} files, ${(report.bytes / 1048576).toFixed(1)} MiB ` +
      `(${report.entries} entries, ${report.categories} categories, ${report.topics} topics)`,
  );
  return report;
}
