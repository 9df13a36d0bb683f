// File trees in tests.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE } from '../../generator/output/manifest.ts';

/**
 * A file's body as a string to compare: text as it is, the bytes of a binary file (the downloads:
 * gzip, SQLite) in base64, so that no difference is lost to UTF-8 decoding.
 */
export function comparable(body: string | Uint8Array): string {
  return typeof body === 'string' ? body : `base64:${Buffer.from(body).toString('base64')}`;
}

const BINARY = /\.(gz|sqlite)$/;

/** Every file under `dir`: relative `/`-separated path → its bytes, in sorted order. */
export function readTreeBytes(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (rel: string) => {
    const items = readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const d of items) {
      const path = rel === '' ? d.name : `${rel}/${d.name}`;
      if (d.isDirectory()) walk(path);
      // The build's record of the tree (inodes and times): not part of what it serves.
      else if (path !== MANIFEST_FILE) out.set(path, readFileSync(join(dir, path)));
    }
  };
  walk('');
  return out;
}

/** Every file under `dir`: relative `/`-separated path → text (see comparable), in sorted order. */
export function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, bytes] of readTreeBytes(dir))
    out.set(path, BINARY.test(path) ? comparable(bytes) : bytes.toString('utf8'));
  return out;
}

/**
 * A hash of each directory's files under `dir` (its direct files: their names and bytes), 16 hex
 * digits, by `/`-separated directory path ('' for `dir` itself); `skip` files are left out.
 */
export function directoryHashes(dir: string, skip: readonly string[] = []): Map<string, string> {
  const lines = new Map<string, string[]>();
  for (const [path, bytes] of readTreeBytes(dir)) {
    if (skip.includes(path)) continue;
    const cut = path.lastIndexOf('/');
    const parent = cut === -1 ? '' : path.slice(0, cut);
    const list = lines.get(parent) ?? [];
    list.push(`${path.slice(cut + 1)} ${createHash('sha256').update(bytes).digest('hex')}`);
    lines.set(parent, list);
  }
  const out = new Map<string, string>();
  for (const [parent, list] of [...lines].sort(([a], [b]) => (a < b ? -1 : 1)))
    out.set(parent, createHash('sha256').update(list.join('\n')).digest('hex').slice(0, 16));
  return out;
}
