// A rebuild over an output that a build made: only the files whose bytes change are written, and
// only the files that go away are removed, into a tree that no reader is using, which then goes
// live with one rename (the generation layout of generations.ts):
//
//   public -> .public-gen-a      the live tree: never written while it is live
//   .public-gen-b/               the tree the rebuild brings up to date, then swaps in
//
// What each tree holds is known from its manifest (manifest.ts), trusted only after checking it
// against the disk. The tree to write is the one that is not live: when its manifest holds, the
// rebuild starts from it (it is one rebuild behind the live tree, whose changes it then writes
// too); when it does not (missing, killed half-way, changed by hand), it is made again as a tree
// of hard links to the live one (no file is copied: files are never changed in place, only
// replaced by rename), whose manifest must hold; and when neither can be trusted, there is no
// rebuild (beginRebuild returns null) and the build writes a full tree.
//
// An output that is still a plain directory (the first build made it) becomes the layout at the
// first rebuild that changes something: its tree is linked into `.public-gen-a`, brought up to
// date there, and at the swap the plain directory is moved aside, the symlink put in its place,
// and the old directory becomes `.public-gen-b` (or, not writable, is removed in the background).
// Between those two renames (microseconds) the output path does not exist; a build killed there
// leaves the old tree whole under `-prev-<pid>`, which the next build puts back (trash.ts).

