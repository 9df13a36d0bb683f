// Search answers through the handler, from a rendered site held in memory: the list envelope with
// snippets, links that repeat the search, the date range and pages, relevance, and bad input.

import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../generator/content/config.ts';
import { searchShardFile } from '../generator/core/files.ts';
import { handle } from '../generator/core/handler.ts';
import type { Entry, Model, Topic } from '../generator/core/model.ts';
import { shardCount, shardOf } from '../generator/core/search/postings.ts';
import { encodePostings } from '../generator/core/search/postings-writer.ts';
import { renderedSite } from './helpers/rendered.ts';

const T = '2026-01-01T00:00:00Z';

function entry(date: string, html: string, notes = ''): Entry {
  return {
    date,
    title: `Day ${date}`,
    entryHTML: html,
    footnotesHTML: notes,
    annotationCount: 0,
    lastAnnotationTime: null,
    topicIds: [],
    lastModifiedTime: T,
  };
}

function topic(id: number, title: string, tooltip: string, wheatley: string): Topic {
  return {
    id,
    title,
    orderTitle: title,
    kind: 'default',
    wheatleyHTML: wheatley,
    tooltipText: tooltip,
    wikipediaURL: null,
    thumbnailURL: null,
    annotationCount: 0,
    lastAnnotationTime: null,
    latitude: null,
    longitude: null,
    zoom: null,
    shape: '',
    categorySlugs: [],
    lastModifiedTime: T,
  };
}

const entries: Entry[] = Array.from({ length: 60 }, (_, i) => {
  const date = new Date(Date.UTC(1660, 0, 1 + i)).toISOString().slice(0, 10);
  return entry(
    date,
    `<p>Up early &amp; to the office. And so to bed${i % 2 === 0 ? ' with the plague <b>near</b>' : ''}.</p>`,
  );
});
entries[3] = entry(
  entries[3]?.date as string,
  '<p>My <i>lute</i> &lt;new strung&gt;.</p>',
  '<p>A theorbo is a lute.</p>',
);
const model: Model = {
  config: {
    ...DEFAULT_CONFIG,
    title: 'A Test Diary',
    author: 'A Tester',
    apiOrigin: 'https://api.test',
    siteOrigin: 'https://site.test',
    pageSize: 10,
    titleConvention: 'seed',
    lastModifiedTime: T,
  },
  entries,
  categories: [],
  topics: [
    topic(1, 'Lute', 'A stringed instrument', '<p>Pepys played it.</p>'),
    topic(2, 'Plague', 'The sickness', '<p>Of 1665; the lute was silent.</p>'),
  ],
  topicEntries: new Map(),
  categoryTopics: new Map(),
  categoryChildren: new Map(),
  categoryAncestors: new Map(),
};
const { files, site } = renderedSite(model);

async function get(target: string, read = (file: string) => files.get(file) ?? null) {
  const [path, query = ''] = target.split('?');
  const r = await handle({ method: 'GET', path: path as string, query, header: () => null }, site, read);
  return {
    status: r.status,
    text: new TextDecoder().decode(r.body),
    json: JSON.parse(new TextDecoder().decode(r.body)),
  };
}

