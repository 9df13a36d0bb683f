// When the watch mode makes the downloads again: they hold every record and take seconds on the
// whole diary, so after a rebuild they are made once a burst of edits is over, on other threads
// (the server goes on answering and rebuilding meanwhile), and go live only if the content is
// still what they were made of, after any rebuild under way.

import { setImmediate as nextTurn } from 'node:timers/promises';
import { holdDatabaseThread } from '../render/database-thread.ts';
import { type Downloads, downloadFiles, downloadFilesInThread } from '../render/downloads.ts';
import type { RenderedSite } from '../render/patch.ts';
import type { RenderMemo } from '../render/render-memo.ts';
import { describeFault } from './describe-fault.ts';
import type { FileAhead } from './twin-trees.ts';

type Model = RenderedSite['model'];

/** Downloads being made on other threads: of which model, how to stop them, what they made. */
interface DownloadsRun {
  model: Model;
  stop: AbortController;
  made: Downloads | null;
  /** Its large files written ahead (twin-trees.ts writeAhead), by path. */
  ahead: ReadonlyMap<string, FileAhead>;
}

const NONE_AHEAD: ReadonlyMap<string, FileAhead> = new Map();

/** What the remake needs of its session. */
export interface DownloadsHost {
  /** The last valid model, if any: the one whose downloads are wanted. */
  model(): Model | undefined;
  /** The records' details and lines made for the last downloads (render/downloads.ts), kept between them. */
  memo(): RenderMemo;
  /** Milliseconds to wait after a rebuild; negative: at once, within it. */
  delayMs(): number;
  /** Whether rebuilds are under way (made downloads then wait for them to end). */
  rebuilding(): boolean;
  /**
   * Writes the downloads' large files ahead beside the output while `wanted()`, a slice at a time
   * (twin-trees.ts writeAhead); what it wrote, by path.
   */
  writeAhead(downloads: Downloads, wanted: () => boolean): Promise<ReadonlyMap<string, FileAhead>>;
  /** Removes what was written ahead and not put live. */
  discardAhead(ahead: ReadonlyMap<string, FileAhead>): void;
  /** Puts made downloads live, renaming those written ahead into place; returns the paths changed. */
  putLive(downloads: Downloads, ahead: ReadonlyMap<string, FileAhead>): string[];
  warn(line: string): void;
}

/** The pending remake of the downloads, the one being made on other threads, and who waits. */
export class DownloadsRemake {
  private timer: NodeJS.Timeout | null = null;
  private waiters: Array<() => void> = [];
  /** The downloads being made on other threads (downloadFilesInThread), of that model. */
  private run: DownloadsRun | null = null;
  private readonly host: DownloadsHost;

  /** Ends the session's hold of the database's thread (kept warm between edits). */
  private readonly release = holdDatabaseThread();

  constructor(host: DownloadsHost) {
    this.host = host;
  }

  /** Forgets the pending remake (the downloads live are current). */
  cancelTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Downloads made during rebuilds go live now, if the content is still what they were made of. */
  afterRebuilds(): void {
    const run = this.run;
    if (run?.made != null) this.made(run);
  }

  /** Stops the pending timer and the downloads being made; tells those waiting. */
  close(): void {
    this.cancelTimer();
    this.stop();
    this.release();
    for (const w of this.waiters.splice(0)) w();
  }

  /**
   * Makes the pending downloads now, on this thread, rather than when their timer fires (or
   * instead of those being made on other threads); returns the paths changed.
   */
  makeNow(): string[] {
    if (this.timer === null && this.run === null) return [];
    this.cancelTimer();
    this.stop();
    return this.remake();
  }

  /** Whether the downloads live are those of the latest valid content: none pending nor being made. */
  get idle(): boolean {
    return this.timer === null && this.run === null;
  }

