// The licence a site states (site.yaml `license`, issue 35 §4): the OpenAPI document's
// `info.license`, the Atom feed's `rights`, the downloads listing's `license` and a line of the
// HTML view's footer; a site without one builds as before, and `npm run build` warns once.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { readSiteConfig } from '../generator/content/config.ts';
import { SITE_INDEX_FILE } from '../generator/core/files.ts';
import { handle } from '../generator/core/handler.ts';
import { parseSiteIndex } from '../generator/core/site-index.ts';
import { smallSite, writeContent } from './helpers/content.ts';
import { runInProcess } from './helpers/in-process.ts';
import { tempDir } from './helpers/temp.ts';

const SITE = 'apiOrigin: https://api.test\nsiteOrigin: https://site.test\n';

function configOf(siteYaml: string) {
  const dir = writeContent({ 'site.yaml': siteYaml });
  return readSiteConfig(dir, {}, {});
}

/** The answers that state the licence, of a build of the small site with this site.yaml. */
async function stated(siteYaml: string) {
  const out = join(tempDir('pepys-license-'), 'public');
  await build({
    contentDir: writeContent({ ...smallSite(), 'site.yaml': siteYaml }),
    outDir: out,
    quiet: true,
    env: {},
  });
  const index = parseSiteIndex(readFileSync(join(out, SITE_INDEX_FILE), 'utf8'));
  if (!index.ok) throw new Error(index.error);
  const read = (file: string) => {
    try {
      return readFileSync(join(out, file));
    } catch {
      return null;
    }
  };
  const page = await handle(
    { method: 'GET', path: '/api/v1/entries', query: '', header: (h) => (h === 'accept' ? 'text/html' : null) },
    index.value,
    read,
  );
  const schema = JSON.parse(readFileSync(join(out, 'api/v1/schema.json'), 'utf8')) as {
    info: { license?: unknown };
    components: { schemas: { DownloadList: { required: string[] } } };
  };
  return {
    openapi: schema.info.license,
    listingSchema: schema.components.schemas.DownloadList.required,
    downloads: (JSON.parse(readFileSync(join(out, 'api/v1/downloads/index.json'), 'utf8')) as { license?: unknown })
      .license,
    // The text of <rights> (feedsmith writes text with markup characters as CDATA, indented).
    atom: /<rights>\s*(?:<!\[CDATA\[([\s\S]*?)\]\]>|([^<]*?))\s*<\/rights>/
      .exec(readFileSync(join(out, 'api/v1/feeds/entries.atom'), 'utf8'))
      ?.slice(1)
      .find((t) => t !== undefined),
    footer: /<footer>.*<\/footer>/.exec(new TextDecoder().decode(page.body))?.[0] ?? '',
  };
}

describe('site.yaml license', () => {
  it('is an SPDX id, or a name and a URL; anything else names the line and the rule', () => {
    expect(configOf(`${SITE}license: CC0-1.0\n`).config.license).toEqual({
      name: 'CC0-1.0',
      url: 'https://spdx.org/licenses/CC0-1.0.html',
      identifier: 'CC0-1.0',
    });
    expect(configOf(`${SITE}license: { name: My licence, url: https://example.org/licence }\n`).config.license).toEqual(
      { name: 'My licence', url: 'https://example.org/licence' },
    );
    for (const none of ['', 'license:\n']) {
      const read = configOf(`${SITE}${none}`);
      expect([read.problems, read.config.license]).toEqual([[], null]);
    }
    for (const [value, why] of [
      ['CC0 1.0', /"CC0 1\.0" is not an SPDX id/],
      ['[CC0-1.0]', /not a string, nor a mapping of name and url/],
      ['{ name: X }', /its url must be an absolute http\(s\) URL, not undefined/],
      ['{ name: X, url: ftp://x.org/ }', /its url must be an absolute http\(s\) URL/],
      ['{ url: https://x.org/ }', /its name must be a non-empty string/],
      ['{ name: X, url: https://x.org/, year: 2026 }', /not a string, nor a mapping of name and url/],
    ] as const) {
      const read = configOf(`${SITE}license: ${value}\n`);
      expect(
        read.problems.map((p) => [p.file, p.line]),
        value,
      ).toEqual([['site.yaml', 3]]);
      expect(read.problems[0]?.message, value).toMatch(/^"license" must be an SPDX licence id \(e\.g\. CC0-1\.0\)/);
      expect(read.problems[0]?.message, value).toMatch(why);
    }
  });

  it('is stated by the OpenAPI document, the Atom feed, the downloads listing and the HTML view', async () => {
    const spdx = await stated(`${SITE}license: CC-BY-4.0\n`);
    expect(spdx.openapi).toEqual({ name: 'CC-BY-4.0', identifier: 'CC-BY-4.0' });
    expect(spdx.listingSchema).toEqual(['downloads', 'license']);
    expect(spdx.downloads).toEqual({
      name: 'CC-BY-4.0',
      url: 'https://spdx.org/licenses/CC-BY-4.0.html',
      identifier: 'CC-BY-4.0',
    });
    expect(spdx.atom).toBe('CC-BY-4.0 (https://spdx.org/licenses/CC-BY-4.0.html)');
    expect(spdx.footer).toContain(
      '<p>The data is published under <a rel="license" href="https://spdx.org/licenses/CC-BY-4.0.html">CC-BY-4.0</a>.</p></footer>',
    );

    const named = await stated(`${SITE}license: { name: "Mine & <yours>", url: "https://x.org/l?a=1&b=2" }\n`);
    expect(named.openapi).toEqual({ name: 'Mine & <yours>', url: 'https://x.org/l?a=1&b=2' });
    expect(named.downloads).toEqual({ name: 'Mine & <yours>', url: 'https://x.org/l?a=1&b=2' });
    expect(named.atom).toBe('Mine & <yours> (https://x.org/l?a=1&b=2)');
    expect(named.footer).toContain('<a rel="license" href="https://x.org/l?a=1&amp;b=2">Mine &amp; &lt;yours&gt;</a>');

    const none = await stated(SITE);
    expect(none).toEqual({
      openapi: undefined,
      listingSchema: ['downloads'],
      downloads: undefined,
      atom: undefined,
      footer: expect.not.stringContaining('license') as unknown as string,
    });
  }, 60_000);

  it('missing, makes `npm run build` warn once, and the build goes on', async () => {
    const content = writeContent({ ...smallSite(), 'site.yaml': SITE });
    const out = join(tempDir('pepys-license-'), 'public');
    const r = await runInProcess('build', ['--content', content, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('warning:') && l.includes('licence'))).toEqual([
      `warning: no licence is stated for the data: set license in ${content}/site.yaml (an SPDX id such as CC0-1.0, or { name, url })`,
    ]);
    const withOne = writeContent({ ...smallSite(), 'site.yaml': `${SITE}license: CC0-1.0\n` });
    const quiet = await runInProcess('build', [
      '--content',
      withOne,
      '--out',
      join(tempDir('pepys-license-'), 'public'),
    ]);
    expect(quiet.stderr).not.toContain('licence');
  }, 60_000);

  it('is stated by the sample (`pepys-api init` writes one to fill in: test/init.test.ts)', () => {
    const sample = readSiteConfig(join(import.meta.dirname, '..', 'content'), {}, {});
    expect(sample.config.license?.identifier).toBe('CC0-1.0');
  });
});
