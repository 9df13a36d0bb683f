// A manifest larger than its tree could need (issue 36, item 12): a 162 MB `.pepys-manifest.json`
// cost a rebuild 10.5 s and 1.66 GB to parse. It is now not read at all: untrusted, as if absent
// (a full build, with a warning naming it); and a manifest of a tree that truly has that many
// files is still read (output/manifest.ts manifestBudget).

import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { build } from '../generator/build.ts';
import {
  checkTree,
  type FileFacts,
  factsOf,
  hashBytes,
  loadManifest,
  MANIFEST_FILE,
  readManifest,
  writeManifest,
} from '../generator/output/manifest.ts';
import { smallSite, writeContent } from './helpers/content.ts';
import { tempDir } from './helpers/temp.ts';

vi.setConfig({ testTimeout: 60_000 });

describe('a manifest larger than its tree could need', () => {
  it('is not read: the build writes a whole new tree and says why', async () => {
    const content = writeContent(smallSite());
    const out = join(tempDir('pepys-manifest-size-'), 'public');
    await build({ contentDir: content, outDir: out, quiet: true, env: {} });
    // The same manifest, made 40 MB by white space before its last brace: valid JSON, every
    // row true (read, it would be trusted and the build would say nothing changed).
    const path = join(out, MANIFEST_FILE);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, `${text.slice(0, text.lastIndexOf('}'))}${' '.repeat(40 * 1024 * 1024)}}\n`);

    const untrusted = loadManifest(out);
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    let report: Awaited<ReturnType<typeof build>>;
    try {
      report = await build({ contentDir: content, outDir: out, env: {} });
    } finally {
      spy.mockRestore();
    }
    expect(report.mode).toBe('full');
    expect(lines.join('')).toMatch(
      /warning: .*\.pepys-manifest\.json is 40\.\d MiB, more than a manifest of its tree needs \(\d+\.\d MiB\): not trusted/,
    );
    expect(untrusted).toMatchObject({
      manifest: null,
      untrusted: expect.stringMatching(/is 40\.\d MiB, more than a manifest of its tree needs/),
    });
    // The new tree's own manifest is read again.
    expect(readManifest(out)).not.toBeNull();
  });

  it('a manifest past the size read without a look at the tree, of a tree that has that many files, is read', () => {
    const dir = tempDir('pepys-manifest-many-');
    const files = new Map<string, FileFacts>();
    // 12,000 files with names of 240 characters: a manifest of ≈4.5 MB.
    for (let d = 0; d < 12; d++) {
      mkdirSync(join(dir, `d${d}`));
      for (let i = 0; i < 1000; i++) {
        const path = `d${d}/${String(i).padStart(240, 'x')}`;
        writeFileSync(join(dir, path), path);
        files.set(path, factsOf(hashBytes(path), statSync(join(dir, path))));
      }
    }
    writeManifest(dir, { inputs: null, generator: null, files, changes: null });
    const m = readManifest(dir);
    expect(m?.files.size).toBe(12_000);
    expect(checkTree(dir, m as NonNullable<typeof m>)).toBe(true);
  });
});
