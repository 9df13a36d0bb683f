// The whole-data downloads, through the local server: the list at /api/v1/downloads, each file
// as listed (size, SHA-256, media type, served as it is), the NDJSON files line for line against
// the API's lists and details, and the SQLite database, opened by sql.js, record for record
// against the API.

import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import initSqlJs, { type Database } from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CategoryDetail, Download, EntryDetail, TopicDetail } from '../generator/core/types.ts';
import { type LocalSite, sampleSite } from './helpers/local-server.ts';

let site: LocalSite;
let downloads: Download[];
const files = new Map<string, Buffer>();
/** Every record of each collection, as the API gives it: its detail, in the list's order. */
const api: { entries: EntryDetail[]; categories: CategoryDetail[]; topics: TopicDetail[] } = {
  entries: [],
  categories: [],
  topics: [],
};

async function json<T>(url: string): Promise<T> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return (await res.json()) as T;
}

async function crawl<T>(collection: keyof typeof api): Promise<T[]> {
  const out: T[] = [];
  let next: string | null = `${site.origin}/api/v1/${collection}`;
  while (next !== null) {
    const page: { results: Array<{ apiURL: string }>; nextPageURL: string | null } = await json(next);
    for (const item of page.results) out.push(await json<T>(item.apiURL));
    next = page.nextPageURL;
  }
  return out;
}

beforeAll(async () => {
  site = sampleSite();
  downloads = (await json<{ downloads: Download[] }>(`${site.origin}/api/v1/downloads`)).downloads;
  for (const d of downloads) {
    const res = await fetch(d.url, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.status, d.url).toBe(200);
    expect(res.headers.get('content-type'), d.url).toBe(d.mediaType);
    // Served as they are: no content coding, so the listed size and hash are of what arrives.
    expect(res.headers.get('content-encoding'), d.url).toBeNull();
    files.set(d.name, Buffer.from(await res.arrayBuffer()));
  }
  api.entries = await crawl<EntryDetail>('entries');
  api.categories = await crawl<CategoryDetail>('categories');
  api.topics = await crawl<TopicDetail>('topics');
}, 60_000);
afterAll(() => site.stop());

function file(name: string): Buffer {
  const body = files.get(name);
  if (body === undefined) throw new Error(`${name} is not listed`);
  return body;
}

