// A build that stays in memory (the watch mode): after some content files change, it re-reads
// only those, validates the whole model again (cheap: no parsing), renders again with a memo
// (only records whose inputs changed are rendered), and writes only the files whose bytes
// changed, into the inactive generation, which then goes live with one rename (generations.ts).
//
// The commonest edits take a shorter way (fast-path.ts, render/patch.ts). Each generation's
// content is known in memory, and the tree that was live is brought up to date after a grace
// period (twin-trees.ts). The downloads are made again after a burst of edits, on other threads.
// Once they are live, the session records what a build records beside the live tree (its
// manifest, sources and basis: render-inputs.ts, render/basis.ts), so that `npm run build` after
// the session trusts it as it trusts a build's; never before, so no edit's answers wait for it.
//
// A rebuild never throws: invalid content is reported (the live site stays as it was), and so is
// a fault of the machine (disk full, permission denied), after which the next rebuild tries again
// from what is really on disk: the in-memory trees are updated file by file, only after each
// file was written.

import type { LoadOptions } from '../content/fingerprint.ts';
import { type ContentState, readContent, validate } from '../content/load.ts';
import { ContentError, type Problem, sortProblems } from '../content/problems.ts';
import { updateContent } from '../content/update.ts';
import { DOWNLOADS_WITH_LIST } from '../core/files.ts';
import type { OutputFile } from '../output/file.ts';
import { activeSlot, otherSlot, type Slot } from '../output/generations.ts';
import { prepareOutput } from '../output/writer.ts';
import { holdDatabaseThread } from '../render/database-thread.ts';
import { type Downloads, downloadFilesInThread, sqlOnThisThread } from '../render/downloads.ts';
import { patchSite, type RecordEdits, type RenderedSite } from '../render/patch.ts';
import { RenderMemo } from '../render/render-memo.ts';
import { type Fragments, renderSite } from '../render/render-site.ts';
import type { SiteSearchIndex } from '../render/search-index.ts';
import { describeFault } from './describe-fault.ts';
import { DownloadsRemake } from './downloads-remake.ts';
import { basisOf, CategoryKinds, fastEdits, problemsKey, type RenderBasis, warmFastPath } from './fast-path.ts';
import { type Generation, outputBefore } from './first-trees.ts';
import { LiveRecord } from './live-record.ts';
import { applyFiles, applySome, type FileAhead, ofOutput, TwinTrees } from './twin-trees.ts';

export interface SessionOptions extends LoadOptions {
  contentDir: string;
  outDir: string;
  /** Faults met outside a rebuild (bringing the other tree up to date); default: stderr. */
  onWarning?: (line: string) => void;
  /** Take the fast path for the edits it covers (default: true; tests compare it with the general one). */
  fastPath?: boolean;
  /**
   * How long after a rebuild the downloads are made again (default DOWNLOADS_DELAY_MS): they hold
   * every record, and take seconds on the whole diary, so a burst of edits makes them once, after it.
   * Negative: at once, within each rebuild (the tests that compare every rebuild with a cold build).
   */
  downloadsDelayMs?: number;
  /**
   * Called whenever the other tree has just been made live (an edit's rebuild, new downloads): a
   * server in this process then answers from it at once (server.ts outputReplaced).
   */
  onLive?: () => void;
}

/**
 * See SessionOptions.downloadsDelayMs. None: the edits of one save come within the watcher's
 * debounce, and the next edit stops downloads being made for a step's time, keeping their thread
 * (render/database-thread.ts), so waiting for a burst to end would only delay them (issue 34: the
 * downloads current within 2 s). Their work is paced between the server's answers and rebuilds.
 */
const DOWNLOADS_DELAY_MS = 0;

export interface RebuildOptions {
  /** List every file and compare it with what was read, whatever the paths (see content/update.ts). */
  rescan?: boolean;
  /** Validate and render even if nothing read has changed. */
  force?: boolean;
}

export interface RebuildReport {
  ok: boolean;
  /** Every content problem, when not ok (the live site is then left as it was), sorted. */
  problems: Problem[];
  /** True when `problems` are exactly those of the previous rebuild (nothing new to say). */
  sameProblems: boolean;
  /**
   * A fault of the machine or a bug that stopped the rebuild (one line, naming the path): the
   * live site is left as it was, and the next rebuild tries again.
   */
  error: string | null;
  /** True when nothing read differed from before: nothing was validated, rendered or written. */
  skipped: boolean;
  /** True when the fast path (render/patch.ts) made this rebuild. */
  fast?: boolean;
  /** Files in the new generation. */
  files: number;
  /** Files whose bytes differ from the generation that was live: written (or removed). */
  changed: string[];
  /** Files written to bring the other tree up to date first (the previous rebuild's changes). */
  caughtUp: number;
  /** Milliseconds: re-reading and parsing, validating, rendering, writing and swapping. */
  timings: { load: number; validate: number; render: number; write: number; total: number };
}

