// The watch mode's two generations of the output (output/generations.ts), what is watch-specific
// about them: each is known in memory (path → body), so that "changed" is decided without reading
// the disk, and the tree that was live is brought up to date after a grace period. Both trees are
// made at the session's start (first-trees.ts); from then on every file is written, and every
// manifest, by the one writer of a tree written over an earlier one (output/tree-writer.ts, the
// one-shot rebuild's too), which keeps each file's facts as it goes.
//
// A rebuild writes what differs into the inactive tree (its manifest removed first), which then
// goes live with one rename; the tree that was live is brought up to date too, but only after a
// grace period (readers that resolved it just before the swap finish undisturbed) or at the start
// of the next rebuild, whichever comes first. The in-memory trees are updated file by file, only
// after each file was written, so that after a fault the next rebuild starts from what is really
// on disk. The live tree's manifest, sources and basis are written by `record` once the session
// has settled (session.ts), never on the way to an edit's answers.

import { rmdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Sources } from '../content/fingerprint.ts';
import { SITE_INDEX_FILE } from '../core/files.ts';
import type { OutputFile, RecordBytes, WrittenAhead } from '../output/file.ts';
import { otherSlot, pointAt, type Slot, slotDir } from '../output/generations.ts';
import { changesBetween, type FileFacts } from '../output/manifest.ts';
import { writeAhead } from '../output/replace-file.ts';
import { SpareFiles } from '../output/spare-files.ts';
import type { TreeWriter } from '../output/tree-writer.ts';
import { sameBody } from '../render/render-site.ts';
import { describeFault } from './describe-fault.ts';
import { type Generation, type HashedFile, type LiveTree, type Tree, writeTrees } from './first-trees.ts';
import { slices } from './slices.ts';

/**
 * A directory of this process's beside the output (on its file system, out of readers' sight, swept
 * by the next build if this process dies: output/trash.ts): what is written ahead, the spare files.
 */
function besideOutput(outDir: string, of: 'record' | 'downloads' | 'spare'): string {
  return join(dirname(outDir), `.${basename(outDir)}-${of}-${process.pid}`);
}

/** How long a tree that just went out of service is left alone before it is updated in place. */
const GRACE_MS = 1000;

/** Calls `visit` with the path and body of every file of a site, each path once. */
type Files = (visit: (path: string, body: OutputFile['body']) => void) => void;

export const ofOutput =
  (files: readonly OutputFile[]): Files =>
  (visit) => {
    for (const f of files) visit(f.path, f.body);
  };
const ofTree =
  (tree: Tree): Files =>
  (visit) => {
    for (const [path, body] of tree) visit(path, body);
  };

/** A file written ahead (session.ts, the downloads): where, the hash of its bytes, and those bytes. */
export interface FileAhead extends WrittenAhead {
  body: Uint8Array;
}

/**
 * Writes those of `files` whose bytes differ from what `gen` holds; returns their paths. A file
 * written ahead with the same bytes (`ahead`, by path) is renamed into place instead.
 */
export function applySome(
  gen: Generation,
  files: readonly OutputFile[],
  ahead: ReadonlyMap<string, FileAhead> = new Map(),
): string[] {
  const changed: string[] = [];
  for (const { path, body } of files) {
    if (sameBody(gen.bodies.get(path), body)) continue;
    const made = ahead.get(path);
    if (made?.body === body) gen.writer.adopt(path, made.temp, made.hash);
    else gen.writer.write(path, body);
    gen.bodies.set(path, body);
    changed.push(path);
  }
  return changed;
}

/**
 * Bytes from which a file is written ahead (TwinTrees.writeAhead) and linked from the other tree
 * rather than written again (applyFiles): the downloads (the sample's database is 332 KB, the whole
 * diary's 20.9 MB), not the site's pages.
 */
const LINK_BYTES = 64 * 1024;

/** A body in pieces of a megabyte, so that writing it ahead lets the event loop turn between them. */
function* piecesOf(body: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < body.length; at += 1 << 20) yield body.subarray(at, at + (1 << 20));
}

/** Writes `body` at `path` in `gen`, or links it from `linkFrom`'s tree, which holds it, when it is large. */
function put(gen: Generation, path: string, body: OutputFile['body'], linkFrom: TreeWriter | undefined): void {
  if (linkFrom !== undefined && typeof body !== 'string' && body.length >= LINK_BYTES) {
    gen.writer.linkOrWrite(path, body, linkFrom);
  } else gen.writer.write(path, body);
}