describe('downloads', () => {
  it('lists each file with an absolute URL, its media type, size and SHA-256 as served', () => {
    expect(downloads.map((d) => d.name)).toEqual([
      'entries.ndjson.gz',
      'categories.ndjson.gz',
      'topics.ndjson.gz',
      'diary.sqlite',
    ]);
    for (const d of downloads) {
      expect(d.url).toBe(`${site.origin}/api/v1/downloads/${d.name}`);
      expect(d.description).not.toBe('');
      expect(d.bytes, d.name).toBe(file(d.name).length);
      expect(d.sha256, d.name).toBe(createHash('sha256').update(file(d.name)).digest('hex'));
    }
  });

  it('answers an unknown file, or a .json spelling of one, with the contract 404', async () => {
    for (const path of ['/api/v1/downloads/nope.gz', '/api/v1/downloads/diary.sqlite.json', '/api/v1/downloads/']) {
      const res = await fetch(`${site.origin}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toEqual({ detail: 'Not found.', status_code: 404 });
    }
  });

  it('holds each collection as NDJSON: one detail a line, in the list order, as the API gives it', () => {
    for (const collection of ['entries', 'categories', 'topics'] as const) {
      const text = gunzipSync(file(`${collection}.ndjson.gz`)).toString('utf8');
      expect(text.endsWith('\n')).toBe(true);
      const lines = text.slice(0, -1).split('\n');
      expect(
        lines.map((l) => JSON.parse(l)),
        collection,
      ).toEqual(api[collection]);
      expect(lines.length).toBeGreaterThan(10);
    }
  });

  describe('the SQLite database', () => {
    let db: Database;
    beforeAll(async () => {
      db = new (await initSqlJs()).Database(file('diary.sqlite'));
    });
    afterAll(() => db.close());

    const rows = (sql: string, params: Array<string | number> = []): Array<Record<string, unknown>> => {
      const s = db.prepare(sql);
      s.bind(params);
      const out: Array<Record<string, unknown>> = [];
      while (s.step()) out.push(s.getAsObject());
      s.free();
      return out;
    };
    const slugOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

    it('has every entry, with its topics, as the API gives it', () => {
      const topics = new Map<string, string[]>();
      for (const r of rows('SELECT entry, topic FROM entry_topics ORDER BY entry, topic'))
        topics.set(String(r.entry), [
          ...(topics.get(String(r.entry)) ?? []),
          `${site.origin}/api/v1/topics/${r.topic}`,
        ]);
      const fromDb = rows('SELECT * FROM entries ORDER BY date').map((r) => {
        const { apiURL, webURL, lastModifiedTime, ...head } = r;
        return { ...head, topics: topics.get(String(r.date)) ?? [], lastModifiedTime, apiURL, webURL };
      });
      expect(fromDb).toEqual(api.entries);
    });

    it('has every category, its parent and its topics, as the API gives them', () => {
      const fromDb = rows('SELECT * FROM categories ORDER BY slug').map((r) => {
        const topics = rows('SELECT topic FROM topic_categories WHERE category = ? ORDER BY topic', [
          String(r.slug),
        ]).map((t) => `${site.origin}/api/v1/topics/${t.topic}`);
        const children = rows('SELECT slug FROM categories WHERE parent = ?', [String(r.slug)]).map((c) => c.slug);
        return { ...r, topics, children: children.sort() };
      });
      expect(fromDb).toEqual(
        api.categories.map((c) => ({
          slug: c.slug,
          title: c.title,
          topicCount: c.topicCount,
          depth: c.depth,
          parent: c.parents.length === 0 ? null : slugOf(c.parents[c.parents.length - 1] as string),
          apiURL: c.apiURL,
          webURL: c.webURL,
          topics: c.topics,
          children: c.children.map(slugOf).sort(),
        })),
      );
    });

    it('has every topic, its categories and its entries, as the API gives them', () => {
      const fromDb = rows('SELECT * FROM topics ORDER BY id').map((r) => {
        const id = Number(r.id);
        const categories = rows('SELECT category FROM topic_categories WHERE topic = ? ORDER BY category', [id]);
        const entries = rows('SELECT entry FROM entry_topics WHERE topic = ? ORDER BY entry', [id]);
        const { lastModifiedTime, apiURL, webURL, ...head } = r;
        return {
          ...head,
          categories: categories.map((c) => `${site.origin}/api/v1/categories/${c.category}`),
          entries: entries.map((e) => `${site.origin}/api/v1/entries/${e.entry}`),
          lastModifiedTime,
          apiURL,
          webURL,
        };
      });
      expect(fromDb).toEqual(api.topics);
    });

    it('finds words of the text, not of the markup, in its full-text tables', () => {
      const entryByWord = (word: string) =>
        rows(
          'SELECT e.date FROM entries_fts JOIN entries e ON e.rowid = entries_fts.docid WHERE entries_fts MATCH ? ORDER BY e.date',
          [word],
        ).map((r) => r.date);
      // Porter stemming: "walked" finds "walk", "walking"; each entry found has the stem in its text.
      const found = entryByWord('walk');
      expect(found.length).toBeGreaterThan(0);
      for (const date of found) {
        const e = api.entries.find((x) => x.date === date) as EntryDetail;
        expect(`${e.title} ${e.entryHTML} ${e.footnotesHTML}`.toLowerCase(), String(date)).toContain('walk');
      }
      // Every entry has a paragraph, none has the tag's name as a word of its text.
      expect(api.entries.every((e) => e.entryHTML.includes('<p>'))).toBe(true);
      expect(entryByWord('p')).toEqual([]);
      const topic = api.topics[0] as TopicDetail;
      const word = topic.title.split(/\W+/).find((w) => w.length > 3) as string;
      const topics = rows('SELECT docid FROM topics_fts WHERE topics_fts MATCH ?', [word]).map((r) => r.docid);
      expect(topics).toContain(topic.id);
    });
  });
});