export class BuildSession {
  private state: ContentState;
  private memo: RenderMemo;
  private readonly twins: TwinTrees;
  /** What the downloads are made of, record by record, kept between them (render/downloads.ts). */
  private readonly downloadsMemo: RenderMemo;
  /** The downloads' remake after rebuilds (downloads-remake.ts). */
  private readonly downloads = new DownloadsRemake({
    model: () => this.basis?.site.model,
    memo: () => this.downloadsMemo,
    delayMs: () => this.options.downloadsDelayMs ?? DOWNLOADS_DELAY_MS,
    rebuilding: () => this.rebuilding !== 0,
    writeAhead: (downloads, wanted) => this.twins.writeAhead(downloads.files, wanted),
    discardAhead: (ahead) => this.twins.discardAhead(ahead),
    putLive: (downloads, ahead) => this.putDownloadsLive(downloads, ahead),
    warn: (line) => this.warn(line),
  });
  /** Rebuilds under way: made downloads wait for them to end before they go live. */
  private rebuilding = 0;
  /** The output may not show the content as last read (a rebuild failed): render even if nothing changed. */
  private needsRender = false;
  private lastProblems: string | null = null;
  /** What the last valid render was made from (null after a failed render: no fast path then). */
  private basis: RenderBasis | null = null;
  /** The kinds the categories give topics, for the fast path's topics. */
  private readonly kinds = new CategoryKinds();
  /** The live tree's manifest, sources and basis, written once the session settles (live-record.ts). */
  private readonly records: LiveRecord;

  private readonly options: SessionOptions;

  private constructor(
    options: SessionOptions,
    state: ContentState,
    memos: { render: RenderMemo; downloads: RenderMemo },
    twins: TwinTrees,
  ) {
    this.options = options;
    this.state = state;
    this.memo = memos.render;
    this.downloadsMemo = memos.downloads;
    this.twins = twins;
    this.records = new LiveRecord({
      contentDir: options.contentDir,
      options,
      basis: () => this.basis,
      rebuilding: () => this.rebuilding !== 0,
      downloadsIdle: () => this.downloads.idle,
      downloadsSettled: () => this.downloads.settled(),
      recordDir: () => this.twins.aheadDir('record'),
      hashAhead: (go) => this.twins.hashAhead(go),
      write: (inputs, sources, basis) => this.twins.record(inputs, sources, basis),
      warn: (line) => this.warn(line),
    });
  }

  /**
   * Reads and validates everything, writes both generations in full and points the output at
   * one. Throws ContentError (leaving the output as it was) if the content is invalid, and the
   * file system's error if the trees cannot be written.
   */
  static async open(options: SessionOptions): Promise<BuildSession> {
    // The database's thread is held from the first downloads on (the session's own hold, in
    // downloads-remake.ts, begins once the session exists): writing the trees in between may take
    // longer than an idle thread is kept.
    const release = holdDatabaseThread();
    try {
      return await BuildSession.start(options);
    } finally {
      release();
    }
  }