/**
 * Makes `gen` hold `files`, and updates what it holds to match, in place: a long session does not
 * churn a new map of every path per rebuild. Returns the paths that differed.
 */
export function applyFiles(gen: Generation, files: Files, linkFrom?: TreeWriter): string[] {
  const changed: string[] = [];
  let count = 0;
  files((path, body) => {
    count++;
    if (!sameBody(gen.bodies.get(path), body)) {
      put(gen, path, body, linkFrom);
      gen.bodies.set(path, body);
      changed.push(path);
    }
  });
  // Every path of `files` is in the tree now: more paths than that means some are gone.
  if (gen.bodies.size > count) {
    const wanted = new Set<string>();
    files((path) => wanted.add(path));
    const gone: string[] = [];
    for (const path of [...gen.bodies.keys()]) {
      if (!wanted.has(path)) {
        gen.writer.remove(path);
        gen.bodies.delete(path);
        gone.push(path);
      }
    }
    gen.writer.removeEmptyDirs(gone);
    changed.push(...gone);
  }
  return changed;
}

/** Both generations of an output, the live one and the other, with what each holds. */
export class TwinTrees {
  private live: Slot;
  private readonly gens: Record<Slot, Generation>;
  private catchUp: NodeJS.Timeout | null = null;
  /** The tree that is not live lacks the changes of the last swap (the catch-up is pending). */
  private behind = false;
  /** The tree that is not live was partly written by a rebuild that failed: swap it even if the next rebuild writes nothing. */
  private diverged = false;
  /**
   * What the last manifest written by `record` listed, for its list of changes; before the first,
   * the output's before the session (null: unknown).
   */
  private recorded: Map<string, FileFacts> | null;
  private readonly outDir: string;
  private readonly warn: (line: string) => void;
  /** Names the files written ahead, each its own (a stopped run's may still be in the directory). */
  private aheadCount = 0;
  /** Empty files both trees' writers write into (output/spare-files.ts). */
  private readonly spares: SpareFiles;

  private constructor(
    outDir: string,
    live: Slot,
    gens: Record<Slot, Generation>,
    warn: (line: string) => void,
    before: Map<string, FileFacts> | null,
    spares: SpareFiles,
  ) {
    this.outDir = outDir;
    this.warn = warn;
    this.live = live;
    this.gens = gens;
    this.recorded = before;
    this.spares = spares;
    spares.fill();
  }

  /**
   * Writes both generations of `outDir` with `files`, then the files `later` gives (first-trees.ts
   * writeTrees): the slot not live now first, which goes live, then the other. `before`: the
   * output's live tree as its trusted manifest lists it (null: no such tree), whose files the
   * first tree takes where their bytes are the same, and which the first manifest's list of
   * changes is told from, as a build's is (output/writer.ts).
   */
  static async write(
    outDir: string,
    live: Slot,
    files: readonly OutputFile[],
    warn: (line: string) => void,
    before: LiveTree | null,
    later: Promise<readonly HashedFile[]> = Promise.resolve([]),
  ): Promise<TwinTrees> {
    const spares = new SpareFiles(besideOutput(outDir, 'spare'));
    const gens = await writeTrees(outDir, live, files, later, spares, before);
    return new TwinTrees(outDir, live, gens, warn, before?.files ?? null, spares);
  }

  /** The generation that is live. */
  get liveSlot(): Slot {
    return this.live;
  }

  /** What the live tree holds. */
  get liveTree(): Tree {
    return this.gens[this.live].bodies;
  }

  /** Stops the pending catch-up (the trees stay as they are); removes what was written ahead. */
  close(): void {
    if (this.catchUp !== null) clearTimeout(this.catchUp);
    this.catchUp = null;
    rmSync(this.aheadDir('downloads'), { recursive: true, force: true });
    this.spares.close();
  }

  /**
   * Brings the inactive tree up to the new site with `apply` (it returns the paths it changed),
   * and makes that tree live if anything changed, or if an earlier attempt may have left it
   * different from the live one. Returns the changed paths. The inactive tree equals the live one
   * (the catch-up saw to it): what differs from it is exactly what differs from the live site.
   */
  goLive(apply: (gen: Generation) => string[]): string[] {
    const target = otherSlot(this.live);
    const gen = this.gens[target];
    const diverged = this.diverged;
    this.diverged = true;
    const changed = apply(gen);
    if (changed.length > 0 || diverged) {
      if (!changed.includes(SITE_INDEX_FILE)) this.renewIndex(gen);
      pointAt(this.outDir, target);
      this.live = target;
      this.behind = true;
      this.scheduleCatchUp();
    }
    this.diverged = false;
    return changed;
  }

