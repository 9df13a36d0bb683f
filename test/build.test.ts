import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { type BuildReport, build } from '../generator/build.ts';
import { loadSiteConfig } from '../generator/content/config.ts';
import { ContentError } from '../generator/content/problems.ts';
import { runCli } from './helpers/cli.ts';
import { entryFile, smallSite, writeContent } from './helpers/content.ts';
import { readServed, readTree, readTreeBytes } from './helpers/files.ts';
import { runInProcess } from './helpers/in-process.ts';
import { tempDir } from './helpers/temp.ts';

const outDir = () => join(tempDir('pepys-out-'), 'public');

/**
 * The small site built once, by the clock of the moment, for the two tests that only read it (the
 * second compares it with a build by a clock years away): one build, not two.
 */
let smallBuilt: Promise<{ out: string; report: BuildReport }> | undefined;
function buildSmall(): Promise<{ out: string; report: BuildReport }> {
  smallBuilt ??= (async () => {
    const out = outDir();
    const report = await build({ contentDir: writeContent(smallSite()), outDir: out, quiet: true, env: {} });
    return { out, report };
  })();
  return smallBuilt;
}

describe('build', () => {
  it('writes every pre-rendered answer', async () => {
    const { out, report } = await buildSmall();
    const files = readTree(out);
    expect(report.files).toBe(readTreeBytes(out).size);
    for (const f of [
      'api/v1/index.json',
      'api/v1/entries/pages/1.json',
      'api/v1/entries/1660-01-01.json',
      'api/v1/entries/years/1660/pages/1.json',
      'api/v1/entries/years/1661/pages/1.json',
      'api/v1/entries/months/1660-01/pages/1.json',
      'api/v1/entries/months/1661-01/pages/1.json',
      'api/v1/categories/pages/1.json',
      'api/v1/categories/servants.json',
      'api/v1/topics/pages/1.json',
      'api/v1/topics/2.json',
    ])
      expect(files.has(f), f).toBe(true);
    // The years and months that have entries (1660, 1661; January of each), one page each here:
    // the handler answers the period's empty ones (test/prerendered-lists.test.ts).
    expect([...files.keys()].filter((f) => f.includes('/years/')).sort()).toEqual([
      'api/v1/entries/years/1660/pages/1.json',
      'api/v1/entries/years/1661/pages/1.json',
    ]);
    expect([...files.keys()].filter((f) => f.includes('/months/')).sort()).toEqual([
      'api/v1/entries/months/1660-01/pages/1.json',
      'api/v1/entries/months/1661-01/pages/1.json',
    ]);
    expect(files.has('api/v1/entries/years/1669/pages/1.json')).toBe(false);
    expect(files.has('api/v1/entries/months/1669-06/pages/1.json')).toBe(false);
    const jan = JSON.parse(files.get('api/v1/entries/months/1660-01/pages/1.json') as string) as {
      totalResults: number;
    };
    expect(jan.totalResults).toBe(2);
  });

  it('is byte-identical from the same content, whatever the time or the directory', async () => {
    // The first by the clock of the moment (the test above's build), the second by a clock years
    // later (only Date is faked: the builds' I/O runs as usual), from another content directory.
    const a = (await buildSmall()).out;
    const b = outDir();
    const later = Date.now() + 5.5 * 365.25 * 24 * 3600 * 1000 + 13_512_345;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date(later));
      await build({ contentDir: writeContent(smallSite()), outDir: b, quiet: true, env: {} });
    } finally {
      vi.useRealTimers();
    }
    expect(readTree(b)).toEqual(readTree(a));
  });

  it('leaves the previous output untouched when the content is invalid', async () => {
    const out = outDir();
    const files = smallSite();
    const dir = writeContent(files);
    await build({ contentDir: dir, outDir: out, quiet: true, env: {} });
    const before = readTree(out);
    writeFileSync(join(dir, 'entries', 'bad.html'), entryFile('1660-02-30'));
    await expect(build({ contentDir: dir, outDir: out, quiet: true, env: {} })).rejects.toBeInstanceOf(ContentError);
    expect(readTree(out)).toEqual(before);
    // No staging directory is left behind: only the output and the tree a rebuild writes next.
    expect(readdirSync(join(out, '..')).filter((n) => n !== '.public-gen-a')).toEqual(['public']);
  });

  it('replaces the output as a whole: records removed from the content disappear', async () => {
    const out = outDir();
    const files = smallSite();
    await build({ contentDir: writeContent(files), outDir: out, quiet: true, env: {} });
    const { 'entries/1661/1661-01-20.html': _removed, ...rest } = files;
    await build({ contentDir: writeContent(rest), outDir: out, quiet: true, env: {} });
    expect(readServed(out, 'api/v1/entries/1661-01-20.json')).toBeUndefined();
    expect(readServed(out, 'api/v1/entries/1660-01-01.json')).toBeDefined();
  });

  it('takes titles from the content over the computed ones, and honours the title convention', async () => {
    const out = outDir();
    // An override keeps the shape of a title (../shared/API.md): here, another spelling of the year.
    const files = {
      ...smallSite(),
      'entries/1660/1660-01-02.html': entryFile('1660-01-02', 'title: Monday 2 January 1660\n'),
    };
    await build({
      contentDir: writeContent(files),
      outDir: out,
      quiet: true,
      env: {},
      overrides: { titleConvention: 'every-year' },
    });
    const page = JSON.parse(readFileSync(join(out, 'api/v1/entries/pages/1.json'), 'utf8')) as {
      results: Array<{ title: string }>;
    };
    expect(page.results.map((r) => r.title)).toEqual([
      'Sunday 1 January 1659/60',
      'Monday 2 January 1660',
      'Sunday 20 January 1660/61',
    ]);
  });
});

