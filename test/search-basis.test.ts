// What a rebuild reuses of the last build's search index (render/search-basis.ts): read back from a
// built tree, the entries' index is exactly the one the build made from the model, and the entries
// are the model's; a tree whose files do not hold together gives nothing (the index is then made
// whole). The live tree's files are read only as its manifest lists them (output/rebuild.ts
// readLive).

import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { readContent, validate } from '../generator/content/load.ts';
import { SITE_INDEX_FILE, searchDocsFile, searchShardFile } from '../generator/core/files.ts';
import type { Entry } from '../generator/core/model.ts';
import { entryFields } from '../generator/core/search/documents.ts';
import { MANIFEST_FILE } from '../generator/output/manifest.ts';
import { beginRebuild } from '../generator/output/rebuild.ts';
import { entriesBasis } from '../generator/render/search-basis.ts';
import { collectionIndex } from '../generator/render/search-index.ts';
import { writeContent } from './helpers/content.ts';
import { packPath } from './helpers/files.ts';
import { mediumSite } from './helpers/medium-site.ts';
import { tempDir } from './helpers/temp.ts';

async function built() {
  const contentDir = writeContent(mediumSite(120, 40));
  const out = join(tempDir('pepys-basis-'), 'public');
  await build({ contentDir, outDir: out, quiet: true, env: {} });
  const v = validate(await readContent(contentDir, { env: {}, readAhead: false }));
  if (!v.ok) throw new Error(v.problems[0]?.message);
  const files = new Map<string, Uint8Array | null>();
  const read = (path: string): Uint8Array | null => {
    if (files.has(path)) return files.get(path) ?? null;
    try {
      return readFileSync(join(out, path));
    } catch {
      return null;
    }
  };
  return { out, model: v.model, files, read };
}

describe("the last build's entries index, read back", () => {
  it('is the index the build made of the model, and the entries are the model’s', async () => {
    const { model, read } = await built();
    const basis = entriesBasis(read);
    expect(basis).not.toBeNull();
    const made = collectionIndex('entries', model.entries.length, (doc) => entryFields(model.entries[doc] as Entry));
    expect(basis?.index).toEqual({ ...made, postings: new Map(made.postings) });
    expect(basis?.entries).toEqual(
      model.entries.map(({ date, title, entryHTML, footnotesHTML }) => ({ date, title, entryHTML, footnotesHTML })),
    );
  });

  it('is nothing when a file is missing, damaged or of another build', async () => {
    const { out, model, files, read } = await built();
    const docs = searchDocsFile('entries');
    const docsText = new TextDecoder().decode(read(docs) as Uint8Array);
    const shard = searchShardFile('entries', 0);
    const shardText = new TextDecoder().decode(read(shard) as Uint8Array);
    const lines = shardText.split('\n').filter((l) => l !== '');
    const pack = packPath(out, 'entries', model.entries[0]?.date as string);
    const damaged: Array<[string, string, Uint8Array | null]> = [
      ['the site index missing', SITE_INDEX_FILE, null],
      ['the statistics missing', docs, null],
      [
        'the statistics of fewer documents',
        docs,
        new TextEncoder().encode(docsText.replace(/"count":\d+/, '"count":3')),
      ],
      ['the statistics not JSON', docs, new TextEncoder().encode(`${docsText}}`)],
      ['a shard missing', shard, null],
      ['a shard out of order', shard, new TextEncoder().encode(`${[...lines].reverse().join('\n')}\n`)],
      ['a shard cut short', shard, new TextEncoder().encode(shardText.slice(0, -1))],
      ['a shard not UTF-8', shard, new Uint8Array([0xff, 0xfe, 0x09, 0x41, 0x0a])],
      ['a pack of entries missing', pack, null],
    ];
    expect(lines.length).toBeGreaterThan(1);
    for (const [what, path, bytes] of damaged) {
      files.clear();
      files.set(path, bytes);
      expect(entriesBasis(read), what).toBeNull();
    }
  });
});

describe("a rebuild's reads of the live tree", () => {
  it('give nothing of a tree another generator made, or one whose manifest does not say', async () => {
    const { out } = await built();
    const path = searchShardFile('entries', 0);
    const manifest = join(out, MANIFEST_FILE);
    const text = readFileSync(manifest, 'utf8');
    const generator = /"generator":("[0-9a-f]{64}")/.exec(text)?.[1];
    expect(generator).toBeDefined();
    for (const [what, changed] of [
      ['another generator', text.replace(generator as string, `"${'0'.repeat(64)}"`)],
      ['none recorded', text.replace(`"generator":${generator},`, '')],
    ] as const) {
      writeFileSync(manifest, changed);
      const rebuild = beginRebuild(out);
      if (rebuild === null) throw new Error(`${what}: no rebuild`);
      try {
        expect(rebuild.readLive(path), what).toBeNull();
      } finally {
        await rebuild.abandon();
      }
      writeFileSync(manifest, text);
    }
  });

  it('give a file only as its manifest lists it', async () => {
    const { out } = await built();
    const path = searchShardFile('entries', 0);
    const file = join(out, path);
    const bytes = readFileSync(file);
    const rebuild = beginRebuild(out);
    if (rebuild === null) throw new Error('no rebuild');
    try {
      expect(rebuild.readLive(path)).toEqual(bytes);
      expect(rebuild.readLive('not/a/file/of/the/build.json')).toBeNull();
      // Changed in place, its size and time kept: what the manifest's facts of the file cannot
      // tell, the hash of its bytes does.
      const { atime, mtime } = statSync(file);
      const changed = Buffer.from(bytes);
      changed[0] = changed[0] === 0x61 ? 0x62 : 0x61;
      writeFileSync(file, changed);
      utimesSync(file, atime, mtime);
      expect(rebuild.readLive(path)).toBeNull();
    } finally {
      await rebuild.abandon();
    }
  });
});
