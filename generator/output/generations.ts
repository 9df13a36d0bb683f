// The generation layout, for rebuilds that rewrite only what changed and are still atomic:
//
//   public -> .public-gen-a      the output path is a symlink to the live generation
//   .public-gen-a/               the live tree, read by the server or anyone else
//   .public-gen-b/               the other tree: the next rebuild brings it up to date, then the
//                                symlink is swapped to it with one rename(2)
//
// A reader resolves `public/...` either through the old symlink or the new one: each file it
// opens is wholly of one generation, and the set it sees switches at one instant. What this does
// not cover is a reader that resolved the old tree and keeps reading it past the *next* rebuild,
// which updates that tree in place (each file by rename, so never a half-written file).

import { readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { lstatOrNull } from '../paths.ts';
import { checkOwnOutput, orRefuse } from './guard.ts';
import { discard } from './trash.ts';

export type Slot = 'a' | 'b';

function slotName(outDir: string, slot: Slot): string {
  return `.${basename(outDir)}-gen-${slot}`;
}

export function slotDir(outDir: string, slot: Slot): string {
  return join(dirname(outDir), slotName(outDir, slot));
}

/** The slot the output's symlink points at; null when the output is not such a symlink. */
export function activeSlot(outDir: string): Slot | null {
  let target: string;
  try {
    target = readlinkSync(outDir);
  } catch {
    return null;
  }
  for (const slot of ['a', 'b'] as const) if (basename(target) === slotName(outDir, slot)) return slot;
  return null;
}

export function otherSlot(slot: Slot | null): Slot {
  return slot === 'a' ? 'b' : 'a';
}

/**
 * Points the output at `slot` with one rename of a fresh symlink over the old one. An output that
 * is still a plain directory is first moved aside (the one moment the path does not exist); one
 * that the writer did not make is refused (RefusedError), and nothing is changed.
 */
export function pointAt(outDir: string, slot: Slot): void {
  const link = join(dirname(outDir), `.${basename(outDir)}-link-${process.pid}`);
  rmSync(link, { force: true });
  // Relative, so that the layout can be moved or mounted elsewhere as a whole.
  symlinkSync(slotName(outDir, slot), link, 'dir');
  // No output yet, or not a directory (a symlink to a generation): one rename.
  if (lstatOrNull(outDir)?.isDirectory() !== true) {
    renameSync(link, outDir);
    return;
  }
  // Moved aside whole: only a tree the writer made (or an empty directory) may be. Aside under
  // the name a killed build's sweep puts back (trash.ts), until the link has replaced it.
  const own = checkOwnOutput(outDir);
  if (!own.ok) rmSync(link, { force: true });
  orRefuse(own);
  const prev = join(dirname(outDir), `.${basename(outDir)}-prev-${process.pid}`);
  rmSync(prev, { recursive: true, force: true });
  renameSync(outDir, prev);
  try {
    renameSync(link, outDir);
  } catch (err) {
    renameSync(prev, outDir);
    throw err;
  }
  void discard(prev, outDir);
}
