// site.yaml's webURLs (issue 17): the templates every webURL is made from, what makes one
// invalid, and the topic links an entry mentions topics by, which follow the topic template.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { webURLProblem } from '../generator/content/config.ts';
import { topicLinks } from '../generator/content/derive.ts';
import { categoryWebURL, DEFAULT_WEB_URLS, entryWebURL, expandWebURL, topicWebURL } from '../generator/core/urls.ts';
import { problemsOf, smallSite, writeContent } from './helpers/content.ts';
import { readTree } from './helpers/files.ts';
import { tempDir } from './helpers/temp.ts';

const pepys = { siteOrigin: 'https://www.pepysdiary.com', webURLs: DEFAULT_WEB_URLS };
const other = {
  siteOrigin: 'https://diary.test',
  webURLs: { entry: '{site}/{yyyy}/{mm}-{dd}.html', category: '{site}/c/{slug}', topic: '{site}/t?id={id}' },
};

describe('templates', () => {
  it('make pepysdiary.com’s addresses by default', () => {
    expect(entryWebURL(pepys, '1660-01-01')).toBe('https://www.pepysdiary.com/diary/1660/01/01/');
    expect(categoryWebURL(pepys, ['people', 'family'], 'wife')).toBe(
      'https://www.pepysdiary.com/encyclopedia/people/family/wife/',
    );
    expect(topicWebURL(pepys, 12)).toBe('https://www.pepysdiary.com/encyclopedia/12/');
  });

  it('make a site’s own addresses from its own', () => {
    expect(entryWebURL(other, '1914-08-02')).toBe('https://diary.test/1914/08-02.html');
    expect(categoryWebURL(other, ['people'], 'family')).toBe('https://diary.test/c/family');
    expect(topicWebURL(other, 7)).toBe('https://diary.test/t?id=7');
  });

  it('put each value where its placeholder is, and leave whatever else they hold as written', () => {
    // What a search and replace of each `{name}` gives (names of lower-case letters; an unknown
    // name stays), over templates of placeholders, braces and replacement patterns in any order.
    const replaced = (template: string, values: Record<string, string>) =>
      template.replace(/\{([a-z]+)\}/g, (whole, name: string) => values[name] ?? whole);
    const piece = fc.constantFrom(
      '{site}',
      '{id}',
      '{slug}',
      '{nope}',
      '{',
      '}',
      '{}',
      '{A}',
      '{{id}}',
      'x/',
      '$&',
      '$1',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join('')),
        fc.dictionary(fc.constantFrom('site', 'id', 'slug'), fc.string()),
        (template, values) => expandWebURL(template, values) === replaced(template, values),
      ),
      { numRuns: 2000 },
    );
  });

  it('are refused, with the rule, when they cannot make the addresses of every record', () => {
    expect(webURLProblem('entry', '{site}/d/{date}/')).toBeNull();
    expect(webURLProblem('category', '{site}/{path}')).toBeNull();
    expect(webURLProblem('entry', '{site}/d/{yyyy}/{mm}/')).toMatch(
      /must name the entry with \{date\} or \{yyyy\}\{mm\}\{dd\}/,
    );
    expect(webURLProblem('topic', '{site}/t/{slug}/')).toMatch(/\{slug\} is not a placeholder of a topic's page/);
    expect(webURLProblem('topic', 'https://elsewhere.test/{id}')).toMatch(/must begin with \{site\}/);
    expect(webURLProblem('category', '{site}/a b/{slug}')).toMatch(/URL characters/);
    expect(webURLProblem('category', '{site}{slug}')).toMatch(/URL characters/);
    expect(webURLProblem('topic', 12)).toBe('must be a string');
  });

  it('in site.yaml: a wrong one stops the build naming the file, the line and the rule', async () => {
    const problems = await problemsOf({
      ...smallSite(),
      'site.yaml': "apiOrigin: https://api.test\nwebURLs:\n  entry: '{site}/d/{day}/'\n",
    });
    expect(problems).toEqual([
      expect.objectContaining({ file: 'site.yaml', line: 2, message: expect.stringMatching(/webURLs.entry.*\{day\}/) }),
    ]);
    const keys = await problemsOf({ ...smallSite(), 'site.yaml': "webURLs: { page: '{site}/x/{id}' }\n" });
    expect(keys.map((p) => p.message)).toEqual([expect.stringMatching(/keys entry, category, topic/)]);
  });
});

describe('topic links', () => {
  it('follow the topic template: its path, on the given origins or relative, a final slash optional', () => {
    const html =
      '<a href="https://diary.test/index/sujets/3.html">a</a> <a href="/index/sujets/4.html#x">b</a> ' +
      '<a href="/encyclopedia/5/">not a topic page here</a> <a href="https://elsewhere.test/index/sujets/6.html">c</a>';
    expect(topicLinks(html, ['https://diary.test'], '{site}/index/sujets/{id}.html').map((l) => l.id)).toEqual([3, 4]);
    expect(topicLinks('<a href="/t/9">x</a>', [], '{site}/t/{id}/').map((l) => l.id)).toEqual([9]);
    expect(topicLinks(html, ['https://diary.test']).map((l) => l.id)).toEqual([5]);
  });
});

describe('a build', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('writes every webURL, the OpenAPI patterns and the topics an entry links to from the templates', async () => {
    const site = smallSite();
    const content = writeContent({
      ...site,
      'site.yaml': `apiOrigin: https://api.test\nsiteOrigin: https://diary.test\nwebURLs:\n  entry: '{site}/{yyyy}/{mm}-{dd}.html'\n  category: '{site}/c/{path}'\n  topic: '{site}/t/{id}'\n`,
      'entries/1661/1661-01-20.html':
        '---\ndate: 1661-01-20\n---\n<p>With <a href="https://diary.test/t/1">Jane</a>.</p>\n',
    });
    dirs.push(content);
    const out = join(tempDir('pepys-web-urls-'), 'public');
    dirs.push(join(out, '..'));
    await build({ contentDir: content, outDir: out, quiet: true, env: {} });
    const files = readTree(out);
    const json = (path: string) => JSON.parse(files.get(path) as string) as Record<string, unknown>;
    expect(json('api/v1/entries/1661-01-20.json').webURL).toBe('https://diary.test/1661/01-20.html');
    expect(json('api/v1/entries/1661-01-20.json').topics).toEqual(['https://api.test/api/v1/topics/1']);
    expect(json('api/v1/categories/servants.json').webURL).toBe('https://diary.test/c/people/household/servants');
    expect(json('api/v1/topics/1.json').webURL).toBe('https://diary.test/t/1');
    const schemas = (
      json('api/v1/schema.json').components as {
        schemas: Record<string, { properties: Record<string, { pattern: string }> }>;
      }
    ).schemas;
    const pattern = (schema: string) => new RegExp(schemas[schema]?.properties.webURL?.pattern as string);
    expect('https://diary.test/1661/01-20.html').toMatch(pattern('EntryItem'));
    expect('https://diary.test/diary/1661/01/20/').not.toMatch(pattern('EntryItem'));
    expect('https://diary.test/c/people/household/servants').toMatch(pattern('Category'));
    expect('https://diary.test/c/people/household/servants/x/y').not.toMatch(pattern('Category'));
    expect('https://diary.test/t/1').toMatch(pattern('TopicItem'));
    // The edge functions make list items from the site index: the templates travel in it.
    expect(json('_data/site-index.json').webURLs).toEqual({
      entry: '{site}/{yyyy}/{mm}-{dd}.html',
      category: '{site}/c/{path}',
      topic: '{site}/t/{id}',
    });
  });
});