import { accessSync, constants, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { generatorFingerprint, type Sources } from '../content/fingerprint.ts';
import { readRegular } from '../content/read-regular.mjs';
import { SITE_INDEX_FILE } from '../core/files.ts';
import { lstatOrNull } from '../paths.ts';
import type { OutputFile, RecordBytes } from './file.ts';
import { activeSlot, otherSlot, pointAt, type Slot, slotDir } from './generations.ts';
import { checkOutDir, MARKER_FILE, MARKER_TEXT, orRefuse, RefusedError } from './guard.ts';
import { linkTree } from './link-tree.ts';
import {
  type Changes,
  changesBetween,
  checkTree,
  type FileFacts,
  hashBytes,
  loadManifest,
  MANIFEST_FILE,
  type Manifest,
  readBasis,
  readManifest,
  readSources,
  removeManifest,
  writeManifest,
} from './manifest.ts';
import { discard } from './trash.ts';
import { TreeWriter } from './tree-writer.ts';

/** What a rebuild did. */
export interface RebuildStats {
  /** Files in the new tree (the marker included, the manifest not). */
  files: number;
  bytes: number;
  /** Files written into the tree that went live (new or changed bytes, or catching up). */
  written: number;
  /** Files removed from it. */
  deleted: number;
  /** What differs from the tree that was live before (what a mirror fetches). */
  changes: Changes;
  /** Settles when the trees put aside are removed. */
  removed: Promise<void>;
}

export interface Rebuild {
  /** Adds a file (a path relative to the tree); `sha256`: the body's hash (hex), when the caller has it. */
  add(path: string, body: OutputFile['body'], sha256?: string): void;
  /**
   * A file of the live tree, read now: its bytes when the live tree's manifest holds and lists it
   * with those bytes' hash, else null (what a rebuild may reuse of the last build: build.ts).
   */
  readLive(path: string): Uint8Array | null;
  /**
   * What the last build recorded of itself beside the live tree's manifest, when that manifest
   * holds and this very generator made the tree (else nulls): what the tree was made of, file by
   * file (its sources), and its basis file's bytes (render/basis.ts), each only as the manifest's
   * hash of it says.
   */
  liveRecords(): { sources: Sources | null; basis: Uint8Array | null };
  /**
   * Keeps every file of the live tree not added so far as it is there (a rebuild that rendered
   * only what changed: render/basis.ts), a file at a step (each step yields, so that the
   * caller may let its event loop turn). Each is checked first, never copied forward on trust: the
   * tree's own copy when its bytes hash to the live manifest's, else the live tree's (readLive).
   * Returns null when all are kept, else the first that neither holds (damaged in place, say):
   * the caller must then render everything. The files of `coming` are left to be added after.
   */
  keepLive(coming?: Iterable<string>): Generator<undefined, string | null>;
  /**
   * Its manifest records `inputs`, the fingerprint of what the tree was made of (null: unknown),
   * `sources`, the same file by file, and `basis`, the build's basis (render/basis.ts). Every file
   * neither added nor kept (keepLive) goes.
   */
  commit(inputs?: string | null, sources?: Sources | null, basis?: RecordBytes | null): Promise<RebuildStats>;
  /** Stops: the output is left as it was, the tree being written keeps a manifest of what it holds. */
  abandon(): Promise<void>;
}

/** Codes of a symlink that cannot be made here (as opposed to a fault of the machine). */
const NO_SYMLINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** The live tree of `outDir` and the slot to write: null when `outDir` is not a build's tree. */
function layoutOf(outDir: string): { liveDir: string; target: Slot; plain: boolean } | null {
  const active = activeSlot(outDir);
  if (active !== null) return { liveDir: slotDir(outDir, active), target: otherSlot(active), plain: false };
  if (lstatOrNull(outDir)?.isDirectory() === true) return { liveDir: outDir, target: 'a', plain: true };
  return null;
}

/**
 * A manifest of `dir` that holds (see manifest.ts), or null; `warn` is told of one not even read
 * (too large for its tree).
 */
function trustedManifest(dir: string, warn: (line: string) => void = () => {}): Manifest | null {
  const { manifest: m, untrusted } = loadManifest(dir);
  if (untrusted !== undefined) warn(`${untrusted}: not trusted (its files are rendered again)`);
  return m !== null && checkTree(dir, m) ? m : null;
}

/** The live tree's manifest, when it holds; null for anything else. */
export function liveManifest(outDir: string): Manifest | null {
  return liveTree(outDir)?.manifest ?? null;
}

/** The live tree (its directory) and its manifest, when it holds; null for anything else. */
export function liveTree(outDir: string): { dir: string; manifest: Manifest } | null {
  const layout = layoutOf(outDir);
  const manifest = layout === null ? null : trustedManifest(layout.liveDir);
  return layout === null || manifest === null ? null : { dir: layout.liveDir, manifest };
}

/**
 * The live tree's manifest when it holds and was built from the inputs `fingerprint` gives: the
 * output is current and a build has nothing to do. Null otherwise (including every output that is
 * not a build's tree); `fingerprint` is asked only when the output records what it was made of.
 */
export function currentOutput(outDir: string, fingerprint: () => string): Manifest | null {
  const layout = layoutOf(outDir);
  if (layout === null) return null;
  const m = readManifest(layout.liveDir);
  if (m === null || m.inputs === null || m.inputs !== fingerprint()) return null;
  return checkTree(layout.liveDir, m) ? m : null;
}

/**
 * Starts a rebuild of `outDir` (see above); null when the output is missing or no tree of it can
 * be trusted (a full build is then needed); `warn` is told why a live manifest was not even read.
 * Throws RefusedError when the output is not the writer's to replace.
 */
export function beginRebuild(outDir: string, warn: (line: string) => void = () => {}): Rebuild | null {
  orRefuse(checkOutDir(outDir, undefined, outDir));
  const layout = layoutOf(outDir);
  if (layout === null) return null;
  const { liveDir, target, plain } = layout;
  const dir = slotDir(outDir, target);
  const live = trustedManifest(liveDir, warn);
  let base = lstatOrNull(dir)?.isDirectory() === true ? trustedManifest(dir) : null;
  if (base === null) {
    if (live === null) return null;
    // The tree to write cannot be trusted: made again from the live one. Any fault here (a
    // read-only file system, links not allowed) leaves it to a full build, which names the fault.
    let linked = false;
    try {
      void discard(dir, outDir);
      linked = linkTree(liveDir, dir, 'stop');
    } catch {
      linked = false;
    }
    if (!linked) {
      try {
        void discard(dir, outDir);
      } catch {
        // Left as it is: untrusted, and made again by the next rebuild.
      }
      return null;
    }
    // Linked files share the live ones' inodes and modification times: the live manifest holds.
    removeManifest(dir);
    base = live;
  }
  // From here until the commit writes a new one, the tree holds no manifest: not trusted.
  removeManifest(dir);
  const before = base.files;
  const tree = new TreeWriter(dir, new Map<string, FileFacts>(before));
  const files = tree.files;
  const seen = new Set<string>();
  const written: string[] = [];
  let open = true;
  /** The site index's bytes, when they are as the tree holds them (see commit). */
  let siteIndex: OutputFile['body'] | null = null;

  const rebuild: Rebuild = {
    readLive(path) {
      // Only a tree this very generator made: another's files may be of another format.
      if (live?.generator !== generatorFingerprint()) return null;
      const listed = live.files.get(path);
      if (listed === undefined) return null;
      // No more than the manifest's size (a file grown, or replaced by a FIFO, is not waited on).
      const read = readRegular(join(liveDir, path), listed.size);
      return read.bytes !== null && hashBytes(read.bytes) === listed.hash ? read.bytes : null;
    },
    liveRecords() {
      if (live?.generator !== generatorFingerprint()) return { sources: null, basis: null };
      const basis = readBasis(liveDir, live);
      if (basis.untrusted !== undefined) warn(`${basis.untrusted}: not trusted (its files are rendered again)`);
      return { sources: readSources(liveDir, live), basis: basis.bytes };
    },
    add(path, body, sha256) {
      if (!open) throw new Error(`${dir} is no longer being written`);
      seen.add(path);
      const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      const hash = sha256 ?? hashBytes(data);
      // The tree holds these bytes, says its manifest: kept when its file does (its size and
      // times say nothing of bytes changed in place, in this tree or, by a hard link, the live one).
      if (before.get(path)?.hash === hash && holdsBytes(join(dir, path), data)) {
        if (path === SITE_INDEX_FILE) siteIndex = body;
        return;
      }
      tree.write(path, data, hash);
      written.push(path);
    },
    *keepLive(coming = []) {
      if (!open) throw new Error(`${dir} is no longer being written`);
      if (live === null) return MANIFEST_FILE;
      const later = new Set(coming);
      // The tree written is the live one's or one rebuild behind it: only the files of that
      // rebuild differ, copied here (read back as readLive reads them: as the live manifest says).
      for (const [path, f] of live.files) {
        if (seen.has(path) || later.has(path)) continue;
        if (before.get(path)?.hash === f.hash && holdsHash(join(dir, path), f)) seen.add(path);
        else {
          const bytes = rebuild.readLive(path);
          if (bytes === null) return path;
          rebuild.add(path, bytes);
        }
        yield undefined;
      }
      return null;
    },
    async commit(inputs = null, sources = null, basis = null) {
      if (!open) throw new Error(`${dir} is no longer being written`);
      open = false;
      let deleted = 0;
      for (const path of before.keys()) {
        if (seen.has(path)) continue;
        tree.remove(path);
        deleted++;
      }
      tree.removeEmptyDirs(before.keys());
      const changes = changesBetween(live?.files ?? before, files);
      // A live tree that does not hold (changed by hand) is replaced even by an equal one.
      const same = live !== null && changes.added.length + changes.changed.length + changes.removed.length === 0;
      // The local server knows a generation by its site index's identity (device, inode, time,
      // size): a tree that goes live must not look like one it loaded before, even when the
      // index's bytes are the same. Written again, not touched: its file may be shared with the
      // live tree by a hard link, whose time must not move.
      if (!same && siteIndex !== null)
        tree.write(SITE_INDEX_FILE, siteIndex, (files.get(SITE_INDEX_FILE) as FileFacts).hash);
      // The basis's hash as written: a basis in pieces is made again to be hashed again.
      const basisHash = tree.record(inputs, changes, sources, basis);
      let bytes = 0;
      for (const f of files.values()) bytes += f.size;
      const stats = { files: files.size, bytes, written: written.length, deleted, changes };
      if (same) {
        // Nothing differs from the live tree: it stays live; this one is now its equal. Its
        // manifest records the inputs too, so the next build need not do this again.
        // The same bytes as this generator's: its files are this generator's too. So is the
        // basis, written again when the live tree's is not this one (missing, or damaged).
        if (live.inputs !== inputs || live.basis !== basisHash)
          writeManifest(liveDir, { ...live, inputs, generator: generatorFingerprint() }, sources, basis);
        return { ...stats, removed: Promise.resolve() };
      }
      // The output may have changed while the site was built: it must still be the writer's own.
      orRefuse(checkOutDir(outDir, undefined, outDir));
      if (!plain || activeSlot(outDir) !== null) {
        pointAt(outDir, target);
        return { ...stats, removed: Promise.resolve() };
      }
      return { ...stats, removed: convert(outDir, target) };
    },
    async abandon() {
      if (!open) return;
      open = false;
      // What the tree holds now: the base with the files written so far. Unremoved files stay.
      try {
        tree.recordPartial();
      } catch {
        // Without a manifest the next rebuild makes this tree again.
      }
    },
  };
  rebuild.add(MARKER_FILE, MARKER_TEXT);
  return rebuild;
}

/** Whether the file at `path` is a regular file of exactly these bytes (read as far as their length). */
function holdsBytes(path: string, data: Uint8Array): boolean {
  const read = readRegular(path, data.length);
  return read.bytes?.equals(data) === true;
}

/** Whether the file at `path` is a regular file whose bytes hash as the manifest says. */
function holdsHash(path: string, f: FileFacts): boolean {
  const read = readRegular(path, f.size);
  return read.bytes !== null && read.bytes.length === f.size && hashBytes(read.bytes) === f.hash;
}

/**
 * Turns a plain output directory into the layout, with `target` live: a symlink replaces the
 * directory, which becomes the other generation (see below).
 */
function convert(outDir: string, target: Slot): Promise<void> {
  const parent = dirname(outDir);
  const name = basename(outDir);
  const link = join(parent, `.${name}-link-${process.pid}`);
  const prev = join(parent, `.${name}-prev-${process.pid}`);
  rmSync(link, { force: true });
  // Where symlinks cannot be made (Windows without developer mode, some file systems), the tree
  // written takes the plain directory's place itself, and the output stays a plain directory.
  let incoming = link;
  try {
    symlinkSync(basename(slotDir(outDir, target)), link, 'dir');
  } catch (err) {
    if (!NO_SYMLINKS.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
    incoming = slotDir(outDir, target);
  }
  rmSync(prev, { recursive: true, force: true });
  try {
    renameSync(outDir, prev);
  } catch (err) {
    rmSync(link, { force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EBUSY' || code === 'EXDEV')
      throw new RefusedError(
        `${outDir} cannot be replaced by a rename (${code}: a mount point?); use a directory inside it, e.g. --out ${join(outDir, 'public')}`,
      );
    throw err;
  }
  // The one moment the output path does not exist: killed here, the next build puts `prev` back.
  try {
    renameSync(incoming, outDir);
  } catch (err) {
    renameSync(prev, outDir);
    rmSync(link, { force: true });
    throw err;
  }
  // The old tree becomes the other generation (its manifest still holds: a rename moves no file),
  // so that nothing is deleted and the next rebuild has a tree to start from; unless it is not
  // ours to write into (someone made part of it read-only), then it goes, and the next rebuild
  // links the other generation afresh. Where symlinks could not be made, the layout stays plain.
  if (incoming === link && writableTree(prev)) {
    const other = slotDir(outDir, otherSlot(target));
    try {
      void discard(other, outDir);
      renameSync(prev, other);
      return Promise.resolve();
    } catch {
      // Deleted below instead.
    }
  }
  return discard(prev, outDir);
}

/** Whether this process may write in every directory of the tree at `dir`. */
function writableTree(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    for (const d of readdirSync(dir, { withFileTypes: true }))
      if (d.isDirectory() && !writableTree(join(dir, d.name))) return false;
    return true;
  } catch {
    return false;
  }
}
