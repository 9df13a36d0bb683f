// What a build records of its inputs (the manifest's fingerprint, content/fingerprint.ts) is what
// it read and rendered, not what it saw when it first looked for anything to do: a file saved in
// between must not leave an output recorded as made of content it was not made of, which a later
// build would then take for current. The file is changed at the moment the build has listed the
// content to read it (after its check), when it tells its progress reporter how many files it reads.

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { build } from '../generator/build.ts';
import { type BuildProgress, SILENT_PROGRESS } from '../generator/build-types.ts';
import { buildFingerprint } from '../generator/content/fingerprint.ts';
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
  it('are those it read: a file saved after its check and then saved back is built again', async () => {
    // A small site: the race is the same whatever the content's size.
    const content = writeContent(smallSite());
    const out = join(tempDir('pepys-inputs-'), 'public');
    await run(content, out);

    withText(content, 'Version B.');
    // The build checks (and sees B), then lists the content to read it: C is saved just then.
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
    // Recorded as made of C, which it was made of.
    expect(readManifest(live)?.inputs).toBe(buildFingerprint(content, { env: {} }));

    // B saved back: B's output is not there, so there is work to do, and the output is B's.
    withText(content, 'Version B.');
    expect((await run(content, out)).mode).not.toBe('unchanged');
    const reference = join(tempDir('pepys-inputs-cold-'), 'public');
    await run(content, reference);
    expect(readTreeBytes(out)).toEqual(readTreeBytes(reference));
    rmSync(reference, { recursive: true, force: true });
  });
});
