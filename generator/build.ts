// One build: content directory → validated model → rendered files → atomic write. Throws
// RefusedError (output/guard.ts) for a content or output directory it will not use, ContentError
// for invalid content, and the file system's own errors (with their path) for faults of the
// machine; in every case the previous output is left as it was.
//
// The files are created by a thread of their own (output/writer.ts beginSite) while this one
// renders: creating one overlaps rendering the next. Should the content prove invalid, nothing is
// rendered, and the staging tree is discarded whole: none of it was ever the output.

import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type BuildOptions, type BuildReport, SILENT_PROGRESS } from './build-types.ts';
import { emptyContentRead } from './content/discover.ts';
import { readContent, validate } from './content/load.ts';
import { ContentError, printable } from './content/problems.ts';
import { DOWNLOADS_WITH_LIST } from './core/files.ts';
import type { OutputFile } from './output/file.ts';
import { beginRebuild, type Rebuild, type RebuildStats } from './output/rebuild.ts';
import { beginSite, prepareOutput, type StagedSite } from './output/writer.ts';
import { basisPieces, parseBasis, patchBasisSteps, type SavedBasis, searchBasisOf } from './render/basis.ts';
import { type Downloads, downloadFilesInThread, lastDownloads } from './render/downloads.ts';
import { patchSite } from './render/patch.ts';
import { renderFiles } from './render/render-site.ts';
import { type SiteSearchIndex, searchIndexFilesInSteps } from './render/search-index.ts';
import { tablesLeft } from './render/tables-left.ts';
import { checkUnchanged } from './unchanged.ts';

/** Milliseconds of rendering between two turns of the event loop. */
const RENDER_SLICE_MS = 5;

// The build's options, report and progress reporter are in build-types.ts, which unchanged.ts
// imports too (without this module); re-exported for the build's callers.
export type { BuildOptions, BuildProgress, BuildReport } from './build-types.ts';

/**
 * Adds the downloads' files to the site once made, their list after them. Awaited here, not in
 * build(): its frame would keep them (a register) until it returns.
 */
async function addDownloads(site: StagedSite | Rebuild, made: Promise<Downloads>): Promise<void> {
  const { files, list } = await made;
  // Each with the hash its list gives (20 MB of database not hashed a second time).
  for (const f of files) site.add(f.path, f.body, f.sha256);
  site.add(list.path, list.body);
}

