// A build that stays in memory (the watch mode): after some content files change, it re-reads
// only those, validates the whole model again (cheap: no parsing), renders again with a memo
// (only records whose inputs changed are rendered), and writes only the files whose bytes
// changed, into the inactive generation, which then goes live with one rename (generations.ts).
//
// The commonest edits take a shorter way (fastEdits, render/patch.ts): when the files that differ
// from the last valid render are only entries that keep their date and mention topics that exist,
// and topics that keep their id and categories, each parsed without a problem, nothing another
// file says can have changed; the model is patched and only the files that depend on those
// records are rendered. The whole site is neither validated nor rendered again.
//
// Each generation's content is known here (path → body), so that "changed" is decided in memory,
// without reading the disk. After a swap, the tree that was live is brought up to date too, but
// only after a grace period (readers that resolved it just before the swap finish undisturbed)
// or at the start of the next rebuild, whichever comes first.
//
// A rebuild never throws: invalid content is reported (the live site stays as it was), and so is
// a fault of the machine (disk full, permission denied), after which the next rebuild tries again
// from what is really on disk: the in-memory trees are updated file by file, only after each
// file was written.

import { mkdirSync, renameSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { entryOf, topicOf } from '../content/build-model.ts';
import { kindsByCategory } from '../content/derive.ts';
import { type ContentState, type LoadOptions, readContent, validate } from '../content/load.ts';
import type { ParsedFile } from '../content/parse-file.ts';
import { ContentError, formatProblem, type Problem, sortProblems } from '../content/problems.ts';
import { describeError } from '../content/read-file.ts';
import { updateContent } from '../content/update.ts';
import { DOWNLOAD_FILES, DOWNLOADS_FILE, SITE_INDEX_FILE } from '../core/files.ts';
import type { TopicKind } from '../core/types.ts';
import { activeSlot, otherSlot, pointAt, type Slot, slotDir } from '../output/generations.ts';
import { replaceFile } from '../output/replace-file.ts';
import { discard } from '../output/trash.ts';
import { prepareOutput, writeFiles } from '../output/writer.ts';
import { type Downloads, downloadFiles, downloadFilesInThread } from '../render/downloads.ts';
import { patchSite, type RecordEdits, type RenderedSite } from '../render/patch.ts';
import { RenderMemo } from '../render/render-memo.ts';
import { type Fragments, type OutputFile, renderSite, sameBody } from '../render/render-site.ts';
import type { SiteSearchIndex } from '../render/search-index.ts';

/** How long a tree that just went out of service is left alone before it is updated in place. */
const GRACE_MS = 1000;

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
}

/** See SessionOptions.downloadsDelayMs. */
const DOWNLOADS_DELAY_MS = 1000;

/** The downloads' paths in the output: their files and their list. */
const DOWNLOADS = [...DOWNLOAD_FILES, DOWNLOADS_FILE];

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

type Tree = Map<string, OutputFile['body']>;

