// Symbolic links that lead outside the content directory are not followed (security): content
// cannot publish a file it does not hold, nor quote its keys in errors. PEPYS_ALLOW_OUTSIDE_LINKS=1
// allows them. Links inside the content directory work as before.

import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContent } from '../generator/content/load.ts';
import { ContentError, type Problem } from '../generator/content/problems.ts';
import { entryFile, smallSite, writeContent } from './helpers/content.ts';
import { tempDir } from './helpers/temp.ts';

async function problemsOf(dir: string): Promise<Problem[]> {
  try {
    await loadContent(dir);
    return [];
  } catch (err) {
    if (err instanceof ContentError) return err.problems;
    throw err;
  }
}

afterEach(() => {
  delete process.env.PEPYS_ALLOW_OUTSIDE_LINKS;
});

describe('links outside the content directory', () => {
  function site(): { content: string; outside: string } {
    const outside = tempDir('pepys-outside-');
    writeFileSync(join(outside, '1660-01-05.html'), entryFile('1660-01-05'));
    writeFileSync(join(outside, 'secret.yaml'), 'apiOrigin: https://api.test\nsecretKey: do-not-echo\n');
    mkdirSync(join(outside, 'more'));
    writeFileSync(join(outside, 'more', '1660-01-06.html'), entryFile('1660-01-06'));
    const content = writeContent({ ...smallSite() });
    symlinkSync(join(outside, '1660-01-05.html'), join(content, 'entries', '1660', '1660-01-05.html'));
    symlinkSync(join(outside, 'more'), join(content, 'entries', 'more'));
    // Inside: still followed.
    mkdirSync(join(content, 'drafts'));
    writeFileSync(join(content, 'drafts', '1660-01-07.html'), entryFile('1660-01-07'));
    symlinkSync(join(content, 'drafts', '1660-01-07.html'), join(content, 'entries', '1660', '1660-01-07.html'));
    return { content, outside };
  }

  it('refuses them, naming the link, and publishes nothing they lead to', async () => {
    const { content, outside } = site();
    const problems = await problemsOf(content);
    expect(problems.map((p) => `${p.file}: ${p.message}`).sort()).toEqual([
      `entries/1660/1660-01-05.html: symbolic link to ${JSON.stringify(join(outside, '1660-01-05.html'))}, outside the content directory (not followed; PEPYS_ALLOW_OUTSIDE_LINKS=1 allows it)`,
      `entries/more: symbolic link to ${JSON.stringify(join(outside, 'more'))}, outside the content directory (not followed; PEPYS_ALLOW_OUTSIDE_LINKS=1 allows it)`,
    ]);
  });

  it('does not read an outside site.yaml, so never echoes its keys', async () => {
    const { content, outside } = site();
    const plain = writeContent({ ...smallSite() });
    symlinkSync(join(outside, 'secret.yaml'), join(plain, 'site-linked.yaml'));
    const { rmSync } = await import('node:fs');
    rmSync(join(plain, 'site.yaml'));
    symlinkSync(join(outside, 'secret.yaml'), join(plain, 'site.yaml'));
    const problems = await problemsOf(plain);
    expect(problems.map((p) => p.file)).toEqual(['site.yaml']);
    expect(JSON.stringify(problems)).not.toContain('secretKey');
    expect(content).not.toBe(plain);
  });

  it('follows them when PEPYS_ALLOW_OUTSIDE_LINKS=1', async () => {
    const { content } = site();
    process.env.PEPYS_ALLOW_OUTSIDE_LINKS = '1';
    const { model } = await loadContent(content);
    expect(model.entries.map((e) => e.date)).toEqual(expect.arrayContaining(['1660-01-05', '1660-01-06']));
  });
});
