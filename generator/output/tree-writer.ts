// Brings one tree of the generation layout (generations.ts) to new content a file at a time, and
// keeps what its manifest records of each file (manifest.ts FileFacts), so that the manifest can be
// written at any moment without reading the tree back. The one writer of a tree written over an
// earlier one: the one-shot rebuild (rebuild.ts) and the watch mode (watch/twin-trees.ts) both
// write through it.
//
// A tree that is being changed has no manifest: it is removed before the first write (or removal)
// and written again by `record`, so a process killed in between leaves a tree that no build trusts.

import { linkSync, lstatSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generatorFingerprint, type Sources } from '../content/fingerprint.ts';
import type { OutputFile, RecordBytes, WrittenAhead } from './file.ts';
import {
  type Changes,
  type FileFacts,
  factsOf,
  hashBytes,
  isAsWritten,
  removeManifest,
  writeManifest,
} from './manifest.ts';
import { inItsDirectory, placeFile, replaceFile, replaceFileWith } from './replace-file.ts';

export class TreeWriter {
  readonly dir: string;
  /** What the tree holds, file by file, as its manifest records it (the manifest aside). */
  readonly files: Map<string, FileFacts>;
  /** The manifest was removed and not written again since. */
  private changing = false;
  /** Hash the files written only when the manifest is written (see the constructor). */
  private readonly hashLater: boolean;
  /** The bytes of the files written whose hash is not made yet (hashLater). */
  private readonly unhashed = new Map<string, Uint8Array>();
  /** Empty files made ahead to write into (spare-files.ts), if the tree's owner keeps any. */
  private readonly spare: (() => string | null) | undefined;

  /**
   * A tree in `dir` that holds `files` (the map is the writer's from now on). With `hashLater`, the
   * hash of a file written is made only when the manifest is (the watch mode: an edit's answers do
   * not wait for hashing what it writes); until then `files` holds it as ''. With `spare`, a file
   * written goes through one of those empty files when it gives one (replace-file.ts replaceFileWith).
   */
  constructor(
    dir: string,
    files: Map<string, FileFacts>,
    options: { hashLater?: boolean; spare?: () => string | null } = {},
  ) {
    this.dir = dir;
    this.files = files;
    this.hashLater = options.hashLater === true;
    this.spare = options.spare;
  }

  /** The tree is about to change: its manifest goes first. */
  private begin(): void {
    if (this.changing) return;
    removeManifest(this.dir);
    this.changing = true;
  }

  /**
   * Writes `body` at `path` (never in place: replace-file.ts) and records its facts; `hash`, when
   * the caller has it already, is the SHA-256 of its bytes.
   */
  write(path: string, body: OutputFile['body'], hash?: string): void {
    this.begin();
    const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const spare = this.spare?.() ?? null;
    if (spare === null) replaceFile(this.dir, path, data);
    else replaceFileWith(spare, this.dir, path, data);
    this.note(path, data, hash);
  }

  /** Records the facts of the file just put at `path`, whose bytes are `data` (`hash`: theirs, when known). */
  private note(path: string, data: Uint8Array, hash?: string): void {
    const later = hash === undefined && this.hashLater;
    if (later) this.unhashed.set(path, data);
    else this.unhashed.delete(path);
    this.files.set(path, factsOf(later ? '' : (hash ?? hashBytes(data)), lstatSync(join(this.dir, path))));
  }

  /**
   * Puts at `path` the file `from` (written ahead on this tree's file system, its bytes' SHA-256
   * `hash`): one rename, not a write. For the watch mode's downloads, tens of megabytes.
   */
  adopt(path: string, from: string, hash: string): void {
    this.begin();
    const target = join(this.dir, path);
    inItsDirectory(target, () => renameSync(from, target));
    this.unhashed.delete(path);
    this.files.set(path, factsOf(hash, lstatSync(target)));
  }

  /**
   * Puts at `path` `body`, which `source` (another tree's writer) wrote at the same path: a hard
   * link to its file when that file is still as it wrote it (its size, inode and modification
   * time), no bytes written; else a write. Files are only ever replaced by a rename
   * (replace-file.ts), never changed in place, so two trees may share one.
   */
  linkOrWrite(path: string, body: Uint8Array, source: TreeWriter): void {
    const from = join(source.dir, path);
    const f = source.files.get(path);
    const s = f === undefined ? undefined : lstatSync(from, { throwIfNoEntry: false });
    if (f === undefined || s === undefined || !isAsWritten(f, s)) {
      this.write(path, body);
      return;
    }
    this.begin();
    placeFile(join(this.dir, path), (temp) => linkSync(from, temp));
    this.note(path, body);
  }

  /** Removes the file at `path`. */
  remove(path: string): void {
    this.begin();
    rmSync(join(this.dir, path), { force: true });
    this.files.delete(path);
    this.unhashed.delete(path);
  }

  /**
   * Makes the hashes left for later ahead of `facts()`, one file at a time: between two, `go()`
   * may let the event loop turn and says whether to go on (the watch mode's record, which then
   * takes less of one turn). A file written meanwhile is hashed in its turn.
   */
  async hashAhead(go: () => Promise<boolean>): Promise<boolean> {
    for (const [path, data] of this.unhashed) {
      const f = this.files.get(path);
      if (f !== undefined) f.hash = hashBytes(data);
      this.unhashed.delete(path);
      if (!(await go())) return false;
    }
    return true;
  }

  /** What the tree holds, file by file, every hash made (see the constructor). */
  facts(): Map<string, FileFacts> {
    for (const [path, data] of this.unhashed) {
      const f = this.files.get(path);
      if (f !== undefined) f.hash = hashBytes(data);
    }
    this.unhashed.clear();
    return this.files;
  }

  /** Removes the directories that held only files now gone (`gone`: the paths of those files, or more). */
  removeEmptyDirs(gone: Iterable<string>): void {
    const dirsOf = (paths: Iterable<string>) => {
      const out = new Set<string>();
      for (const path of paths) for (let d = dirname(path); d !== '.'; d = dirname(d)) out.add(d);
      return out;
    };
    const keep = dirsOf(this.files.keys());
    const empty = [...dirsOf(gone)].filter((d) => !keep.has(d)).sort((a, b) => b.length - a.length);
    for (const d of empty) rmSync(join(this.dir, d), { recursive: true, force: true });
  }

  /**
   * Writes the tree's manifest: it holds these files, made of `inputs` (null: unknown) by this
   * generator, with `sources` and `basis` beside it (render/basis.ts), and `changes` from the tree
   * that was live before (null: unknown). The tree is trusted again from here. Returns the basis's
   * hash (null without one).
   */
  record(
    inputs: string | null,
    changes: Changes | null,
    sources: Sources | WrittenAhead | null = null,
    basis: RecordBytes | null = null,
  ): string | null {
    const basisHash = writeManifest(
      this.dir,
      { inputs, generator: generatorFingerprint(), files: this.facts(), changes },
      sources,
      basis,
    );
    this.changing = false;
    return basisHash;
  }

  /** Records what the tree holds now as of no known inputs nor generator: a tree left half-way. */
  recordPartial(): void {
    writeManifest(this.dir, { inputs: null, generator: null, files: this.facts(), changes: null });
    this.changing = false;
  }
}