  /** The live tree's hashes left for later, made ahead of its record (tree-writer.ts hashAhead). */
  hashAhead(go: () => Promise<boolean>): Promise<boolean> {
    return this.gens[this.live].writer.hashAhead(go);
  }

  /**
   * Where the live tree's records (live-record.ts) or the downloads are written ahead: beside the
   * output, not in a tree that readers see, and swept by the next build if this process dies
   * (output/trash.ts).
   */
  aheadDir(of: 'record' | 'downloads'): string {
    return besideOutput(this.outDir, of);
  }

  /**
   * Writes ahead those of `files` (the downloads: tens of megabytes) that are large and differ from
   * the live tree's, a slice at a time while `wanted()`: going live is then a rename of each
   * (applySome) instead of a write that keeps the server from answering. What was written so far
   * when it is no longer wanted is given back too, for discardAhead.
   */
  async writeAhead(
    files: readonly { path: string; body: Uint8Array }[],
    wanted: () => boolean,
  ): Promise<Map<string, FileAhead>> {
    const ahead = new Map<string, FileAhead>();
    const go = slices(wanted);
    try {
      for (const { path, body } of files) {
        if (body.length < LINK_BYTES || sameBody(this.liveTree.get(path), body)) continue;
        const name = `${++this.aheadCount}`;
        const made = await writeAhead(this.aheadDir('downloads'), name, piecesOf(body), go);
        if (made === null) break;
        ahead.set(path, { ...made, body });
      }
    } catch (err) {
      this.discardAhead(ahead);
      throw err;
    }
    return ahead;
  }

  /** Removes what writeAhead wrote and applySome did not rename into a tree, and the directory once empty. */
  discardAhead(ahead: ReadonlyMap<string, FileAhead>): void {
    for (const { temp } of ahead.values()) rmSync(temp, { force: true });
    try {
      rmdirSync(this.aheadDir('downloads'));
    } catch {
      // Not there, or another run's file is still in it (that run removes it).
    }
  }

  /**
   * Writes the live tree's manifest (made of `inputs`, this generator's), with its sources and
   * basis beside it: what `npm run build` then trusts (output/rebuild.ts). The caller says the
   * tree is of those inputs (session.ts); what changed is told from the last manifest written here.
   */
  record(inputs: string, sources: Sources | WrittenAhead, basis: RecordBytes | null): void {
    const { writer } = this.gens[this.live];
    const files = writer.facts();
    const changes = this.recorded === null ? null : changesBetween(this.recorded, files);
    writer.record(inputs, changes, sources, basis);
    // A copy of the facts, each hashed: a file written later gets new ones.
    this.recorded = new Map(files);
  }

  /**
   * Writes the site index of the tree about to go live again when its bytes did not change: the
   * local server keys what it has loaded of a generation on the index's identity, and a tree that
   * goes live again after being brought up to date in place must not look like the one it loaded
   * before. Written again, as the one-shot rebuild does (output/rebuild.ts commit).
   */
  private renewIndex(gen: Generation): void {
    const body = gen.bodies.get(SITE_INDEX_FILE);
    if (body !== undefined) gen.writer.write(SITE_INDEX_FILE, body);
  }

  private scheduleCatchUp(): void {
    if (this.catchUp !== null) clearTimeout(this.catchUp);
    this.catchUp = setTimeout(() => {
      try {
        this.finishCatchUp();
      } catch (err) {
        // Retried at the start of the next rebuild.
        this.warn(`bringing ${slotDir(this.outDir, otherSlot(this.live))} up to date failed: ${describeFault(err)}`);
      }
    }, GRACE_MS);
    this.catchUp.unref();
  }

  /** Brings the inactive tree up to the live one; returns the number of files it rewrote. */
  finishCatchUp(): number {
    if (this.catchUp !== null) clearTimeout(this.catchUp);
    this.catchUp = null;
    if (!this.behind) return 0;
    // The live tree holds each of these files: a large one is linked from there.
    const live = this.gens[this.live];
    const n = applyFiles(this.gens[otherSlot(this.live)], ofTree(live.bodies), live.writer).length;
    this.behind = false;
    return n;
  }
}
