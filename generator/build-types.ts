// What a build is given and what it gives back: its options, its report and the progress reporter
// it tells its steps to. A module of its own so that unchanged.ts (which answers for a build with
// nothing to do) and the CLI's reporter name them without importing build.ts.

import type { ContentRead } from './content/discover.ts';
import type { LoadOptions } from './content/fingerprint.ts';

export interface BuildOptions extends LoadOptions {
  contentDir: string;
  outDir: string;
  quiet?: boolean;
  /**
   * A caller has already asked whether there is anything to do (unchanged.ts checkUnchanged, as
   * `npm run build` does): the build then does not ask again.
   */
  checked?: boolean;
  /** What that check read of the content (checkUnchanged's `keep`): used, not read again. */
  contentRead?: ContentRead;
  /** Write a whole new tree, trusting nothing of the previous output (no rebuild, no skip). */
  full?: boolean;
  /**
   * Told each step (reading, rendering, done): the CLI's cli/progress.ts prints them. Without it,
   * the build says nothing of its steps.
   */
  progress?: BuildProgress;
}

/** What the build tells of its progress: implemented by the CLI (cli/progress.ts). */
export interface BuildProgress {
  step(message: string): void;
  /** A step with a known number of units: a bar on a terminal, one line elsewhere. */
  counted(message: string, total: number): void;
  /** One more unit of the counted step done. */
  tick(): void;
  done(message: string): void;
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
  /**
   * How the entries' search index was made, when the site was rendered: whole, or the last
   * build's changed where the entries' text changed (a rebuild, from the last build's saved
   * basis: render/basis.ts).
   */
  entriesIndex?: 'made' | 'changed';
  /**
   * True when only the files that the changed content files change were rendered, the others
   * kept from the live tree (a rebuild of the watch mode's fast-path edits: render/basis.ts).
   */
  patched?: boolean;
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

/** No progress: what build() tells when given no reporter, and the CLI's when --quiet. */
export const SILENT_PROGRESS: BuildProgress = { step: () => {}, counted: () => {}, tick: () => {}, done: () => {} };
