// Whether a build has nothing to do: the output was built from the same content, options and
// generator (content/fingerprint.ts) and is still as it was written (output/rebuild.ts). Kept
// apart from build.ts, whose modules (parsing, rendering) take longer to load than this check
// takes to run: `npm run build` asks here first, and loads the build only when there is work.

import { join } from 'node:path';
import type { BuildOptions, BuildReport } from './build-types.ts';
import type { ContentRead } from './content/discover.ts';
import { buildFingerprint } from './content/fingerprint.ts';
import { readRegular } from './content/read-regular.mjs';
import { SITE_INDEX_FILE } from './core/files.ts';
import { type SiteIndexFile, topicCount } from './core/site-index.ts';
import type { Manifest } from './output/manifest.ts';
import { currentOutput } from './output/rebuild.ts';

/** The report of a build with nothing to do: the output's own manifest gives its figures. */
function unchangedReport(
  current: Manifest,
  options: BuildOptions,
  t0: number,
  done: (line: string) => void,
): BuildReport | null {
  // The records' counts, from the site index of the output (which the manifest has just vouched
  // for, by its size and times: read no further than that size, and only a regular file).
  const listed = current.files.get(SITE_INDEX_FILE);
  const read = readRegular(join(options.outDir, SITE_INDEX_FILE), listed?.size ?? 0);
  let index: SiteIndexFile;
  try {
    if (read.bytes === null) return null;
    index = JSON.parse(read.bytes.toString('utf8')) as SiteIndexFile;
  } catch {
    // Not what the build wrote, after all: there is work.
    return null;
  }
  let bytes = 0;
  for (const f of current.files.values()) bytes += f.size;
  const total = performance.now() - t0;
  const report: BuildReport = {
    entries: index.entries.length,
    categories: index.categories.length,
    topics: topicCount(index),
    files: current.files.size,
    bytes,
    mode: 'unchanged',
    written: 0,
    deleted: 0,
    timings: { load: total, validate: 0, render: 0, write: 0, total },
  };
  done(
    `${options.outDir} is up to date with ${options.contentDir}: nothing written ` +
      `(${report.entries} entries, ${report.categories} categories, ${report.topics} topics)`,
  );
  return report;
}

/**
 * The report of a build with nothing to do when the output of the build `options` describe is
 * current (made from the same content, options and generator, and as it was written); null when
 * there is work. The content is fingerprinted only when the output records a fingerprint to
 * compare with (an empty directory, a first build: not); the build records its own, of the files
 * as it reads them (load.ts). Given `keep`, what it read of the content is put there: when there is
 * work, the build parses them (BuildOptions.contentRead) instead of reading them again.
 */
export function checkUnchanged(
  options: BuildOptions,
  done: (line: string) => void,
  t0 = performance.now(),
  keep?: ContentRead,
): BuildReport | null {
  const current = currentOutput(options.outDir, () => buildFingerprint(options.contentDir, options, keep));
  return current === null ? null : unchangedReport(current, options, t0, done);
}
