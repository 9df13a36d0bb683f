// Two `npm start` and an `npm run build` at once, then another build: each server's links point
// at itself, from a directory of its own (issue 20). Moved from test/mirror-ownership.test.ts
// (five processes, four of them building), which keeps a server's lock and its --no-build
// snapshot.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { writeContent } from '../helpers/content.ts';
import { mediumSite } from '../helpers/medium-site.ts';
import { linksOf, servers } from '../helpers/mirror-links.ts';
import { tempDir } from '../helpers/temp.ts';

const CONTENT = writeContent(mediumSite(60, 30));
const { start, originOf } = servers();

describe('a server owns what it serves', () => {
  it('two servers and a build at once: each server links to itself, in a directory of its own', async () => {
    const cwd = tempDir('pepys-own-');
    const a = start(['--content', CONTENT], cwd);
    const b = start(['--content', CONTENT], cwd);
    const built = runCli('build', ['--content', CONTENT, '--quiet'], { cwd, env: { NO_COLOR: '1' } });
    const [originA, originB, build] = await Promise.all([originOf(a), originOf(b), built]);
    expect(build.code, build.stderr).toBe(0);
    expect(originA).not.toBe(originB);
    // A second round of building while both serve changes neither.
    const again = await runCli(
      'build',
      ['--content', CONTENT, '--quiet', '--api-origin', 'https://other.example.org'],
      {
        cwd,
      },
    );
    expect(again.code, again.stderr).toBe(0);
    for (const origin of [originA, originB]) {
      const links = await linksOf(origin);
      expect(links.length).toBeGreaterThan(20);
      expect(links.filter((u) => !u.startsWith(`${origin}/api/`))).toEqual([]);
    }
    // Each server's own directory, one per origin; public/ is the build's.
    const mirrors = readdirSync(join(cwd, '.cache', 'mirrors')).filter((n) => !n.startsWith('.'));
    expect(mirrors.sort()).toEqual([originA, originB].map((o) => o.replace('http://', '').replace(':', '-')).sort());
    expect(existsSync(join(cwd, 'public', 'api', 'v1', 'index.json'))).toBe(true);
  });
});