/** One line for a fault: the path and the cause for the file system's errors, else the message. */
export function describeFault(err: unknown): string {
  const e = err as NodeJS.ErrnoException | null;
  if (e !== null && typeof e === 'object' && typeof e.code === 'string') {
    // A rename names the place it writes to as `dest`: that is the file the user knows.
    const where = (e as { dest?: string }).dest ?? e.path;
    return `${where !== undefined ? `${where}: ` : ''}${describeError(err)}`;
  }
  return ((err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '').trim() || 'unknown error';
}

function problemsKey(problems: readonly Problem[]): string {
  return problems.map((p) => formatProblem(p, '')).join('\n');
}

/**
 * What the last valid render was made from: the parsed files, and the facts that come from
 * elsewhere (site.yaml, categories.yaml, the listing), each as the state held them.
 */
interface RenderBasis {
  site: RenderedSite;
  parsed: Map<string, ParsedFile>;
  config: ContentState['config'];
  siteProblems: ContentState['siteProblems'];
  categories: ContentState['categories'];
  listProblems: string;
  /** Positions of the entries by date and of the topics by id, in the model. */
  entryAt: Map<string, number>;
  topicAt: Map<number, number>;
}

/** Downloads being made on other threads: of which model, how to stop them, what they made. */
interface DownloadsRun {
  model: RenderedSite['model'];
  stop: AbortController;
  made: Downloads | null;
}

/** Calls `visit` with the path and body of every file of a site, each path once. */
type Files = (visit: (path: string, body: OutputFile['body']) => void) => void;

const ofOutput =
  (files: readonly OutputFile[]): Files =>
  (visit) => {
    for (const f of files) visit(f.path, f.body);
  };
const ofTree =
  (tree: Tree): Files =>
  (visit) => {
    for (const [path, body] of tree) visit(path, body);
  };

/** Writes those of `files` whose bytes differ from `tree`'s into `dir`; returns their paths. */
function applySome(dir: string, tree: Tree, files: readonly OutputFile[]): string[] {
  const changed: string[] = [];
  for (const { path, body } of files) {
    if (sameBody(tree.get(path), body)) continue;
    replaceFile(dir, path, body);
    tree.set(path, body);
    changed.push(path);
  }
  return changed;
}

/**
 * Makes the tree in `dir`, whose content `tree` describes, hold `files`, and updates `tree` to
 * match, in place: a long session does not churn a new map of every path per rebuild. Returns
 * the paths that differed.
 */
function applyFiles(dir: string, tree: Tree, files: Files): string[] {
  const changed: string[] = [];
  let count = 0;
  files((path, body) => {
    count++;
    if (!sameBody(tree.get(path), body)) {
      replaceFile(dir, path, body);
      tree.set(path, body);
      changed.push(path);
    }
  });
  // Every path of `files` is in the tree now: more paths than that means some are gone.
  if (tree.size > count) {
    const wanted = new Set<string>();
    files((path) => wanted.add(path));
    for (const path of [...tree.keys()]) {
      if (!wanted.has(path)) {
        rmSync(join(dir, path), { force: true });
        tree.delete(path);
        changed.push(path);
      }
    }
  }
  return changed;
}

export class BuildSession {
  private state: ContentState;
  private memo: RenderMemo;
  private live: Slot;
  private readonly trees: Record<Slot, Tree>;
  private catchUp: NodeJS.Timeout | null = null;
  /** The pending remake of the downloads, and who waits for it (downloadsSettled). */
  private downloadsTimer: NodeJS.Timeout | null = null;
  private downloadsWaiters: Array<() => void> = [];
  /** The downloads being made on other threads (downloadFilesInThread), of that model. */
  private downloadsRun: DownloadsRun | null = null;
  /** Rebuilds under way: made downloads wait for them to end before they go live. */
  private rebuilding = 0;
  /** The tree that is not live lacks the changes of the last swap (the catch-up is pending). */
  private behind = false;
  /** The tree that is not live was partly written by a rebuild that failed: swap it even if the next rebuild writes nothing. */
  private diverged = false;
  /** The output may not show the content as last read (a rebuild failed): render even if nothing changed. */
  private needsRender = false;
  private lastProblems: string | null = null;
  /** The last time (s) given to a site index at a swap: strictly increasing. */
  private lastStamp = 0;
  /** What the last valid render was made from (null after a failed render: no fast path then). */
  private basis: RenderBasis | null = null;

  private readonly options: SessionOptions;

  private constructor(options: SessionOptions, state: ContentState, memo: RenderMemo, live: Slot, tree: Tree) {
    this.options = options;
    this.state = state;
    this.memo = memo;
    this.live = live;
    this.trees = { a: tree, b: new Map(tree) } as Record<Slot, Tree>;
  }

  /**
   * Reads and validates everything, writes both generations in full and points the output at
   * one. Throws ContentError (leaving the output as it was) if the content is invalid, and the
   * file system's error if the trees cannot be written.
   */
  static async open(options: SessionOptions): Promise<BuildSession> {
    // Before anything is read or written: the output must be this build's to replace.
    prepareOutput(options.contentDir, options.outDir);
    const state = await readContent(options.contentDir, options);
    const v = validate(state);
    if (!v.ok) throw new ContentError(v.problems, options.contentDir);
    const memo = new RenderMemo();
    let fragments: Fragments | null = null;
    let search: SiteSearchIndex | undefined;
    const files = renderSite(v.model, memo, { fragments: (f) => (fragments = f), searchIndex: (i) => (search = i) });
    memo.sweep();
    const { outDir } = options;
    // The slot not live now is written first and goes live; the other is then rewritten in full.
    const live = otherSlot(activeSlot(outDir));
    for (const slot of [live, otherSlot(live)]) {
      const staging = `${slotDir(outDir, slot)}-${process.pid}`;
      rmSync(staging, { recursive: true, force: true });
      try {
        mkdirSync(staging, { recursive: true });
        writeFiles(staging, files);
        void discard(slotDir(outDir, slot), outDir);
        renameSync(staging, slotDir(outDir, slot));
        if (slot === live) pointAt(outDir, live);
      } catch (err) {
        rmSync(staging, { recursive: true, force: true });
        throw err;
      }
    }
    const session = new BuildSession(options, state, memo, live, new Map(files.map((f) => [f.path, f.body])));
    if (fragments !== null) session.keepBasis({ model: v.model, fragments, search });
    // A rebuild with nothing changed warms up the code of rebuilds (memo hits, diffing), and a
    // patch that changes nothing (its result is dropped) the fast path's, so that the first edit
    // is as fast as the ones after it.
    await session.rebuild([], { force: true });
    // That rebuild kept the downloads the first render made, which are current.
    if (session.downloadsTimer !== null) clearTimeout(session.downloadsTimer);
    session.downloadsTimer = null;
    session.warmFastPath();
    return session;
  }

  /** The generation that is live. */
  get liveSlot(): Slot {
    return this.live;
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
      const run = this.downloadsRun;
      if (this.rebuilding === 0 && run?.made != null) this.downloadsMade(run);
    }
  }

  private async rebuildNow(changedPaths: Iterable<string>, options: RebuildOptions): Promise<RebuildReport> {
    const t0 = performance.now();
    let caughtUp = 0;
    const mustRender = this.needsRender || options.force === true;
    // Until this rebuild has finished, the output may lag behind what was read.
    this.needsRender = true;
    try {
      caughtUp = this.finishCatchUp();
      const update = await updateContent(this.state, changedPaths, this.options, options.rescan === true);
      this.state = update.state;
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
          files: this.trees[this.live].size,
          changed: [],
          caughtUp,
          timings,
        };
      }
      const edits =
        mustRender || options.rescan === true || this.options.fastPath === false ? null : this.fastEdits(this.state);
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
          files: this.trees[this.live].size,
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
        // The downloads stay as they are until they are made again (scheduleDownloads).
        for (const path of DOWNLOADS) {
          const body = this.trees[this.live].get(path);
          if (body !== undefined) files.push({ path, body });
        }
      } catch (err) {
        // Whatever the memo holds after a failed render is not trusted again.
        this.memo = new RenderMemo();
        throw err;
      }
      if (fragments !== null) this.keepBasis({ model: v.model, fragments, search });
      const t3 = performance.now();
      const changed = this.goLive((dir, tree) => applyFiles(dir, tree, ofOutput(files)));
      changed.push(...this.scheduleDownloads());
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
        files: this.trees[this.live].size,
        changed: [],
        caughtUp,
        timings: { load: 0, validate: 0, render: 0, write: 0, total },
      };
    }
  }

  private warmFastPath(): void {
    const site = this.basis?.site;
    const [entry] = site?.model.entries ?? [];
    const [topic] = site?.model.topics ?? [];
    if (site === undefined || entry === undefined || topic === undefined) return;
    patchSite(site, { entries: [{ position: 0, entry }], topics: [{ position: 0, topic }] });
  }

  /** Remembers what a valid render was made from: the content as the state holds it now. */
  private keepBasis(site: RenderedSite): void {
    const s = this.state;
    this.basis = {
      site,
      parsed: new Map(s.parsed),
      config: s.config,
      siteProblems: s.siteProblems,
      categories: s.categories,
      listProblems: problemsKey(s.listProblems),
      entryAt: new Map(site.model.entries.map((e, i) => [e.date, i])),
      topicAt: new Map(site.model.topics.map((t, i) => [t.id, i])),
    };
  }

  /**
   * The records to replace when everything that differs from the last valid render is entry files
   * that keep their date and mention only topics that exist, and topic files that keep their id
   * and categories, each parsed without a problem: then every check of validate() holds as it
   * did, and the model differs only in those records. Null for any other change.
   */
  private fastEdits(state: ContentState): RecordEdits | null {
    const b = this.basis;
    if (b === null) return null;
    // site.yaml, categories.yaml and the listing as they were (each is replaced when read again).
    if (state.config !== b.config || state.siteProblems !== b.siteProblems || state.categories !== b.categories)
      return null;
    if (state.parsed.size !== b.parsed.size || problemsKey(state.listProblems) !== b.listProblems) return null;
    const edits: { entries: RecordEdits['entries'][number][]; topics: RecordEdits['topics'][number][] } = {
      entries: [],
      topics: [],
    };
    const changed: Array<[ParsedFile | undefined, ParsedFile]> = [];
    state.parsed.forEach((now, file) => {
      const was = b.parsed.get(file);
      if (was !== now) changed.push([was, now]);
    });
    for (const [was, now] of changed) {
      // A file the last render did not have (the same number of files: another one went).
      if (was === undefined || now.problems.length > 0) return null;
      if (now.kind === 'entry' && was.kind === 'entry' && now.parsed !== null && was.parsed !== null) {
        const date = now.parsed.entry.date;
        const position = b.entryAt.get(date);
        if (date !== was.parsed.entry.date || position === undefined) return null;
        const entry = entryOf(now.parsed, state.config);
        // A topic it lists or links to that does not exist: the general path reports it.
        if (!entry.topicIds.every((id) => b.topicAt.has(id))) return null;
        edits.entries.push({ position, entry });
      } else if (now.kind === 'topic' && was.kind === 'topic' && now.parsed !== null && was.parsed !== null) {
        const { id, categorySlugs } = now.parsed.topic;
        const position = b.topicAt.get(id);
        const before = was.parsed.topic.categorySlugs;
        if (id !== was.parsed.topic.id || position === undefined) return null;
        if (categorySlugs.length !== before.length || categorySlugs.some((slug, i) => slug !== before[i])) return null;
        edits.topics.push({ position, topic: topicOf(now.parsed, this.kindsOf(state)) });
      } else return null;
    }
    return edits;
  }

  // The kinds the categories give topics, by the site configuration and the category file they
  // come from (both the same objects until read again).
  private kinds: { state: unknown; categories: unknown; byCategory: Map<string, TopicKind> } | null = null;

  private kindsOf(state: ContentState): Map<string, TopicKind> {
    if (this.kinds === null || this.kinds.state !== state.config || this.kinds.categories !== state.categories) {
      const categories = state.categories.categories.map((c) => c.category);
      this.kinds = {
        state: state.config,
        categories: state.categories,
        byCategory: kindsByCategory(categories, state.config.kinds),
      };
    }
    return this.kinds.byCategory;
  }

  /** The fast path's rebuild (see fastEdits): patch, write what differs, swap. */
  private patch(edits: RecordEdits, caughtUp: number, t0: number, t1: number): RebuildReport {
    const b = this.basis as RenderBasis;
    const t2 = performance.now();
    const { site, files } = patchSite(b.site, edits, b.topicAt);
    b.site = site;
    this.state.parsed.forEach((p, file) => {
      if (b.parsed.get(file) !== p) b.parsed.set(file, p);
    });
    this.lastProblems = null;
    const t3 = performance.now();
    const changed = this.goLive((dir, tree) => applySome(dir, tree, files));
    changed.push(...this.scheduleDownloads());
    const t4 = performance.now();
    return {
      ok: true,
      problems: [],
      sameProblems: false,
      error: null,
      skipped: false,
      fast: true,
      files: this.trees[this.live].size,
      changed,
      caughtUp,
      timings: { load: t1 - t0, validate: t2 - t1, render: t3 - t2, write: t4 - t3, total: t4 - t0 },
    };
  }

  /** Brings the other tree up to date now instead of after the grace period. */
  settle(): number {
    return this.finishCatchUp();
  }

  /** Stops the pending timers (the trees stay as they are). */
  close(): void {
    if (this.catchUp !== null) clearTimeout(this.catchUp);
    this.catchUp = null;
    if (this.downloadsTimer !== null) clearTimeout(this.downloadsTimer);
    this.downloadsTimer = null;
    this.stopDownloads();
    for (const w of this.downloadsWaiters.splice(0)) w();
  }

  /**
   * Makes the pending downloads now, on this thread, rather than when their timer fires (or
   * instead of those being made on other threads); returns the paths changed.
   */
  makeDownloadsNow(): string[] {
    if (this.downloadsTimer === null && this.downloadsRun === null) return [];
    if (this.downloadsTimer !== null) clearTimeout(this.downloadsTimer);
    this.downloadsTimer = null;
    this.stopDownloads();
    return this.remakeDownloads();
  }

  /** Resolves once the downloads are made for the latest valid content (at once if they are). */
  downloadsSettled(): Promise<void> {
    if (this.downloadsTimer === null && this.downloadsRun === null) return Promise.resolve();
    return new Promise((resolve) => this.downloadsWaiters.push(resolve));
  }

  /** Schedules the downloads' remake; returns the paths it changed when it ran at once (delay < 0). */
  private scheduleDownloads(): string[] {
    if (this.downloadsTimer !== null) clearTimeout(this.downloadsTimer);
    this.downloadsTimer = null;
    // Those being made are of content that is no longer the latest.
    this.stopDownloads();
    const delay = this.options.downloadsDelayMs ?? DOWNLOADS_DELAY_MS;
    if (delay < 0) return this.remakeDownloads();
    this.downloadsTimer = setTimeout(() => this.startDownloads(), delay);
    return [];
  }

  /**
   * Makes the downloads of the last valid model on other threads (a second of SQLite's work on
   * the whole diary, during which this thread goes on serving and rebuilding); they go live when
   * made, unless the content changed meanwhile (its own downloads follow), and after any rebuild
   * under way.
   */
  private startDownloads(): void {
    this.downloadsTimer = null;
    const model = this.basis?.site.model;
    if (model === undefined) {
      this.settleDownloads();
      return;
    }
    const run: DownloadsRun = { model, stop: new AbortController(), made: null };
    this.downloadsRun = run;
    // A piece of the work here at a time, the server answering between two.
    downloadFilesInThread(model, run.stop.signal, () => nextTurn()).then(
      (made) => {
        if (this.downloadsRun !== run) return;
        run.made = made;
        if (this.rebuilding === 0) this.downloadsMade(run);
      },
      (err: unknown) => {
        if (this.downloadsRun !== run) return;
        this.downloadsRun = null;
        this.warn(`making the downloads failed: ${describeFault(err)}`);
        this.settleDownloads();
      },
    );
  }

  /** Puts made downloads live, if the content is still what they were made of. */
  private downloadsMade(run: DownloadsRun): string[] {
    this.downloadsRun = null;
    try {
      if (run.made === null || this.basis?.site.model !== run.model) return [];
      return this.putDownloadsLive(run.made);
    } finally {
      this.settleDownloads();
    }
  }

  /** Stops the downloads being made on other threads, if any (their result is never used). */
  private stopDownloads(): void {
    const run = this.downloadsRun;
    this.downloadsRun = null;
    run?.stop.abort();
  }

  /** Makes the downloads of the last valid model on this thread and puts them live. */
  private remakeDownloads(): string[] {
    this.downloadsTimer = null;
    const model = this.basis?.site.model;
    try {
      if (model === undefined) return [];
      let made: Downloads;
      try {
        made = downloadFiles(model);
      } catch (err) {
        this.warn(`making the downloads failed: ${describeFault(err)}`);
        return [];
      }
      return this.putDownloadsLive(made);
    } finally {
      this.settleDownloads();
    }
  }

  /** Puts the downloads live like a rebuild's files: the files first, their list after them. */
  private putDownloadsLive(downloads: Downloads): string[] {
    try {
      this.finishCatchUp();
      return this.goLive((dir, tree) => applySome(dir, tree, [...downloads.files, downloads.list]));
    } catch (err) {
      this.warn(`making the downloads failed: ${describeFault(err)}`);
      return [];
    }
  }

  /** Tells those waiting for the downloads, once none are pending. */
  private settleDownloads(): void {
    if (this.downloadsTimer !== null || this.downloadsRun !== null) return;
    for (const w of this.downloadsWaiters.splice(0)) w();
  }

  private warn(line: string): void {
    (this.options.onWarning ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }

  /**
   * Gives the site index of the tree about to go live a new modification time when its bytes did
   * not change: the local server keys what it has loaded of a generation on the index's identity,
   * and a tree that goes live again after being brought up to date in place must not look like
   * the one it loaded before.
   */
  /**
   * Brings the inactive tree up to the new site with `apply` (given its directory and what it
   * holds; it returns the paths it changed), and makes that tree live if anything changed, or if
   * an earlier attempt may have left it different from the live one. Returns the changed paths.
   * The inactive tree equals the live one (the catch-up saw to it): what differs from it is
   * exactly what differs from the live site.
   */
  private goLive(apply: (dir: string, tree: Tree) => string[]): string[] {
    const target = otherSlot(this.live);
    const targetDir = slotDir(this.options.outDir, target);
    const diverged = this.diverged;
    this.diverged = true;
    const changed = apply(targetDir, this.trees[target]);
    if (changed.length > 0 || diverged) {
      if (!changed.includes(SITE_INDEX_FILE)) this.restamp(targetDir);
      pointAt(this.options.outDir, target);
      this.live = target;
      this.behind = true;
      this.scheduleCatchUp();
    }
    this.diverged = false;
    this.needsRender = false;
    return changed;
  }

  private restamp(dir: string): void {
    const stamp = Math.max(Date.now() / 1000, this.lastStamp + 0.001);
    this.lastStamp = stamp;
    try {
      utimesSync(join(dir, SITE_INDEX_FILE), stamp, stamp);
    } catch {
      // No index there: nothing to mistake for an earlier one.
    }
  }

  private scheduleCatchUp(): void {
    if (this.catchUp !== null) clearTimeout(this.catchUp);
    this.catchUp = setTimeout(() => {
      try {
        this.finishCatchUp();
      } catch (err) {
        // Retried at the start of the next rebuild.
        this.warn(
          `bringing ${slotDir(this.options.outDir, otherSlot(this.live))} up to date failed: ${describeFault(err)}`,
        );
      }
    }, GRACE_MS);
    this.catchUp.unref();
  }

  /** Brings the inactive tree up to the live one; returns the number of files it rewrote. */
  private finishCatchUp(): number {
    if (this.catchUp !== null) clearTimeout(this.catchUp);
    this.catchUp = null;
    if (!this.behind) return 0;
    const stale = otherSlot(this.live);
    const n = applyFiles(slotDir(this.options.outDir, stale), this.trees[stale], ofTree(this.trees[this.live])).length;
    this.behind = false;
    return n;
  }
}
