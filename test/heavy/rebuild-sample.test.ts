// The one-shot rebuild's worked example (test/helpers/rebuild-steps.ts) on the sample itself:
// one edit of each kind, each rebuild checked for how it made the search index, whether it
// patched, what it wrote, removed and recorded, and against a cold build of the same content.
// The everyday suite runs it on a small site (test/rebuild.test.ts).

import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { ColdBuilds } from '../helpers/edit-sequences.ts';
import { checkRebuildSteps, rebuildOf } from '../helpers/rebuild-steps.ts';
import { tempDir } from '../helpers/temp.ts';

const colds = new ColdBuilds();

describe('a rebuild of the sample after one edit of each kind', () => {
  it('writes exactly the files whose bytes change and equals a cold build', { timeout: 600_000 }, async () => {
    const content = join(tempDir('pepys-rebuild-content-'), 'content');
    cpSync(join(import.meta.dirname, '..', '..', 'content'), content, { recursive: true });
    const out = join(tempDir('pepys-rebuild-'), 'public');
    await rebuildOf(content, out);
    await checkRebuildSteps(content, out, colds);
  });
});