export async function build(options: BuildOptions): Promise<BuildReport> {
  // Given no reporter, the build says nothing of its steps (its warnings still follow `quiet`).
  const progress = options.progress ?? SILENT_PROGRESS;
  const t0 = performance.now();
  // Before any reading: a typo in --content or a wrong --out stops here, with nothing touched.
  prepareOutput(options.contentDir, options.outDir);
  // When the output was made from the same content, options and generator, there is nothing to do.
  let contentRead = options.contentRead;
  if (options.full !== true && options.checked !== true) {
    contentRead = emptyContentRead();
    const unchanged = checkUnchanged(options, progress.done, t0, contentRead);
    if (unchanged !== null) return unchanged;
  }
  progress.step(`reading ${options.contentDir}`);
  // What the output is made of is recorded at the commit: the fingerprint of the files as they
  // are read below, not as they were when checked (a file may change in between).
  // A line of its own, never rewritten by the progress (on a terminal, after clearing its line).
  const warn = (line: string): void => {
    if (options.quiet === true) return;
    process.stderr.write(`${process.stderr.isTTY === true ? '\r\x1b[K' : ''}warning: ${printable(line)}\n`);
  };
  const rebuild: Rebuild | null = options.full === true ? null : beginRebuild(options.outDir, warn);
  const site: StagedSite | Rebuild = rebuild ?? beginSite(options.outDir);
  const stopDownloads = new AbortController();
  let downloads: Promise<Downloads> | undefined;
  try {
    const state = await readContent(options.contentDir, {
      ...options,
      fingerprint: true,
      read: contentRead,
      onListed: (files) => progress.counted(`reading ${options.contentDir}`, files),
      onParsed: () => progress.tick(),
    });
    const t1 = performance.now();
    const validated = validate(state);
    if (!validated.ok) throw new ContentError(validated.problems, options.contentDir);
    const { model } = validated;
    const t2 = performance.now();
    progress.step(
      `rendering and writing ${model.entries.length} entries, ${model.categories.length} categories, ${model.topics.length} topics to ${options.outDir}`,
    );
    // The rendering lets the event loop run every few milliseconds, so that the database's thread
    // is sent its next rows as it asks for them, not all of them once everything else is rendered.
    // The search index too, a document at a time: made in one go (≈0.6 s on the whole diary), it
    // left that thread without rows, and the build then waited for it at the end.
    let turn = performance.now();
    /** Adds the files of `steps` to the site, letting the event loop turn every few ms; its result. */
    const addSteps = async <R>(steps: Iterator<OutputFile | undefined, R>): Promise<R> => {
      for (;;) {
        const step = steps.next();
        if (step.done === true) return step.value;
        if (step.value !== undefined) site.add(step.value.path, step.value.body);
        if (performance.now() - turn < RENDER_SLICE_MS) continue;
        await nextTurn();
        turn = performance.now();
      }
    };
    // What the last build saved of itself (render/basis.ts), when its tree holds: a rebuild starts
    // from it instead of from nothing.
    const records = rebuild?.liveRecords() ?? { sources: null, basis: null };
    const saved: SavedBasis | null = records.basis === null ? null : parseBasis(records.basis);
    records.basis = null;
    const everything = function* () {
      yield* renderFiles(model, undefined, { withoutDownloads: true, withoutSearchIndex: true });
      // The search index changed from the last build's where the records' text changed.
      return yield* searchIndexFilesInSteps(model, saved === null ? null : searchBasisOf(saved));
    };
    // A rebuild whose edits the watch mode's fast path takes renders only the files they change
    // (render/patch.ts, from the last build's basis); every other file is kept.
    const last = saved === null ? null : await addSteps(patchBasisSteps(state, model, records.sources, saved));
    // The downloads (a SQLite database, gzip'ed NDJSON: about half of the rendering's work) are
    // made on other threads while this one renders the rest. The fast path's edits reach known
    // tables: the others are the last build's (tables-left.ts).
    const kept = last === null || saved === null ? null : tablesLeft(last.edits, (p) => saved.entry(p));
    downloads = downloadFilesInThread(model, {
      signal: stopDownloads.signal,
      last: kept === null ? undefined : lastDownloads(kept, (file) => rebuild?.readLive(file) ?? null),
    });
    downloads.catch(() => {});
    // The files as parsed are the watch mode's, to parse one again and validate; a build is done
    // with them once its model is made and its basis patched (at thirty times the topics, ≈90 MB
    // of wrappers, problems and signatures held through the rendering).
    state.parsed.clear();
    let entriesIndex: BuildReport['entriesIndex'] = 'changed';
    let search: SiteSearchIndex;
    if (last !== null) {
      const patched = patchSite(last.site, last.edits);
      await addSteps(patched.files.values());
      search = patched.site.search as SiteSearchIndex;
    } else ({ index: search, entriesIndex } = await addSteps(everything()));
    // Every other file of a patched rebuild is kept, each checked first (rebuild.ts keepLive): one
    // the live tree no longer holds as written (damaged in place) is rendered again, with the rest.
    // Checked while the database's thread still works: this thread waits for it otherwise.
    let patched = last !== null;
    const damaged = rebuild !== null && patched ? await addSteps(rebuild.keepLive(DOWNLOADS_WITH_LIST)) : null;
    if (damaged !== null) {
      warn(`${join(options.outDir, damaged)} is not as the last build wrote it: rendering everything`);
      patched = false;
      ({ index: search, entriesIndex } = await addSteps(everything()));
    }
    // The files first, their list (sizes and hashes) after them, as renderFiles gives them; let
    // go of once written (the database is 20 MB on the whole diary, 100 MB at thirty times the
    // topics: held until the build returned, through the writing of the basis).
    await addDownloads(site, downloads);
    downloads = undefined;
    // A patched rebuild's basis is the last one with the edited records' lines replaced.
    const basis = basisPieces(
      model,
      search,
      patched && saved !== null && last !== null ? { saved, edits: last.edits } : undefined,
    );
    const t3 = performance.now();
    // The old tree is removed in the background; the build does not wait for it.
    const rebuilt: RebuildStats | null =
      rebuild === null ? null : await rebuild.commit(state.fingerprint, state.sources, basis);
    const written = rebuilt ?? (await (site as StagedSite).commit(state.fingerprint, state.sources, basis));
    const t4 = performance.now();
    const report: BuildReport = {
      entries: model.entries.length,
      categories: model.categories.length,
      topics: model.topics.length,
      files: written.files,
      bytes: written.bytes,
      mode: rebuilt !== null ? 'rebuild' : 'full',
      entriesIndex,
      patched,
      written: rebuilt?.written ?? written.files,
      deleted: rebuilt?.deleted ?? 0,
      timings: { load: t1 - t0, validate: t2 - t1, render: t3 - t2, write: t4 - t3, total: t4 - t0 },
    };
    const counts = `(${report.entries} entries, ${report.categories} categories, ${report.topics} topics)`;
    progress.done(
      rebuilt !== null
        ? `rebuilt ${options.outDir}: ${report.written} files written, ${report.deleted} removed, of ${report.files} ${counts}`
        : `built ${options.outDir}: ${report.files} files, ${(report.bytes / 1048576).toFixed(1)} MiB ${counts}`,
    );
    return report;
  } catch (err) {
    stopDownloads.abort(err);
    await downloads?.catch(() => {});
    await site.abandon();
    throw err;
  }
}