describe('search answers', () => {
  it('list the matching entries in date order, with snippets, and links that repeat the search', async () => {
    const r = await get('/api/v1/entries?search=plagues&end=1660-02-29');
    expect(r.status).toBe(200);
    expect(r.json.totalResults).toBe(30);
    expect(r.json.totalPages).toBe(3);
    expect(r.json.nextPageURL).toBe('https://api.test/api/v1/entries?end=1660-02-29&page=2&search=plagues');
    expect(r.json.results[0]).toEqual({
      date: '1660-01-01',
      title: 'Day 1660-01-01',
      lastModifiedTime: T,
      apiURL: 'https://api.test/api/v1/entries/1660-01-01',
      webURL: expect.any(String),
      // Eight words before the first match, then the rest of this short text.
      snippet: '… the office. And so to bed with the <mark>plague</mark> near.',
    });
    // The page is assembled from kept fragments: the bytes of the contract's JSON of the whole.
    expect(r.text).toBe(JSON.stringify(r.json, null, 2));
    const again = await get('/api/v1/entries?search=plagues&end=1660-02-29');
    expect(again.text).toBe(r.text);
    const page3 = await get('/api/v1/entries?search=plagues&end=1660-02-29&page=3');
    expect(page3.json.results.map((e: { date: string }) => e.date).at(-1)).toBe('1660-02-28');
    expect((await get('/api/v1/entries?search=plagues&end=1660-02-29&page=4')).status).toBe(404);
  });

  it('answers phrases, `or`, exclusions and the date range', async () => {
    const count = async (q: string) => (await get(`/api/v1/entries?${q}`)).json.totalResults;
    expect(await count('search=%22and+so+to+bed%22')).toBe(59);
    expect(await count('search=%22so+and+to+bed%22')).toBe(0);
    expect(await count('search=lute+or+theorbo')).toBe(1);
    expect(await count('search=bed+-plague')).toBe(29);
    expect(await count('search=bed&start=1660-01-10&end=1660-01-19')).toBe(10);
  });

  it('marks matches in an escaped excerpt of the text first', async () => {
    const r = await get('/api/v1/entries?search=lute');
    expect(r.json.results[0].snippet).toBe('My <mark>lute</mark> &#60;new strung&#62;.');
  });

  it('ranks topics by relevance, the title first', async () => {
    const natural = await get('/api/v1/topics?search=lute');
    expect(natural.json.results.map((t: { id: number }) => t.id)).toEqual([1, 2]);
    const ranked = await get('/api/v1/topics?ordering=relevance&search=lute');
    expect(ranked.json.results.map((t: { id: number }) => t.id)).toEqual([1, 2]);
    const plague = await get('/api/v1/topics?ordering=relevance&search=plague+or+lute');
    expect(plague.json.results.map((t: { id: number }) => t.id)).toEqual([2, 1]);
    expect(plague.json.results[1].snippet).toBe('<mark>Lute</mark>');
  });

  it('gives a search asked again, and others showing the same records, the bytes of a first asking', async () => {
    // Kept bytes (the files' own objects) let the core keep each record's parsed detail, its kept
    // fields and the items it gave each search; copies make every answer a first one. Seven
    // searches show the same entries with other snippets, more than a record keeps items for.
    const fresh = (file: string) => {
      const bytes = files.get(file);
      return bytes === undefined ? null : new Uint8Array(bytes);
    };
    const searches = [
      'search=plague',
      'search=bed',
      'search=%22so+to+bed%22',
      'search=office+or+plague',
      'search=plague&ordering=relevance',
      'search=early+-lute',
      'search=near&page=2',
    ];
    let snippets = new Set<string>();
    for (const round of [0, 1, 2])
      for (const [i, q] of searches.entries()) {
        // Each round in another order, so that a record's kept items are found, missed and cleared.
        const target = `/api/v1/entries?${searches[(i * (round + 1)) % searches.length] ?? q}`;
        const kept = await get(target);
        const first = await get(target, fresh);
        expect(kept.status).toBe(200);
        expect(kept.text).toBe(first.text);
        if (round === 0) snippets = new Set([...snippets, kept.json.results[0].snippet]);
      }
    // The searches do show the first entry with different snippets.
    expect(snippets.size).toBeGreaterThanOrEqual(5);
  });

  it('answers an empty search with the same bytes as none', async () => {
    expect((await get('/api/v1/entries?search=')).text).toBe((await get('/api/v1/entries')).text);
    expect((await get('/api/v1/topics?search=&page=1')).text).toBe((await get('/api/v1/topics')).text);
  });

  it('refuses bad input with the contract error naming the parameter', async () => {
    const long = await get(`/api/v1/entries?search=${'a'.repeat(501)}`);
    expect(long.status).toBe(400);
    expect(long.json.detail).toMatch(/^Invalid "search" parameter/);
    expect((await get('/api/v1/entries?search=lute%01')).status).toBe(400);
    expect((await get('/api/v1/entries?search=lute&ordering=date')).json.detail).toMatch(/^Invalid "ordering"/);
    expect((await get('/api/v1/entries?search=lute&start=1660-13-01')).json.detail).toMatch(/^Invalid "start"/);
  });

  it('answers 503 "damaged" when postings point past the documents, are empty or past 2³¹', async () => {
    const shards = shardCount('entries', entries.length);
    const shardFile = searchShardFile('entries', shardOf('lute', shards));
    const shard = new TextDecoder().decode(files.get(shardFile));
    const withLute = (postings: string) => {
      const damaged = shard.replace(/(^|\n)lute\t[^\n]*/, `$1lute\t${postings}`);
      expect(damaged).not.toBe(shard);
      return (file: string) => (file === shardFile ? new TextEncoder().encode(damaged) : (files.get(file) ?? null));
    };
    const damage = [
      // The 61st document of 60, and one far past it.
      encodePostings([[60, [0]]]),
      encodePostings([
        [3, [2]],
        [5000, [1]],
      ]),
      // A line with no postings.
      '',
      // A position past 2³¹ - 1 (read into 32 bits, it was a small or negative number).
      encodePostings([[3, [2 ** 31 + 2]]]),
      // A position past the document's last word.
      encodePostings([[3, [9999]]]),
    ];
    for (const postings of damage) {
      const r = await get('/api/v1/entries?search=lute', withLute(postings));
      expect(r.status).toBe(503);
      expect(r.json.detail).toMatch(/^The built site's search index is incomplete: .* damaged/);
      expect(r.json.detail).toContain(shardFile);
    }
    // The same postings written as the build writes them: found.
    expect((await get('/api/v1/entries?search=lute', withLute(encodePostings([[3, [2]]])))).json.totalResults).toBe(1);
  });

  it('answers 503, not a crash, when the index is missing', async () => {
    const r = await get('/api/v1/entries?search=lute', (file) =>
      file.startsWith('_data/search/') ? null : (files.get(file) ?? null),
    );
    expect(r.status).toBe(503);
    expect(r.json.detail).toMatch(/search index is incomplete/);
  });
});
