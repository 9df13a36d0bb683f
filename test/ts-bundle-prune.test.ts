// The bundles node-ts.mjs runs from (generator/cli/ts-bundle.mjs) are named by their bytes, so an
// edit of the generator makes a new one: a new bundle removes its entry's older ones, once they
// are old enough that no process can be about to load them (STALE_MS). Before, none was ever
// removed (2,363 files, 740 MB, in one checkout's node_modules/.cache/node-ts/ after a day's work).

import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneBundles, STALE_MS } from '../generator/cli/ts-bundle.mjs';
import { tempDir } from './helpers/temp.ts';

describe('the bundles of an entry', () => {
  it('a new one removes the entry’s stale ones and their leftovers, nothing else', () => {
    const dir = tempDir('pepys-ts-bundle-');
    const now = Date.now();
    const made = (name: string, ageMs: number): string => {
      const path = join(dir, name);
      writeFileSync(path, 'export {};\n');
      const at = (now - ageMs) / 1000;
      utimesSync(path, at, at);
      return path;
    };
    const key = 'a'.repeat(40);
    const current = made(`${key}.${'1'.repeat(40)}.mjs`, 0);
    const stale = made(`${key}.${'2'.repeat(40)}.mjs`, STALE_MS + 60_000);
    const leftover = made(`${key}.${'3'.repeat(40)}.mjs.4242.tmp`, STALE_MS + 60_000);
    const recent = made(`${key}.${'4'.repeat(40)}.mjs`, STALE_MS - 60_000);
    const manifest = made(`${key}.json`, STALE_MS + 60_000);
    const otherEntry = made(`${'b'.repeat(40)}.${'5'.repeat(40)}.mjs`, STALE_MS + 60_000);
    pruneBundles(dir, key, `${key}.${'1'.repeat(40)}.mjs`, now);
    expect([current, stale, leftover, recent, manifest, otherEntry].map(existsSync)).toEqual([
      true,
      false,
      false,
      true,
      true,
      true,
    ]);
    // A directory that is not there: nothing to do, no error.
    expect(() => pruneBundles(join(dir, 'nowhere'), key, 'x', now)).not.toThrow();
  });
});
