// Honest defaults: a build for a placeholder or loopback API origin says so in one line, and a
// Netlify build refuses to deploy it.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { placeholderOrigin } from '../generator/content/config.ts';
import { smallSite, writeContent } from './helpers/content.ts';
import { runInProcess } from './helpers/in-process.ts';
import { tempDir } from './helpers/temp.ts';

describe('placeholder origins', () => {
  it('knows a placeholder or loopback origin from a public one', () => {
    for (const o of ['https://pepys.example.org', 'https://example.com', 'http://api.example', 'https://a.test'])
      expect(placeholderOrigin(o), o).toBe('a placeholder');
    for (const o of ['http://127.0.0.1:8888', 'http://localhost:3000', 'http://[::1]:8888'])
      expect(placeholderOrigin(o), o).toMatch(/loopback/);
    for (const o of ['https://api.pepysdiary.com', 'https://examples.org', 'https://my-example.net'])
      expect(placeholderOrigin(o), o).toBeNull();
  });

  it('warns in one line on a build for one, naming the setting; a Netlify build refuses it', async () => {
    // With a licence: a site without one gets a warning of its own (test/license.test.ts).
    const content = writeContent({
      ...smallSite(),
      'site.yaml': 'apiOrigin: https://pepys.example.org\nlicense: CC0-1.0\n',
    });
    const out = join(tempDir('pepys-placeholder-'), 'public');
    try {
      const built = await runInProcess('build', ['--content', content, '--out', out]);
      expect(built.code).toBe(0);
      const warnings = built.stderr.split('\n').filter((l) => l.startsWith('warning:'));
      expect(warnings).toEqual([
        `warning: every link will point at https://pepys.example.org, a placeholder: set apiOrigin in ${content}/site.yaml or pass --api-origin <origin>`,
      ]);
      const real = await runInProcess('build', [
        '--content',
        content,
        '--out',
        out,
        '--quiet',
        '--api-origin',
        'https://api.pepysdiary.com',
      ]);
      expect(real.code).toBe(0);
      expect(real.stderr).not.toContain('warning:');
      const netlify = await runInProcess(
        'build',
        ['--content', content, '--out', out, '--quiet', '--target', 'netlify'],
        {
          env: { NETLIFY: 'true', URL: '' },
        },
      );
      expect(netlify.code).toBe(2);
      expect(netlify.stderr).toMatch(
        /^error: refusing to deploy: every link will point at https:\/\/pepys\.example\.org/,
      );
    } finally {
      rmSync(content, { recursive: true, force: true });
    }
  });
});
