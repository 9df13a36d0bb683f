// A build's records written in pieces (output/file.ts Pieces): the basis is made a line at a time
// as it is written and hashed (render/basis.ts basisPieces), never held whole; the bytes and
// hashes are those of the whole (docs/performance.md, "Memory").

import { randomFillSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContent, validate } from '../generator/content/load.ts';
import type { Pieces } from '../generator/output/file.ts';
import { BASIS_FILE, hashBytes, readManifest, writeManifest } from '../generator/output/manifest.ts';
import { replaceFile } from '../generator/output/replace-file.ts';
import { basisPieces, basisSteps } from '../generator/render/basis.ts';
import { searchIndexFilesInSteps } from '../generator/render/search-index.ts';
import { runToEnd } from '../generator/render/steps.ts';
import { writeContent } from './helpers/content.ts';
import { mediumSite } from './helpers/medium-site.ts';
import { tempDir } from './helpers/temp.ts';

/** Random bytes cut into pieces of many sizes, some past the writer's 1 MiB batch, some empty. */
function randomPieces(): Uint8Array[] {
  const sizes = [0, 1, 7, 4096, 65_536, (1 << 20) - 3, 1 << 20, (1 << 20) + 5, 3 << 20, 12, 0, 900_000];
  return sizes.map((size) => randomFillSync(new Uint8Array(size)));
}

const whole = (pieces: readonly Uint8Array[]) => Buffer.concat(pieces);

/** Pieces made as they are asked for, counting how many times they were. */
function counted(pieces: readonly Uint8Array[]): Pieces & { made: number } {
  const p = {
    made: 0,
    *pieces() {
      p.made++;
      yield* pieces;
    },
  };
  return p;
}

describe('a file written in pieces', () => {
  it('holds the bytes of the pieces joined, whatever their sizes', () => {
    const dir = tempDir('pepys-pieces-');
    for (let round = 0; round < 3; round++) {
      const pieces = randomPieces();
      replaceFile(dir, 'sub/dir/record', pieces.values());
      expect(readFileSync(join(dir, 'sub/dir/record')).equals(whole(pieces))).toBe(true);
    }
    // Nothing left beside it (the temporary file was renamed).
    expect(readdirSync(join(dir, 'sub/dir'))).toEqual(['record']);
  });

  it('leaves the old file as it was, and no temporary file, when making a piece fails', () => {
    const dir = tempDir('pepys-pieces-fail-');
    writeFileSync(join(dir, 'record'), 'old');
    function* failing() {
      yield Buffer.from('new and ');
      throw new Error('a piece failed');
    }
    expect(() => replaceFile(dir, 'record', failing())).toThrow('a piece failed');
    expect(readFileSync(join(dir, 'record'), 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['record']);
  });

  it('is written and hashed as the whole is, in one making, by the manifest', () => {
    const dir = tempDir('pepys-pieces-manifest-');
    const pieces = randomPieces();
    const record = counted(pieces);
    const hash = writeManifest(dir, { inputs: 'x', generator: 'g', files: new Map(), changes: null }, null, record);
    expect(record.made).toBe(1);
    expect(hash).toBe(hashBytes(whole(pieces)));
    expect(readFileSync(join(dir, BASIS_FILE)).equals(whole(pieces))).toBe(true);
    expect(readManifest(dir)?.basis).toBe(hashBytes(whole(pieces)));
    // Given whole, the same; given none, the basis file is removed.
    expect(
      writeManifest(dir, { inputs: 'x', generator: 'g', files: new Map(), changes: null }, null, whole(pieces)),
    ).toBe(hash);
    expect(writeManifest(dir, { inputs: 'x', generator: 'g', files: new Map(), changes: null }, null, null)).toBeNull();
    expect(existsSync(join(dir, BASIS_FILE))).toBe(false);
  });
});

describe('the basis in pieces', () => {
  it('is the whole basis, made anew each time it is asked for, a line a piece', async () => {
    const contentDir = writeContent(mediumSite(60, 30));
    const v = validate(await readContent(contentDir, { env: {}, readAhead: false }));
    if (!v.ok) throw new Error(v.problems[0]?.message);
    const { model } = v;
    const search = runToEnd(searchIndexFilesInSteps(model)).index;
    const stepped = [...runToEnd(basisSteps(model, search)).pieces()];
    const bytes = whole(stepped);
    const basis = basisPieces(model, search);
    const lines = [...basis.pieces()];
    expect(whole(lines).equals(bytes)).toBe(true);
    expect(whole([...basis.pieces()]).equals(bytes)).toBe(true);
    // A line a piece (nothing joined): the head, a record a line, then the two indexes' lines.
    expect(lines.length).toBe(bytes.toString('utf8').split('\n').length - 1);
    expect(lines.every((l) => l.at(-1) === 0x0a && l.indexOf(0x0a) === l.length - 1)).toBe(true);
    // Made in steps (the watch mode's record), the same lines, never joined.
    expect(stepped.length).toBe(lines.length);
  });
});