  private static async start(options: SessionOptions): Promise<BuildSession> {
    // Before anything is read or written: the output must be this build's to replace.
    prepareOutput(options.contentDir, options.outDir);
    // A test's sessions make the downloads on this thread too (DownloadsRemake.makeNow).
    const [state] = await Promise.all([readContent(options.contentDir, options), sqlOnThisThread()]);
    const v = validate(state);
    if (!v.ok) throw new ContentError(v.problems, options.contentDir);
    const memo = new RenderMemo();
    let fragments: Fragments | null = null;
    let search: SiteSearchIndex | undefined;
    // The first downloads are made on the database's thread, as every edit's are: the session
    // holds that thread (downloads-remake.ts), and the first edit's then finds it warm.
    const downloadsMemo = new RenderMemo();
    const stopDownloads = new AbortController();
    const downloads = downloadFilesInThread(v.model, { memo: downloadsMemo, signal: stopDownloads.signal });
    downloads.catch(() => {});
    const files = renderSite(v.model, memo, {
      fragments: (f) => (fragments = f),
      searchIndex: (i) => (search = i),
      withoutDownloads: true,
    });
    memo.sweep();
    const { outDir } = options;
    // The slot not live now is made first and goes live; the other is then made of links to it.
    const warn = options.onWarning ?? ((l: string) => process.stderr.write(`${l}\n`));
    // What the output held before (first-trees.ts): the first tree takes its files where the
    // bytes are the same, and serves its downloads until the session's own are made. Without them,
    // the downloads after the rest, as a rebuild adds them (the manifest lists the files by path,
    // whatever their order): the rest is written while they are made.
    const before = outputBefore(outDir);
    const later =
      before.downloads === null
        ? downloads.then((made) => [...made.files, made.list])
        : Promise.resolve(before.downloads);
    const twins = await TwinTrees.write(outDir, otherSlot(activeSlot(outDir)), files, warn, before.tree, later);
    const session = new BuildSession(options, state, { render: memo, downloads: downloadsMemo }, twins);
    if (fragments !== null) session.keepBasis({ model: v.model, fragments, search });
    // A rebuild with nothing changed warms up the code of rebuilds (memo hits, diffing), and a
    // patch of an edit whose result is dropped the fast path's (warmFastPath), so that the first
    // edit is as fast as the ones after it.
    await session.rebuild([], { force: true });
    // That rebuild kept the downloads live: current, or the output's until these are made (below).
    session.downloads.cancelTimer();
    warmFastPath(session.basis);
    // The output's downloads live until these are made (and no record of the tree until then).
    const model = session.basis?.site.model;
    if (before.downloads !== null && model !== undefined) session.downloads.follow(model, downloads, stopDownloads);
    session.records.soon();
    return session;
  }

  /** The generation that is live. */
  get liveSlot(): Slot {
    return this.twins.liveSlot;
  }

  /**
   * Rebuilds after the content files at these paths (relative to the content dir) changed; with
   * `rescan`, after comparing every file with what was read. Never throws.
   */
  async rebuild(changedPaths: Iterable<string>, options: RebuildOptions = {}): Promise<RebuildReport> {
    this.rebuilding++;
    try {
      return await this.rebuildNow(changedPaths, options);
    } finally {
      this.rebuilding--;
      // Downloads made meanwhile go live now, if the content is still what they were made of.
      if (this.rebuilding === 0) this.downloads.afterRebuilds();
      this.records.soon();
    }
  }

  private async rebuildNow(changedPaths: Iterable<string>, options: RebuildOptions): Promise<RebuildReport> {
    const t0 = performance.now();
    let caughtUp = 0;
    const mustRender = this.needsRender || options.force === true;
    // Until this rebuild has finished, the output may lag behind what was read.
    this.needsRender = true;
    try {
      caughtUp = this.twins.finishCatchUp();
      const update = await updateContent(this.state, changedPaths, this.options, options.rescan === true);
      this.state = update.state;
      if (update.changed || mustRender) this.records.moved();
      const t1 = performance.now();
      if (!update.changed && !mustRender) {
        this.needsRender = false;
        const timings = { load: t1 - t0, validate: 0, render: 0, write: 0, total: t1 - t0 };
        const problems = this.lastProblems !== null;
        return {
          ok: !problems,
          problems: [],
          sameProblems: problems,
          error: null,
          skipped: true,
          files: this.twins.liveTree.size,
          changed: [],
          caughtUp,
          timings,
        };
      }
      // However the changes were found (an event or a rescan): fastEdits compares all the content
      // read with what the last render was made of.
      const edits =
        mustRender || this.options.fastPath === false ? null : fastEdits(this.basis, this.state, this.kinds);
      if (edits !== null) return this.patch(edits, caughtUp, t0, t1);
      const v = validate(this.state);
      const t2 = performance.now();
      if (!v.ok) {
        this.needsRender = false;
        const problems = sortProblems(v.problems);
        const key = problemsKey(problems);
        const sameProblems = key === this.lastProblems;
        this.lastProblems = key;
        const timings = { load: t1 - t0, validate: t2 - t1, render: 0, write: 0, total: t2 - t0 };
        return {
          ok: false,
          problems,
          sameProblems,
          error: null,
          skipped: false,
          files: this.twins.liveTree.size,
          changed: [],
          caughtUp,
          timings,
        };
      }
      this.lastProblems = null;
      let files: OutputFile[];
      let fragments: Fragments | null = null;
      let search: SiteSearchIndex | undefined;
      const last = this.basis?.site;
      this.basis = null;
      try {
        files = renderSite(v.model, this.memo, {
          fragments: (f) => (fragments = f),
          searchIndex: (i) => (search = i),
          searchBasis: last?.search === undefined ? undefined : { model: last.model, index: last.search },
          withoutDownloads: true,
        });
        this.memo.sweep();
        // The downloads stay as they are until they are made again (DownloadsRemake.schedule).
        for (const path of DOWNLOADS_WITH_LIST) {
          const body = this.twins.liveTree.get(path);
          if (body !== undefined) files.push({ path, body });
        }
      } catch (err) {
        // Whatever the memo holds after a failed render is not trusted again.
        this.memo = new RenderMemo();
        throw err;
      }
      if (fragments !== null) this.keepBasis({ model: v.model, fragments, search });
      const t3 = performance.now();
      const changed = this.goLive((gen) => applyFiles(gen, ofOutput(files)));
      changed.push(...this.downloads.schedule());
      const t4 = performance.now();
      return {
        ok: true,
        problems: [],
        sameProblems: false,
        error: null,
        skipped: false,
        files: files.length,
        changed,
        caughtUp,
        timings: { load: t1 - t0, validate: t2 - t1, render: t3 - t2, write: t4 - t3, total: t4 - t0 },
      };
    } catch (err) {
      const total = performance.now() - t0;
      return {
        ok: false,
        problems: [],
        sameProblems: false,
        error: describeFault(err),
        skipped: false,
        files: this.twins.liveTree.size,
        changed: [],
        caughtUp,
        timings: { load: 0, validate: 0, render: 0, write: 0, total },
      };
    }
  }

