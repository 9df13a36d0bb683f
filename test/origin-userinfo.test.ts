// An origin with a user name or a password (`https://user:pw@evil.example`) is refused wherever an
// origin is given: site.yaml (file:line, like its other origin errors), the command line (the usage
// error, exit 2) and Netlify's URL. An origin has no userinfo, and every link would drop it silently.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOrigin } from '../generator/content/config.ts';
import { problemsOf, smallSite } from './helpers/content.ts';
import { runInProcess } from './helpers/in-process.ts';
import { tempDir } from './helpers/temp.ts';

const WITH_USERINFO = ['https://user:pw@evil.example', 'https://user@evil.example', 'http://:pw@evil.example:8080'];

describe('an origin with userinfo', () => {
  it('is not an origin, and the refusal never repeats the password', () => {
    for (const text of WITH_USERINFO) {
      const got = parseOrigin(text);
      expect(got, text).toBeInstanceOf(Error);
      expect((got as Error).message).toMatch(/no user name or password/);
      expect((got as Error).message).not.toContain('pw');
    }
    expect(parseOrigin('https://evil.example')).toBe('https://evil.example');
  });

  it('is a problem of site.yaml at its key’s line, for apiOrigin, siteOrigin and linkOrigins', async () => {
    const problems = await problemsOf({
      ...smallSite(),
      'site.yaml': [
        'apiOrigin: https://api.test',
        'siteOrigin: https://user:pw@evil.example',
        'linkOrigins: [https://www.pepysdiary.com, https://user@evil.example]',
        '',
      ].join('\n'),
    });
    const lines = problems.filter((p) => p.file === 'site.yaml').map((p) => [p.line, p.message]);
    expect(lines).toEqual([
      [
        2,
        expect.stringMatching(/^"siteOrigin": "https:\/\/user:…@evil\.example" must be an origin, with no user name/),
      ],
      [3, expect.stringMatching(/^"linkOrigins" must be a list of origins: "https:\/\/user@evil\.example" must be/)],
    ]);
  });

  it('is a usage error on the command line: one line, exit 2', async () => {
    const content = join(import.meta.dirname, '..', 'content');
    const out = join(tempDir('pepys-origin-'), 'public');
    for (const flag of ['--site-origin', '--api-origin']) {
      const r = await runInProcess(
        'build',
        ['--content', content, '--out', out, flag, 'https://user:pw@evil.example'],
        {
          env: { NO_COLOR: '1' },
        },
      );
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^error: ${flag}: "https://user:…@evil\\.example" must be an origin, with no user name or password\\n`,
        ),
      );
      expect(r.stderr).not.toContain('pw@');
    }
  });
});
