// The feeds of the latest entries, through the local server: an Atom feed read by a parser made
// for feeds (@rowanmanning/feed-parser, not the library that writes it), and a JSON Feed 1.1 held
// to the specification's requirements; both held to the model (the latest 50 entries by date,
// newest first, each with its page, its API record and its text).

import { join } from 'node:path';
import { parseFeed } from '@rowanmanning/feed-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../generator/content/load.ts';
import type { Entry, Model } from '../generator/core/model.ts';
import { BROWSER_ACCEPT } from './contract/suite.ts';
import { type LocalSite, sampleSite } from './helpers/local-server.ts';

const CONTENT = join(import.meta.dirname, '..', 'content');

let site: LocalSite;
let model: Model;
let latest: Entry[];

beforeAll(async () => {
  site = sampleSite();
  model = (await loadContent(CONTENT)).model;
  latest = model.entries.slice(-50).reverse();
});
afterAll(() => site.stop());

const api = (date: string) => `${site.origin}/api/v1/entries/${date}`;
const web = (date: string) => `https://www.pepysdiary.com/diary/${date.replaceAll('-', '/')}/`;

describe('feeds', () => {
  it('serves an Atom feed of the latest 50 entries, newest first, that a feed parser reads', async () => {
    // A browser gets the feed too: the HTML view is for JSON answers only.
    const res = await fetch(`${site.origin}/api/v1/feeds/atom`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/atom+xml');
    expect(res.headers.get('etag')).toMatch(/^"/);
    const feed = parseFeed(await res.text());
    expect(feed.meta.type).toBe('atom');
    expect(feed.title).toBe('The Diary of Samuel Pepys');
    expect(feed.self).toBe(`${site.origin}/api/v1/feeds/atom`);
    expect(feed.items).toHaveLength(Math.min(50, model.entries.length));
    feed.items.forEach((item, i) => {
      const e = latest[i] as Entry;
      expect(item.id).toBe(api(e.date));
      expect(item.title).toBe(e.title);
      expect(item.url).toBe(web(e.date));
      expect(item.updated?.toISOString().replace('.000Z', 'Z')).toBe(e.lastModifiedTime);
      expect(item.content?.trim()).toContain(e.entryHTML.trim());
      const links = item.element.findElementsWithName('link').map((l) => l.getAttribute('href'));
      expect(links).toEqual([web(e.date), api(e.date)]);
    });
  });

  it('serves a JSON Feed 1.1 of the same entries, with what the specification requires', async () => {
    const res = await fetch(`${site.origin}/api/v1/feeds/json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/feed+json');
    const feed = (await res.json()) as {
      version: string;
      title: string;
      feed_url: string;
      home_page_url: string;
      authors: Array<{ name: string }>;
      items: Array<Record<string, unknown>>;
    };
    // JSON Feed 1.1: version and title required; items required, each with a string id and
    // content_html or content_text; dates in RFC 3339.
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.title).toBe('The Diary of Samuel Pepys');
    expect(feed.feed_url).toBe(`${site.origin}/api/v1/feeds/json`);
    expect(feed.authors).toEqual([{ name: 'Samuel Pepys' }]);
    expect(feed.items.map((i) => i.id)).toEqual(latest.map((e) => api(e.date)));
    feed.items.forEach((item, i) => {
      const e = latest[i] as Entry;
      expect(typeof item.id).toBe('string');
      expect(item.url).toBe(web(e.date));
      expect(item.external_url).toBe(api(e.date));
      expect(item.title).toBe(e.title);
      expect(item.content_html as string).toContain(e.entryHTML.trim());
      expect(new Date(item.date_modified as string).toISOString().replace('.000Z', 'Z')).toBe(e.lastModifiedTime);
    });
  });

  it('answers the feeds like every answer: 304 on a matching ETag, HEAD without a body, 405, no .json spelling', async () => {
    for (const path of ['/api/v1/feeds/atom', '/api/v1/feeds/json']) {
      const first = await fetch(`${site.origin}${path}`);
      const etag = first.headers.get('etag') as string;
      await first.arrayBuffer();
      const again = await fetch(`${site.origin}${path}`, { headers: { 'if-none-match': etag } });
      expect(again.status, path).toBe(304);
      const head = await fetch(`${site.origin}${path}`, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(head.headers.get('content-type'), path).toBe(first.headers.get('content-type'));
      expect(await head.text(), path).toBe('');
      expect((await fetch(`${site.origin}${path}`, { method: 'POST' })).status, path).toBe(405);
      expect((await fetch(`${site.origin}${path}.json`)).status, path).toBe(404);
    }
    expect((await fetch(`${site.origin}/api/v1/feeds`)).status).toBe(404);
  });
});
