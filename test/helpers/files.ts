// File trees in tests.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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
      else out.set(path, readFileSync(join(dir, path)));
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
