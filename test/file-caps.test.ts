// The CDNs' file caps held against a build's output (deploy/file-caps.ts): past Cloudflare's
// 20,000 (free plan) or 100,000 files a Worker version, or Netlify's 54,000 files in one
// directory, `npm run build` warns; the sample is far below every cap.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capWarnings, outputCapWarnings } from '../generator/deploy/file-caps.ts';
import { MANIFEST_FILE } from '../generator/output/manifest.ts';
import { sampleSite } from './helpers/local-server.ts';
import { tempDir } from './helpers/temp.ts';

const spread = (n: number) => Array.from({ length: n }, (_, i) => `_data/records/topics/${i % 1000}/${i}.pack`);

describe('file caps', () => {
  it('say nothing up to the caps, and name each cap passed', () => {
    expect(capWarnings(spread(20_000))).toEqual([]);
    expect(capWarnings(spread(20_001))).toEqual([
      '20,001 files: past the 20,000 a Cloudflare Worker version may have on the free plan (100,000 on a paid one)',
    ]);
    expect(capWarnings(spread(100_001))).toEqual([
      expect.stringMatching(/^100,001 files: past the 100,000 a Cloudflare Worker version may have on any plan/),
    ]);
    const pages = (n: number) => Array.from({ length: n }, (_, i) => `api/v1/topics/pages/${i + 1}.json`);
    expect(capWarnings(pages(54_000)).filter((w) => w.includes('Netlify'))).toEqual([]);
    expect(capWarnings(pages(54_001))).toEqual([
      expect.stringMatching(/^54,001 files: past the 20,000/),
      'api/v1/topics/pages holds 54,001 files: past the 54,000 Netlify deploys in one directory',
    ]);
  });

  it('are read from a built output’s manifest: the sample passes none', async () => {
    expect(outputCapWarnings(join(tempDir('pepys-caps-'), 'public'))).toEqual([]);
    // The run's shared build of the sample (its files are the same for any origin; only read here).
    const out = sampleSite().publicDir;
    expect(existsSync(join(out, MANIFEST_FILE))).toBe(true);
    expect(outputCapWarnings(out)).toEqual([]);
  });
});
