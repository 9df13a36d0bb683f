// What a one-shot rebuild trusts (the manifest, output/manifest.ts; the sources file; both
// generations), damaged: the build must then still be right, the same bytes as a cold build of
// the same content, before an edit and after one. One case of each record here (the live
// manifest, a live file, the sources file, the other generation); every damage of
// test/helpers/rebuild-trust.ts, in test/heavy/rebuild-trust.test.ts (each case is five builds).
// Split from test/rebuild.test.ts so that the two halves run side by side.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { MANIFEST_FILE } from '../generator/output/manifest.ts';
import { ColdBuilds } from './helpers/edit-sequences.ts';
import { rebuildOf as run } from './helpers/rebuild-steps.ts';
import { checkDamage, DAMAGES, EVERYDAY, layout } from './helpers/rebuild-trust.ts';

// Each case runs five builds: on a loaded machine that can be more than the default 30 s.
vi.setConfig({ testTimeout: 120_000 });

const colds = new ColdBuilds();

describe('what a rebuild trusts, damaged: the build is still right', () => {
  for (const [what, damage] of DAMAGES.filter(([what]) => EVERYDAY.includes(what)))
    it(`${what}`, () => checkDamage(colds, what, damage));

  it('a damaged record of the other generation alone does not stop "nothing to do"', async () => {
    const t = await layout();
    rmSync(join(t.otherDir, MANIFEST_FILE));
    expect((await run(t.content, t.out)).mode).toBe('unchanged');
  });
});
