// The watch mode's two generations of the output (output/generations.ts) as its session starts:
// the site rendered whole, written once. The tree not live is written (a staging tree, by the
// writer's thread as a build's is, renamed into place) and goes live; the other is then made of
// hard links to its files (output/link-tree.ts: writers only ever rename a new file over one, so
// two trees may share a file until one replaces it). Over an output whose live tree its manifest trusts (a build's, a session's before), the
// first tree too starts as links to that tree's files, and only the files whose bytes differ are
// written: a session started again over its own output writes almost nothing. Where the file
// system makes no links, every tree is written.

import { mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DOWNLOADS_FILE, DOWNLOADS_WITH_LIST } from '../core/files.ts';
import type { OutputFile } from '../output/file.ts';
import { otherSlot, pointAt, type Slot, slotDir } from '../output/generations.ts';
import { MARKER_FILE, MARKER_TEXT } from '../output/guard.ts';
import { linkTree } from '../output/link-tree.ts';
import { ASSETS_IGNORE_FILE, BASIS_FILE, type FileFacts, hashBytes, SOURCES_FILE } from '../output/manifest.ts';
import { liveTree } from '../output/rebuild.ts';
import type { SpareFiles } from '../output/spare-files.ts';
import { beginTree, type ThreadTree } from '../output/thread-tree.ts';
import { discard } from '../output/trash.ts';
import { TreeWriter } from '../output/tree-writer.ts';
import { slices } from './slices.ts';

export type Tree = Map<string, OutputFile['body']>;

/** One generation: what it holds (the marker and the build's records aside), and its writer. */
export interface Generation {
  bodies: Tree;
  writer: TreeWriter;
}

/** A file of the site, with the SHA-256 of its bytes when its maker has it (the downloads'). */
export type HashedFile = OutputFile & { sha256?: string };

/** The output's live tree, as its manifest (trusted: every file as written) lists it. */
export interface LiveTree {
  dir: string;
  files: Map<string, FileFacts>;
}

/**
 * What the output held before the session: its live tree, when its manifest holds (null: none
 * such), and that tree's downloads when each has the bytes the manifest lists (the session serves
 * them until its own are made, as after an edit).
 */
export function outputBefore(outDir: string): { tree: LiveTree | null; downloads: HashedFile[] | null } {
  const live = liveTree(outDir);
  if (live === null) return { tree: null, downloads: null };
  const tree = { dir: live.dir, files: live.manifest.files };
  const downloads: HashedFile[] = [];
  for (const path of DOWNLOADS_WITH_LIST) {
    const hash = tree.files.get(path)?.hash;
    let body: OutputFile['body'];
    try {
      // The list as text, as it is made (render/downloads.ts).
      body = readFileSync(join(tree.dir, path), path === DOWNLOADS_FILE ? 'utf8' : undefined);
    } catch {
      return { tree, downloads: null };
    }
    if (hash === undefined || hashBytes(body) !== hash) return { tree, downloads: null };
    downloads.push({ path, body, sha256: hash });
  }
  return { tree, downloads };
}

/** Each fact a copy: a tree's writer changes its own. */
const copied = (files: ReadonlyMap<string, FileFacts>): Map<string, FileFacts> =>
  new Map([...files].map(([path, f]): [string, FileFacts] => [path, { ...f }]));

