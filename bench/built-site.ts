// A built output read as the local server reads it, for the benches that call the core's handler
// in-process: its site index, and a ReadFile that keeps each file's bytes (or its absence) once read.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadFile } from '../generator/core/answer-types.ts';
import { SITE_INDEX_FILE } from '../generator/core/files.ts';
import { parseSiteIndex, type SiteIndex } from '../generator/core/site-index.ts';

export function readBuiltSite(dir: string): { site: SiteIndex; readFile: ReadFile } {
  const loaded = parseSiteIndex(readFileSync(join(dir, SITE_INDEX_FILE), 'utf8'));
  if (!loaded.ok) throw new Error(loaded.error);
  const kept = new Map<string, Uint8Array | null>();
  const readFile: ReadFile = (file) => {
    let bytes = kept.get(file);
    if (bytes === undefined) {
      try {
        bytes = readFileSync(join(dir, file));
      } catch {
        bytes = null;
      }
      kept.set(file, bytes);
    }
    return bytes;
  };
  return { site: loaded.value, readFile };
}
