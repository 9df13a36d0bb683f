// File trees in tests.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** Every file under `dir`: relative `/`-separated path → text, in sorted order. */
export function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    const items = readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const d of items) {
      const path = rel === '' ? d.name : `${rel}/${d.name}`;
      if (d.isDirectory()) walk(path);
      else out.set(path, readFileSync(join(dir, path), 'utf8'));
    }
  };
  walk('');
  return out;
}

/** A maker of fresh temp directories, all removed after the calling test file. */
export function tempDirs(prefix: string): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
