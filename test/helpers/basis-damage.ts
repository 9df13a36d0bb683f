// A rebuild over a saved basis that cannot be vouched for (render/basis.ts): it renders every
// file, as a cold build, and saves a basis of its own again. test/basis.test.ts runs two of the
// damages every day, test/heavy/basis-damage.test.ts all four.

import { rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { build } from '../../generator/build.ts';
import { BASIS_FILE, MANIFEST_FILE, readManifest } from '../../generator/output/manifest.ts';
import { replaceIn, writeContent } from './content.ts';
import type { ColdBuilds } from './edit-sequences.ts';
import { readTreeBytes } from './files.ts';
import { mediumSite } from './medium-site.ts';
import { tempDir } from './temp.ts';

export const BASIS_DAMAGES: Array<[string, (out: string) => void]> = [
  ['missing', (out) => rmSync(join(out, BASIS_FILE))],
  ['changed', (out) => replaceIn(join(out, BASIS_FILE), '"format":1', '"format":2')],
  [
    'oversized',
    (out) => {
      const m = readManifest(out);
      const budget = [...(m?.files.values() ?? [])].reduce((n, f) => n + f.size, 1024 * 1024);
      truncateSync(join(out, BASIS_FILE), budget + 1);
    },
  ],
  [
    'of another generator',
    (out) => replaceIn(join(out, MANIFEST_FILE), /"generator":"[0-9a-f]{64}"/, `"generator":"${'0'.repeat(64)}"`),
  ],
];

/** Builds a small medium site, damages its basis as `what` says, then edits and rebuilds. */
export async function checkBasisDamage(colds: ColdBuilds, what: string): Promise<void> {
  const damage = BASIS_DAMAGES.find(([name]) => name === what)?.[1];
  if (damage === undefined) throw new Error(`no damage ${what}`);
  const contentDir = writeContent(mediumSite(30, 10));
  const out = join(tempDir('pepys-basis-'), 'public');
  await build({ contentDir, outDir: out, quiet: true, env: {} });
  damage(out);
  replaceIn(join(contentDir, 'entries/1660/1660-02-04.html'), '</p>', ' A word more.</p>');
  const report = await build({ contentDir, outDir: out, quiet: true, env: {} });
  expect(report.patched, what).toBe(false);
  // Every case has the same content: one cold build for all of them.
  const cold = await colds.of(contentDir);
  if (!cold.ok) throw new Error(cold.problems.join('\n'));
  expect(readTreeBytes(out), what).toEqual(cold.tree);
  // And the rebuild saved a basis of its own again: the next edit is patched.
  replaceIn(join(contentDir, 'entries/1660/1660-02-04.html'), '</p>', ' Two.</p>');
  expect((await build({ contentDir, outDir: out, quiet: true, env: {} })).patched, what).toBe(true);
}
