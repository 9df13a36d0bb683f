// What is searched of HTML (issue 36, item 15): every HTML5 character reference decoded, as a
// browser decodes text (`caf&eacute;` is found by `cafe`), a soft hyphen not a word (`&shy;` was
// the word "shy", and showed as `&#38;shy;` in a snippet), and a script's or a style sheet's
// content not text.

import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../generator/content/config.ts';
import { handle } from '../generator/core/handler.ts';
import type { Entry, Model } from '../generator/core/model.ts';
import { htmlText } from '../generator/core/search/text.ts';
import { terms } from '../generator/core/search/tokenize.ts';
import { renderedSite } from './helpers/rendered.ts';

describe('the searchable text of HTML', () => {
  it('decodes every named and numeric reference as a browser does', () => {
    expect(htmlText('caf&eacute; &Eacute;glise na&iuml;ve &hellip; &mdash; &frac12;')).toBe('café Église naïve … — ½');
    expect(htmlText('&#233;&#xE9;&#XE9; &#8217; &amp;&lt;&gt;&quot;&apos;&nbsp;')).toBe('ééé ’ &<>"\'\u00a0');
    // What a browser makes of references out of range, of C1 numbers and of legacy names.
    expect(htmlText('&#0; &#x110000; &#128; &copy2020 AT&T &bogus;')).toBe('\ufffd \ufffd € ©2020 AT&T &bogus;');
    // Decoded once: an escaped reference is text.
    expect(htmlText('&amp;eacute;')).toBe('&eacute;');
  });

  it('leaves out soft hyphens: a word broken by one is one word', () => {
    expect(htmlText('bless&shy;ing bless\u00ading')).toBe('blessing blessing');
    expect(terms(htmlText('caf&eacute; bless&shy;ing'))).toEqual(terms('cafe blessing'));
    expect(terms(htmlText('&shy;'))).toEqual([]);
  });

  it('leaves out scripts and style sheets with their content', () => {
    expect(
      htmlText('<p>a <script>var secret = 1;</script>b <STYLE type="text/css">.x { color: red }</STYLE>c</p>'),
    ).toBe(' a b c ');
    expect(htmlText('one <script src="x.js"></script>two <script>never closed')).toBe('one two ');
    // Not a script: a word that begins like one.
    expect(htmlText('<scripture>psalm</scripture>')).toBe('psalm');
  });
});

const T = '2026-01-01T00:00:00Z';
const entry = (day: number, html: string): Entry => ({
  date: `1660-01-0${day}`,
  title: `Day ${day}`,
  entryHTML: html,
  footnotesHTML: '',
  annotationCount: 0,
  lastAnnotationTime: null,
  topicIds: [],
  lastModifiedTime: T,
});
const model: Model = {
  config: { ...DEFAULT_CONFIG, apiOrigin: 'https://api.test', siteOrigin: 'https://site.test', lastModifiedTime: T },
  entries: [
    entry(1, '<p>To the caf&eacute; by the river, and a bless&shy;ing on it.</p>'),
    entry(2, '<p>Home.<script>document.write("plague")</script><style>p { color: navy }</style></p>'),
    entry(3, '<p>The shy girl.</p>'),
  ],
  categories: [],
  topics: [],
  topicEntries: new Map(),
  categoryTopics: new Map(),
  categoryChildren: new Map(),
  categoryAncestors: new Map(),
};
const { files, site } = renderedSite(model);

async function search(q: string): Promise<{ totalResults: number; results: Array<{ date: string; snippet: string }> }> {
  const r = await handle(
    { method: 'GET', path: '/api/v1/entries', query: `search=${encodeURIComponent(q)}`, header: () => null },
    site,
    (file) => files.get(file) ?? null,
  );
  expect(r.status).toBe(200);
  return JSON.parse(new TextDecoder().decode(r.body));
}

describe('searches of text with references', () => {
  it('finds a word written with a reference by its plain letters, and marks it', async () => {
    const r = await search('cafe');
    expect(r.results.map((e) => e.date)).toEqual(['1660-01-01']);
    expect(r.results[0]?.snippet).toBe('To the <mark>café</mark> by the river, and a blessing on it.');
    expect((await search('blessing')).totalResults).toBe(1);
  });

  it('does not find a soft hyphen as the word "shy", nor a script or a style sheet', async () => {
    expect((await search('shy')).results.map((e) => e.date)).toEqual(['1660-01-03']);
    expect((await search('plague')).totalResults).toBe(0);
    expect((await search('navy')).totalResults).toBe(0);
    expect((await search('home')).results[0]?.snippet).toBe('<mark>Home</mark>.');
  });
});
