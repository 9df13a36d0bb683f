// Empty files made ahead, off the event loop, for the watch mode's writes: an edit's files are
// written into files that exist already and renamed into place (replace-file.ts
// replaceFileWith), instead of each being created as the edit's answers wait. Creating a file is
// a journal transaction of the file system: on this VM's ext4, 0.3–1.1 ms a file while the disk is
// busy, against a tenth of that for writing into one that exists; an edit of an entry's text
// writes about 55 files (docs/performance.md, "The watch mode's writes into spare files").
//
// The files are made one at a time on libuv's pool (fs/promises), in a directory beside the
// output (on its file system, so that a rename moves them into a tree), named with this process's
// pid: a process that dies leaves it to the next build's sweep (trash.ts).

import { rmSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';

/** Spare files kept ready: an edit of an entry's text takes about 55, the catch-up as many again. */
export const SPARE_FILES = 256;

export class SpareFiles {
  private readonly dir: string;
  private readonly want: number;
  /** Empty files made and not taken, each its own. */
  private readonly ready: string[] = [];
  private made = 0;
  /** The files being made, if they are (settles when fill's work ends). */
  private filling: Promise<void> | null = null;
  private closed = false;

  constructor(dir: string, want = SPARE_FILES) {
    this.dir = dir;
    this.want = want;
  }

  /** An empty file to write into and rename, the caller's from now on; null when none is ready. */
  take(): string | null {
    const spare = this.ready.pop() ?? null;
    this.fill();
    return spare;
  }

  /** How many are ready. */
  get count(): number {
    return this.ready.length;
  }

  /**
   * Makes files until `want` are ready, in the background; a failure (a full disk, a directory
   * that cannot be made) stops it quietly: writes then create their own files, as without spares.
   */
  fill(): void {
    if (this.filling !== null || this.closed || this.ready.length >= this.want) return;
    this.filling = this.makeSome().finally(() => {
      this.filling = null;
    });
  }

  /** Resolves when no file is being made (the tests). */
  settled(): Promise<void> {
    return this.filling ?? Promise.resolve();
  }

  private async makeSome(): Promise<void> {
    try {
      await mkdir(this.dir, { recursive: true });
      while (!this.closed && this.ready.length < this.want) {
        const path = join(this.dir, String(++this.made));
        await (await open(path, 'wx')).close();
        this.ready.push(path);
      }
    } catch {
      // None more made: see fill().
    } finally {
      // Closed meanwhile: what this made after close() removed the directory goes too.
      if (this.closed) this.removeAll();
    }
  }

  /** Removes the directory and every file not taken; none is made after. */
  close(): void {
    this.closed = true;
    this.removeAll();
  }

  /** Never throws: a directory that cannot be removed only takes room, and the next build's sweep has it. */
  private removeAll(): void {
    this.ready.length = 0;
    try {
      rmSync(this.dir, { recursive: true, force: true });
    } catch {
      // See above.
    }
  }
}