/** Where generation `slot` is made before it takes its place: cleared of this process's leftover. */
function freshStaging(outDir: string, slot: Slot): string {
  const staging = `${slotDir(outDir, slot)}-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  return staging;
}

/** Makes `staging` a tree of links to the files of `from`; false, and nothing left, where the file system makes none. */
function linkedStaging(from: string, staging: string): boolean {
  if (linkTree(from, staging, 'stop')) return true;
  rmSync(staging, { recursive: true, force: true });
  return false;
}

/** Puts `staging` in the place of generation `slot` (the tree there before is discarded). */
function placeStaging(outDir: string, slot: Slot, staging: string): void {
  void discard(slotDir(outDir, slot), outDir);
  renameSync(staging, slotDir(outDir, slot));
}

/**
 * The generation `slot` of `outDir` being written whole: a staging tree given its files as they
 * come (`add`), then renamed into place (`end`), the output pointed at it when `live`. A new tree
 * is written by the writer's thread (output/thread-tree.ts), this one going on meanwhile. From
 * `base`, when its links can be made, the staging tree starts as links to its files (its records
 * removed) and a file whose bytes are the same is left as linked; the others are written through
 * the tree writer, each a new file renamed over the link (never in place: the base shares it).
 * `known`: the hashes of files another tree holds with the same bytes.
 */
function stagedGeneration(
  outDir: string,
  slot: Slot,
  spares: SpareFiles,
  from: { base?: LiveTree | null; known?: ReadonlyMap<string, FileFacts> },
) {
  const staging = freshStaging(outDir, slot);
  const bodies: Tree = new Map();
  // Written whole by the writer's thread, or linked to `base` and written where it differs.
  let sink: { thread: ThreadTree } | { base: LiveTree; writer: TreeWriter };
  // A fault setting the tree up (a link or a write refused) leaves nothing behind.
  let thread: ThreadTree | undefined;
  try {
    const base = from.base ?? null;
    if (base !== null && linkedStaging(base.dir, staging)) {
      // The build's records are the session's to write (TwinTrees.record); the manifest goes
      // with the first write (TreeWriter), the marker's.
      for (const record of [SOURCES_FILE, BASIS_FILE, ASSETS_IGNORE_FILE])
        rmSync(join(staging, record), { force: true });
      const writer = new TreeWriter(staging, copied(base.files), { hashLater: true });
      writer.write(MARKER_FILE, MARKER_TEXT);
      sink = { base, writer };
    } else {
      mkdirSync(staging, { recursive: true });
      thread = beginTree(staging);
      thread.add(MARKER_FILE, MARKER_TEXT);
      sink = { thread };
    }
  } catch (err) {
    void thread?.abandon();
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  return {
    add(f: HashedFile): void {
      bodies.set(f.path, f.body);
      if ('thread' in sink) sink.thread.add(f.path, f.body, f.sha256 ?? from.known?.get(f.path)?.hash);
      else {
        const hash = f.sha256 ?? hashBytes(f.body);
        if (sink.base.files.get(f.path)?.hash !== hash) sink.writer.write(f.path, f.body, hash);
      }
    },
    async end(live: boolean): Promise<Generation> {
      let facts: Map<string, FileFacts>;
      if ('thread' in sink) facts = (await sink.thread.end()).files;
      else {
        const { base, writer } = sink;
        // The files of the tree it started from that this one does not hold.
        const gone = [...base.files.keys()].filter((path) => path !== MARKER_FILE && !bodies.has(path));
        for (const path of gone) writer.remove(path);
        writer.removeEmptyDirs(gone);
        facts = writer.facts();
      }
      placeStaging(outDir, slot, staging);
      if (live) pointAt(outDir, slot);
      // A rename moves no file: the facts hold in the tree's place. Its later writes (a few files
      // an edit) go through spare files; the staging tree's, every file of the site at once, would
      // only use them up.
      return {
        bodies,
        writer: new TreeWriter(slotDir(outDir, slot), facts, { hashLater: true, spare: () => spares.take() }),
      };
    },
    async abandon(): Promise<void> {
      if ('thread' in sink) await sink.thread.abandon();
      rmSync(staging, { recursive: true, force: true });
    },
  };
}

/**
 * The generation `slot` of `outDir` made a tree of hard links to the files of `from` (a tree just
 * made whole); null when the file system makes no such links.
 */
function linkWhole(outDir: string, slot: Slot, from: Generation, spares: SpareFiles): Generation | null {
  const staging = freshStaging(outDir, slot);
  try {
    if (!linkedStaging(from.writer.dir, staging)) return null;
    placeStaging(outDir, slot, staging);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  // A link has its file's inode, size and time: the facts of `from` hold here.
  return {
    bodies: new Map(from.bodies),
    writer: new TreeWriter(slotDir(outDir, slot), copied(from.writer.files), {
      hashLater: true,
      spare: () => spares.take(),
    }),
  };
}

/** The generation `slot` written whole with `files`, each of the bytes `known` hashes. */
async function writeWhole(
  outDir: string,
  slot: Slot,
  files: readonly OutputFile[],
  spares: SpareFiles,
  known: ReadonlyMap<string, FileFacts>,
): Promise<Generation> {
  const staged = stagedGeneration(outDir, slot, spares, { known });
  try {
    for (const f of files) staged.add(f);
    return await staged.end(false);
  } catch (err) {
    await staged.abandon();
    throw err;
  }
}

/**
 * Both generations of `outDir` holding `files` and then the files `later` gives (the downloads,
 * made on other threads meanwhile): the slot `live` first, from `base` when given, a slice at a
 * time so that those threads are sent their work between two slices; it goes live; then the other.
 * A failure leaves the output as it was.
 */
export async function writeTrees(
  outDir: string,
  live: Slot,
  files: readonly OutputFile[],
  later: Promise<readonly HashedFile[]>,
  spares: SpareFiles,
  base: LiveTree | null,
): Promise<Record<Slot, Generation>> {
  // Awaited once `files` are written: a failure meanwhile is not unhandled until then.
  later.catch(() => {});
  const staged = stagedGeneration(outDir, live, spares, { base });
  let first: Generation;
  let all: readonly OutputFile[];
  try {
    const go = slices(() => true);
    for (const f of files) {
      staged.add(f);
      await go();
    }
    const rest = await later;
    for (const f of rest) staged.add(f);
    all = rest.length === 0 ? files : [...files, ...rest];
    first = await staged.end(true);
  } catch (err) {
    await staged.abandon();
    throw err;
  }
  const other = otherSlot(live);
  const second =
    linkWhole(outDir, other, first, spares) ?? (await writeWhole(outDir, other, all, spares, first.writer.files));
  return live === 'a' ? { a: first, b: second } : { a: second, b: first };
}
