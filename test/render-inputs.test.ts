// What the watch mode records its output was made of (watch/render-inputs.ts): the fingerprint and
// sources a build records, with each file read and hashed at the first record and, at the next,
// only looked at when its parse and its signature on disk are still those it was hashed at.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFingerprint } from '../generator/content/fingerprint.ts';
import { readContent, validate } from '../generator/content/load.ts';
import type { Fragments } from '../generator/render/render-site.ts';
import { renderSite } from '../generator/render/render-site.ts';
import { basisOf, type RenderBasis } from '../generator/watch/fast-path.ts';
import { type KeptDigests, renderInputs } from '../generator/watch/render-inputs.ts';
import { smallSite, writeContent } from './helpers/content.ts';

const OPTIONS = { env: {} };

/** The content as a session holds it once it has rendered it. */
async function basisOfContent(contentDir: string): Promise<RenderBasis> {
  const state = await readContent(contentDir, OPTIONS);
  const v = validate(state);
  if (!v.ok) throw new Error(v.problems[0]?.message);
  let fragments: Fragments | null = null;
  renderSite(v.model, undefined, { fragments: (f) => (fragments = f), withoutDownloads: true });
  if (fragments === null) throw new Error('no fragments');
  return basisOf(state, { model: v.model, fragments });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('renderInputs', () => {
  it("gives a build's fingerprint, and at the next record takes the hash kept for a file still as it was read", async () => {
    const contentDir = writeContent(smallSite());
    // Past the time in which what is read from a file is not trusted to be what its signature says
    // (read-file.ts RACY_MS).
    await sleep(1100);
    const basis = await basisOfContent(contentDir);
    const kept: KeptDigests = new Map();
    const first = await renderInputs(contentDir, basis, OPTIONS, () => false, kept);
    expect(first?.fingerprint).toBe(buildFingerprint(contentDir, OPTIONS));
    const files = [...basis.parsed.keys()];
    expect([...kept.keys()].sort()).toEqual(files.sort());

    // A kept hash is taken as it is: made wrong on purpose, it shows in the next fingerprint.
    const file = files.find((f) => f.startsWith('entries/')) as string;
    const real = kept.get(file)?.digest;
    kept.set(file, { signature: kept.get(file)?.signature as string, digest: 'not-the-hash' });
    const again = await renderInputs(contentDir, basis, OPTIONS, () => false, kept);
    expect(again?.sources.files.get(file)).toBe('not-the-hash');
    expect(again?.fingerprint).not.toBe(first?.fingerprint);

    // A file changed on disk since (another signature) is read again: the content is then not what
    // the basis was made of, and nothing is recorded.
    kept.set(file, { signature: kept.get(file)?.signature as string, digest: real as string });
    const path = join(contentDir, file);
    writeFileSync(path, readFileSync(path, 'utf8').replace('</p>', ' (edited)</p>'));
    expect(await renderInputs(contentDir, basis, OPTIONS, () => false, kept)).toBeNull();
    expect(kept.has(file)).toBe(false);

    // And a basis of the new content is recorded with the new bytes' hash (read, not kept: the
    // file is too recent for its signature to be trusted).
    const renewed = await basisOfContent(contentDir);
    const inputs = await renderInputs(contentDir, renewed, OPTIONS, () => false, kept);
    expect(inputs?.fingerprint).toBe(buildFingerprint(contentDir, OPTIONS));
    expect(kept.has(file)).toBe(false);
    expect(kept.size).toBe(files.length - 1);

    // A file that is no longer content is no longer kept.
    kept.set('entries/1999/1999-01-01.html', { signature: 'gone', digest: 'gone' });
    await renderInputs(contentDir, renewed, OPTIONS, () => false, kept);
    expect(kept.has('entries/1999/1999-01-01.html')).toBe(false);
  });
});
