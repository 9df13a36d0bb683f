// A directory tree as a comparable value: every entry (dot files included), with the hash of
// each file's bytes and the target of each symlink. Two snapshots are equal when the trees are.

import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { ASSETS_IGNORE_FILE, BASIS_FILE, MANIFEST_FILE, SOURCES_FILE } from '../../generator/output/manifest.ts';

/** relative path → 'dir', 'link:<target>' or 'file:<sha1>'; null when `dir` does not exist. */
export function snapshot(dir: string): Map<string, string> | null {
  try {
    lstatSync(dir);
  } catch {
    return null;
  }
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    const abs = rel === '' ? dir : join(dir, rel);
    const s = lstatSync(abs);
    if (s.isSymbolicLink()) out.set(rel, `link:${readlinkSync(abs)}`);
    else if (s.isDirectory()) {
      out.set(rel, 'dir');
      for (const name of readdirSync(abs).sort()) walk(rel === '' ? name : `${rel}/${name}`);
    } else out.set(rel, `file:${createHash('sha1').update(readFileSync(abs)).digest('hex')}`);
  };
  walk('');
  return out;
}

/**
 * The output as a reader of it sees it: the tree it points at when it is the generation symlink
 * (output/rebuild.ts), without the build's manifest (its inodes and times differ from tree to
 * tree). Null when there is no output.
 */
export function servedSnapshot(outDir: string): Map<string, string> | null {
  let dir: string;
  try {
    dir = realpathSync(outDir);
  } catch {
    return null;
  }
  const tree = snapshot(dir);
  tree?.delete(MANIFEST_FILE);
  tree?.delete(SOURCES_FILE);
  tree?.delete(BASIS_FILE);
  tree?.delete(ASSETS_IGNORE_FILE);
  return tree;
}