describe('configuration', () => {
  it('takes site.yaml, then $URL, then command-line overrides', () => {
    const dir = writeContent(smallSite());
    expect(loadSiteConfig(dir, {}, {}).apiOrigin).toBe('https://api.test');
    expect(loadSiteConfig(dir, {}, { URL: 'https://deploy.netlify.app/' }).apiOrigin).toBe(
      'https://deploy.netlify.app',
    );
    expect(
      loadSiteConfig(dir, { apiOrigin: 'http://127.0.0.1:9999' }, { URL: 'https://deploy.netlify.app' }).apiOrigin,
    ).toBe('http://127.0.0.1:9999');
    expect(loadSiteConfig(dir, {}, {}).pageSize).toBe(50);
    expect(() => loadSiteConfig(dir, {}, { URL: 'ftp://x' })).toThrow(/URL environment variable/);
  });
});

describe('build command', () => {
  it('prints progress, and nothing with --quiet', async () => {
    const dir = writeContent(smallSite());
    // Both at once: the loud one in this process (test/helpers/in-process.ts), the quiet one a
    // process of its own, which prints nothing at all.
    const [loud, quiet] = await Promise.all([
      runInProcess('build', ['--content', dir, '--out', outDir()]),
      runCli('build', ['--content', dir, '--out', outDir(), '--quiet']),
    ]);
    expect(loud.code, loud.stderr).toBe(0);
    expect(loud.stderr).toMatch(/built .*: \d+ files, .* \(3 entries, 3 categories, 2 topics\)/);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe('');
  });

  it('exits 1 naming file, line and reason of every problem, keeping the old output', async () => {
    const dir = writeContent({
      ...smallSite(),
      'entries/bad.html': entryFile('1661-02-30'),
      'topics/7.yaml': 'id: 7\ntitle: X\ncategories: [nope]\n',
    });
    const out = outDir();
    const err = await runInProcess('build', ['--content', dir, '--out', out, '--quiet']);
    expect(err.code).toBe(1);
    expect(err.stderr).toContain(`${dir}/entries/bad.html:2: "date" must be a real calendar date`);
    expect(err.stderr).toContain(`${dir}/topics/7.yaml:3: unknown category "nope"`);
    expect(existsSync(out)).toBe(false);
  });

  it('rejects bad option values with a clear message', async () => {
    const err = await runInProcess('build', ['--api-origin', 'nope']);
    expect(err.code).toBe(2);
    expect(err.stderr).toMatch(/--api-origin: "nope" is not an absolute URL/);
  });
});
