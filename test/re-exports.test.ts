// One home per name (issue 33): a generator module exports what it defines, and its importers name
// the module that defines it, never a module that passes it on (`export … from`). A re-export
// is a second address for the same fact, and a way around the import check's layers.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const GENERATOR = join(import.meta.dirname, '..', 'generator');

/**
 * The one kept: build.ts is the build's public entry (the package's users import build() and its
 * options and report from it), whose types live in build-types.ts so that unchanged.ts need not
 * import the build.
 */
const PENDING: ReadonlySet<string> = new Set(['build.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((dirent) => {
    const path = join(dir, dirent.name);
    if (dirent.isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(dirent.name) ? [path] : [];
  });
}

const RE_EXPORT = /^\s*export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s*from\s*['"]/m;

describe('re-exports', () => {
  it('no generator module passes on the names of another', () => {
    const found = sourceFiles(GENERATOR)
      .map((file) => relative(GENERATOR, file).split('\\').join('/'))
      .filter((file) => !PENDING.has(file) && RE_EXPORT.test(readFileSync(join(GENERATOR, file), 'utf8')));
    expect(found).toEqual([]);
  });
});