  /** Remembers what a valid render was made from: the content as the state holds it now. */
  private keepBasis(site: RenderedSite): void {
    this.basis = basisOf(this.state, site);
  }

  /** The fast path's rebuild (see fastEdits): patch, write what differs, swap. */
  private patch(edits: RecordEdits, caughtUp: number, t0: number, t1: number): RebuildReport {
    const b = this.basis as RenderBasis;
    const t2 = performance.now();
    // The live tree holds the bytes of the basis's files: the search's shards are changed from them.
    const live = this.twins.liveTree;
    const { site, files } = patchSite(b.site, edits, b.topicAt, (path) => live.get(path));
    b.site = site;
    this.state.parsed.forEach((p, file) => {
      if (b.parsed.get(file) !== p) b.parsed.set(file, p);
    });
    this.lastProblems = null;
    const t3 = performance.now();
    const changed = this.goLive((gen) => applySome(gen, files));
    changed.push(...this.downloads.schedule());
    const t4 = performance.now();
    return {
      ok: true,
      problems: [],
      sameProblems: false,
      error: null,
      skipped: false,
      fast: true,
      files: this.twins.liveTree.size,
      changed,
      caughtUp,
      timings: { load: t1 - t0, validate: t2 - t1, render: t3 - t2, write: t4 - t3, total: t4 - t0 },
    };
  }

  /** Brings the other tree up to date now instead of after the grace period. */
  settle(): number {
    return this.twins.finishCatchUp();
  }

  /** Stops the pending timers (the trees stay as they are) and any recording under way. */
  close(): void {
    this.records.close();
    this.twins.close();
    this.downloads.close();
  }

  /**
   * Records the live tree's manifest, sources and basis now if the downloads live are current and
   * they are not recorded yet (live-record.ts), and waits for any record under way. Resolves to
   * whether they are those of the content as last rendered.
   */
  record(): Promise<boolean> {
    return this.records.now();
  }

  /**
   * Makes the pending downloads now, on this thread, rather than when their timer fires (or
   * instead of those being made on other threads); returns the paths changed.
   */
  makeDownloadsNow(): string[] {
    return this.downloads.makeNow();
  }

  /** Resolves once the downloads are made for the latest valid content (at once if they are). */
  downloadsSettled(): Promise<void> {
    return this.downloads.settled();
  }

  /** Puts the downloads live like a rebuild's files: the files first, their list after them. */
  private putDownloadsLive(downloads: Downloads, ahead: ReadonlyMap<string, FileAhead>): string[] {
    try {
      this.twins.finishCatchUp();
      return this.goLive((gen) => applySome(gen, [...downloads.files, downloads.list], ahead));
    } catch (err) {
      this.warn(`making the downloads failed: ${describeFault(err)}`);
      return [];
    }
  }

  private warn(line: string): void {
    (this.options.onWarning ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }

  /** Writes what differs into the inactive tree and makes it live if need be (TwinTrees.goLive). */
  private goLive(apply: (gen: Generation) => string[]): string[] {
    const slot = this.twins.liveSlot;
    const changed = this.twins.goLive(apply);
    // Another live tree: a recording under way was of the one before.
    if (changed.length > 0 || this.twins.liveSlot !== slot) this.records.moved();
    this.needsRender = false;
    if (this.twins.liveSlot !== slot) this.options.onLive?.();
    return changed;
  }
}
