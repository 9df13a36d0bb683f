// What a build records of its inputs (the manifest's fingerprint, content/fingerprint.ts) is what
// it read and rendered: a file saved while it builds must not leave an output recorded as made of
// content it was not made of, which a later build would then take for current. The build reads
// each file once: its check for anything to do reads the content, and the build parses what the
// check read (discover.ts ContentRead). The file is changed just after the check, at the moment
// the build tells its progress reporter how many files it reads.

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { build } from '../generator/build.ts';
import { type BuildProgress, SILENT_PROGRESS } from '../generator/build-types.ts';
import { emptyContentRead } from '../generator/content/discover.ts';
import { buildFingerprint } from '../generator/content/fingerprint.ts';
import { readContent } from '../generator/content/load.ts';
import { activeSlot, slotDir } from '../generator/output/generations.ts';
import { readManifest } from '../generator/output/manifest.ts';
import { smallSite, writeContent } from './helpers/content.ts';
import { readTreeBytes } from './helpers/files.ts';
import { tempDir } from './helpers/temp.ts';

vi.setConfig({ testTimeout: 120_000 });

const ENTRY = 'entries/1660/1660-01-01.html';

const run = (contentDir: string, outDir: string, progress?: BuildProgress) =>
  build({ contentDir, outDir, quiet: true, env: {}, progress });

function withText(contentDir: string, text: string): void {
  const path = join(contentDir, ENTRY);
  writeFileSync(path, readFileSync(path, 'utf8').replace(/<p>[^<]*/, `<p>${text}`));
}

describe('the inputs a build records', () => {
  it('are those it read: a file saved after its check is built by the next build', async () => {
    // A small site: the race is the same whatever the content's size.
    const content = writeContent(smallSite());
    const out = join(tempDir('pepys-inputs-'), 'public');
    await run(content, out);

    withText(content, 'Version B.');
    const madeOfB = buildFingerprint(content, { env: {} });
    const referenceB = join(tempDir('pepys-inputs-b-'), 'public');
    await run(content, referenceB);
    // The build checks (reading B), then goes on to parse what it read: C is saved just then.
    let listed = 0;
    const progress: BuildProgress = {
      ...SILENT_PROGRESS,
      counted: (message) => {
        if (message.startsWith('reading ') && ++listed === 1) withText(content, 'Version C.');
      },
    };
    expect((await run(content, out, progress)).mode).not.toBe('unchanged');
    expect(listed).toBe(1);
    const live = slotDir(out, activeSlot(out) as 'a' | 'b');
    // Recorded as made of B, which its check read and it was made of (C was not read again).
    expect(readManifest(live)?.inputs).toBe(madeOfB);
    expect(madeOfB).not.toBe(buildFingerprint(content, { env: {} }));
    expect(readTreeBytes(out)).toEqual(readTreeBytes(referenceB));

    // C is there: the next build has work to do, and makes C's output.
    expect((await run(content, out)).mode).not.toBe('unchanged');
    const reference = join(tempDir('pepys-inputs-cold-'), 'public');
    await run(content, reference);
    expect(readTreeBytes(out)).toEqual(readTreeBytes(reference));
    rmSync(reference, { recursive: true, force: true });
  });
});

describe('what the check read of the content', () => {
  it('is what the build lists, parses and fingerprints: taken out as used, nothing read again', async () => {
    const content = writeContent(smallSite());
    const read = emptyContentRead();
    const checked = buildFingerprint(content, { env: {} }, read);
    const listed = [...(read.listing?.entryFiles ?? []), ...(read.listing?.topicFiles ?? [])];
    expect(listed).toContain(ENTRY);
    expect(read.files.size).toBe(listed.length);
    for (const file of listed) expect(read.files.has(file)).toBe(true);

    // Saved after the check, and a new entry: the build uses the check's bytes and its listing.
    withText(content, 'Version C.');
    writeFileSync(join(content, 'entries/1660/1660-01-03.html'), readFileSync(join(content, ENTRY), 'utf8'));
    const state = await readContent(content, { env: {}, fingerprint: true, read });
    expect(state.fingerprint).toBe(checked);
    expect(read.files.size).toBe(0);
    expect(read.listing).toBeNull();
    expect(state.entryFiles).not.toContain('entries/1660/1660-01-03.html');
    const parsed = state.parsed.get(ENTRY);
    const html = parsed?.kind === 'entry' ? parsed.parsed?.entry.entryHTML : undefined;
    expect(html).toBeDefined();
    expect(html).not.toContain('Version C.');

    // Each file is hashed once: the check's hash is the one taken (made wrong on purpose, it shows).
    const again = emptyContentRead();
    const fingerprint = buildFingerprint(content, { env: {} }, again);
    const kept = again.files.take(ENTRY);
    if (kept === undefined) throw new Error(`${ENTRY} was not kept`);
    again.files.keep(ENTRY, { ...kept, digest: 'not-the-hash' });
    const wrong = await readContent(content, { env: {}, fingerprint: true, read: again });
    expect(wrong.sources?.files.get(ENTRY)).toBe('not-the-hash');
    expect(wrong.fingerprint).not.toBe(fingerprint);

    // Without it, the same directory is read as it is now.
    const now = await readContent(content, { env: {}, fingerprint: true });
    expect(now.fingerprint).not.toBe(checked);
    expect(now.entryFiles).toContain('entries/1660/1660-01-03.html');
  });
});