  /** Resolves once the downloads are made for the latest valid content (at once if they are). */
  settled(): Promise<void> {
    if (this.timer === null && this.run === null) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Schedules the downloads' remake; returns the paths it changed when it ran at once (delay < 0). */
  schedule(): string[] {
    this.cancelTimer();
    // Those being made are of content that is no longer the latest.
    this.stop();
    const delay = this.host.delayMs();
    if (delay < 0) return this.remake();
    this.timer = setTimeout(() => this.start(), delay);
    return [];
  }

  /**
   * Puts live, once made, downloads already being made of `model` (the session's first, which it
   * serves the output's last downloads until), as a run of this remake's: an edit meanwhile stops
   * them, and its own downloads follow.
   */
  follow(model: Model, making: Promise<Downloads>, stop: AbortController): void {
    this.cancelTimer();
    this.stop();
    const run: DownloadsRun = { model, stop, made: null, ahead: NONE_AHEAD };
    this.run = run;
    void this.make(run, making);
  }

  /**
   * Makes the downloads of the last valid model on other threads (a second of SQLite's work on
   * the whole diary, during which this thread goes on serving and rebuilding); they go live when
   * made, unless the content changed meanwhile (its own downloads follow), and after any rebuild
   * under way.
   */
  private start(): void {
    this.timer = null;
    const model = this.host.model();
    if (model === undefined) {
      this.settle();
      return;
    }
    const run: DownloadsRun = { model, stop: new AbortController(), made: null, ahead: NONE_AHEAD };
    this.run = run;
    void this.make(run);
  }

  /**
   * Makes `run`'s downloads (unless `making` already makes them) and writes their large files
   * ahead, then puts them live (made).
   */
  private async make(run: DownloadsRun, making?: Promise<Downloads>): Promise<void> {
    let made: Downloads;
    try {
      // A piece of the work here at a time, the server answering between two.
      made = await (making ??
        downloadFilesInThread(run.model, { signal: run.stop.signal, pace: () => nextTurn(), memo: this.host.memo() }));
    } catch (err) {
      if (this.run !== run) return;
      this.run = null;
      this.host.warn(`making the downloads failed: ${describeFault(err)}`);
      this.settle();
      return;
    }
    if (this.run !== run) return;
    let ahead = NONE_AHEAD;
    try {
      ahead = await this.host.writeAhead(made, () => this.run === run);
    } catch {
      // Nothing written ahead (a full disk, say): going live writes the files, and says so if it fails.
    }
    if (this.run !== run) {
      this.host.discardAhead(ahead);
      return;
    }
    run.made = made;
    run.ahead = ahead;
    if (!this.host.rebuilding()) this.made(run);
  }

  /** Puts made downloads live, if the content is still what they were made of. */
  private made(run: DownloadsRun): string[] {
    this.run = null;
    try {
      if (run.made === null || this.host.model() !== run.model) return [];
      return this.host.putLive(run.made, run.ahead);
    } finally {
      this.host.discardAhead(run.ahead);
      this.settle();
    }
  }

  /** Stops the downloads being made on other threads, if any (their result is never used). */
  private stop(): void {
    const run = this.run;
    this.run = null;
    run?.stop.abort();
    if (run !== null) this.host.discardAhead(run.ahead);
  }

  /** Makes the downloads of the last valid model on this thread and puts them live. */
  private remake(): string[] {
    this.timer = null;
    const model = this.host.model();
    try {
      if (model === undefined) return [];
      let made: Downloads;
      try {
        made = downloadFiles(model, this.host.memo());
      } catch (err) {
        this.host.warn(`making the downloads failed: ${describeFault(err)}`);
        return [];
      }
      return this.host.putLive(made, NONE_AHEAD);
    } finally {
      this.settle();
    }
  }

  /** Tells those waiting for the downloads, once none are pending. */
  private settle(): void {
    if (this.timer !== null || this.run !== null) return;
    for (const w of this.waiters.splice(0)) w();
  }
}
