// The one-shot rebuild's worked example on a small site, every step of it
// (test/helpers/rebuild-steps.ts): moved from test/rebuild.test.ts, which takes one step of each
// kind every day (two builds a step). On the sample: rebuild-sample.test.ts.

import { join } from 'node:path';
import { describe, it } from 'vitest';
import { writeContent } from '../helpers/content.ts';
import { ColdBuilds } from '../helpers/edit-sequences.ts';
import { checkRebuildSteps, rebuildOf, rebuildSite } from '../helpers/rebuild-steps.ts';
import { tempDir } from '../helpers/temp.ts';

const colds = new ColdBuilds();

describe('a rebuild over the output of an earlier build', () => {
  it('writes exactly the files whose bytes change, removes those that go, and serves what a cold build serves', async () => {
    const content = writeContent(rebuildSite());
    const out = join(tempDir('pepys-rebuild-'), 'public');
    await rebuildOf(content, out);
    await checkRebuildSteps(content, out, colds);
  });
});
