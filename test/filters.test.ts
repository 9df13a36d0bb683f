// The record filters (`topic`, `day` on the entries; `kind`, `category` on the topics), through the
// local server on loopback, held to a brute-force computation from the validated model: the same
// records in the same order, items byte for byte as in the unfiltered lists, links that repeat the
// filters, the contract's errors.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../generator/content/load.ts';
import type { Model } from '../generator/core/model.ts';
import { pick, prng } from '../generator/core/random.ts';
import type { TopicKind } from '../generator/core/record-fields.ts';
import { type LocalSite, sampleSite } from './helpers/local-server.ts';

const CONTENT = join(import.meta.dirname, '..', 'content');

interface Envelope {
  totalResults: number;
  totalPages: number;
  nextPageURL: string | null;
  previousPageURL: string | null;
  results: Array<Record<string, unknown>>;
}

let site: LocalSite;
let model: Model;

beforeAll(async () => {
  site = sampleSite();
  model = (await loadContent(CONTENT)).model;
});
afterAll(() => site.stop());

async function get(path: string): Promise<{ status: number; body: unknown; text: string }> {
  const res = await fetch(`${site.origin}${path}`);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

/** Every page of a list, following nextPageURL; each page's links checked on the way. */
async function all(path: string): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  let url: string | null = `${site.origin}${path}`;
  let page = 0;
  while (url !== null) {
    const res = await fetch(url);
    expect(res.status, url).toBe(200);
    const e = (await res.json()) as Envelope;
    page++;
    expect(e.totalPages).toBe(Math.max(1, Math.ceil(e.totalResults / model.config.pageSize)));
    if (page > 1) expect(e.previousPageURL).not.toBeNull();
    out.push(...e.results);
    url = e.nextPageURL;
    if (url !== null) {
      // Parameters in alphabetical order, every filter repeated.
      const names = [...new URL(url).searchParams.keys()];
      expect(names).toEqual([...names].sort());
      for (const [name, value] of new URL(`${site.origin}${path}`).searchParams)
        if (value !== '' && name !== 'page')
          expect(new URL(url).searchParams.has(name), `${url} repeats ${name}`).toBe(true);
    }
  }
  return out;
}

/** The items of the unfiltered list, by key, as the list serves them (the bytes of each item). */
async function unfilteredItems(collection: 'entries' | 'topics'): Promise<Map<string, string>> {
  const items = await all(`/api/v1/${collection}`);
  return new Map(items.map((i) => [String(i.date ?? i.id), JSON.stringify(i)]));
}

describe('record filters', () => {
  it('lists the entries that mention a topic, in date order, items as in the unfiltered list', async () => {
    const items = await unfilteredItems('entries');
    const ids = [...model.topicEntries.keys()].filter((id) => (model.topicEntries.get(id) ?? []).length > 0);
    const rand = prng(7);
    for (let n = 0; n < 6; n++) {
      const id = pick(rand, ids);
      const got = await all(`/api/v1/entries?topic=${id}`);
      expect(got.map((e) => e.date)).toEqual(model.topicEntries.get(id));
      for (const e of got) expect(JSON.stringify(e)).toBe(items.get(String(e.date)));
    }
  });

  it('cuts the entries of a topic by start and end, and pages them', async () => {
    const [id, dates] = [...model.topicEntries].sort((a, b) => b[1].length - a[1].length)[0] as [number, string[]];
    const start = dates[Math.floor(dates.length / 4)] as string;
    const end = dates[Math.floor((3 * dates.length) / 4)] as string;
    const got = await all(`/api/v1/entries?end=${end}&start=${start}&topic=${id}`);
    expect(got.map((e) => e.date)).toEqual(dates.filter((d) => d >= start && d <= end));
  });

  it('lists the entries of one calendar day in every year', async () => {
    for (const day of ['01-01', '03-25', '09-02', '12-31', '02-29']) {
      const got = await all(`/api/v1/entries?day=${day}`);
      expect(got.map((e) => e.date)).toEqual(model.entries.map((e) => e.date).filter((d) => d.endsWith(`-${day}`)));
    }
  });

  it('lists the topics of a kind and of a category, alone and combined', async () => {
    const items = await unfilteredItems('topics');
    for (const kind of ['person', 'place', 'default'] as TopicKind[]) {
      const got = await all(`/api/v1/topics?kind=${kind}`);
      expect(got.map((t) => t.id)).toEqual(model.topics.filter((t) => t.kind === kind).map((t) => t.id));
      for (const t of got) expect(JSON.stringify(t)).toBe(items.get(String(t.id)));
    }
    for (const c of model.categories.slice(0, 8)) {
      const own = model.categoryTopics.get(c.slug) ?? [];
      const got = await all(`/api/v1/topics?category=${c.slug}`);
      expect(got.map((t) => t.id)).toEqual(own);
      const people = await all(`/api/v1/topics?category=${c.slug}&kind=person`);
      const kinds = new Map(model.topics.map((t) => [t.id, t.kind]));
      expect(people.map((t) => t.id)).toEqual(own.filter((id) => kinds.get(id) === 'person'));
    }
  });

  it('combines topic and day', async () => {
    const [id, dates] = [...model.topicEntries].sort((a, b) => b[1].length - a[1].length)[0] as [number, string[]];
    const day = (dates[0] as string).slice(5);
    const got = await all(`/api/v1/entries?day=${day}&topic=${id}`);
    expect(got.map((e) => e.date)).toEqual(dates.filter((d) => d.endsWith(`-${day}`)));
  });

  it('combines with search: the matches of the search that the filters select, in the same order', async () => {
    const keys = (items: Array<Record<string, unknown>>) => items.map((i) => String(i.date ?? i.id));
    const [id] = [...model.topicEntries].sort((a, b) => b[1].length - a[1].length)[0] as [number, string[]];
    for (const [search, filter, list] of [
      ['the', `topic=${id}`, 'entries'],
      ['and', 'day=01-01', 'entries'],
      ['the', 'kind=person', 'topics'],
    ] as const) {
      const searched = keys(await all(`/api/v1/${list}?search=${search}`));
      const filtered = new Set(keys(await all(`/api/v1/${list}?${filter}`)));
      const both = await all(`/api/v1/${list}?${filter}&search=${search}`);
      expect(keys(both), `${filter} ${search}`).toEqual(searched.filter((k) => filtered.has(k)));
      expect(both.length, `${filter} ${search}`).toBeGreaterThan(0);
      for (const item of both) expect(typeof item.snippet).toBe('string');
    }
  });

  it('treats empty values as absent: the same bytes as the unfiltered list', async () => {
    const plain = await get('/api/v1/entries');
    expect((await get('/api/v1/entries?day=&topic=')).text).toBe(plain.text);
    expect((await get('/api/v1/topics?category=&kind=')).text).toBe((await get('/api/v1/topics')).text);
  });

  it('reads a topic id in the filter as the path reads it: leading zeros, however many, are nothing', async () => {
    const [id] = [...model.topicEntries].sort((a, b) => b[1].length - a[1].length)[0] as [number, string[]];
    const plain = await get(`/api/v1/entries?topic=${id}`);
    expect(plain.status).toBe(200);
    for (const zeros of [1, 3, 14, 20, 40]) {
      const padded = `${'0'.repeat(zeros)}${id}`;
      expect((await get(`/api/v1/entries?topic=${padded}`)).text, padded).toBe(plain.text);
      expect((await get(`/api/v1/topics/${padded}`)).status, padded).toBe(200);
    }
    // Past any id a topic can have: no such topic, in the filter as in the path.
    for (const big of ['9007199254740993', '123456789012345678901234567890']) {
      expect((await get(`/api/v1/entries?topic=${big}`)).status, big).toBe(404);
      expect((await get(`/api/v1/topics/${big}`)).status, big).toBe(404);
    }
  });

  it('answers bad values with the contract errors, naming the parameter', async () => {
    const cases: Array<[string, number, RegExp]> = [
      ['/api/v1/entries?topic=abc', 400, /"topic" parameter/],
      ['/api/v1/entries?topic=-1', 400, /"topic" parameter/],
      ['/api/v1/entries?topic=999999999', 404, /No Topic matches/],
      ['/api/v1/entries?day=02-30', 400, /"day" parameter/],
      ['/api/v1/entries?day=1-1', 400, /"day" parameter/],
      ['/api/v1/entries?day=13-01', 400, /"day" parameter/],
      ['/api/v1/topics?kind=animal', 400, /"kind" parameter/],
      ['/api/v1/topics?category=no-such-category', 404, /No Category matches/],
      ['/api/v1/topics?category=../x', 404, /No Category matches/],
      ['/api/v1/entries?day=01-01&page=99', 404, /Invalid page/],
      // The date's 400 comes before the filter's.
      ['/api/v1/entries?start=nope&topic=abc', 400, /"start" parameter/],
    ];
    for (const [path, status, detail] of cases) {
      const r = await get(path);
      expect(r.status, path).toBe(status);
      expect((r.body as { detail: string }).detail, path).toMatch(detail);
      expect((r.body as { status_code: number }).status_code, path).toBe(status);
    }
  });

  it('ignores the filters of the other list', async () => {
    expect((await get('/api/v1/topics?day=01-01&topic=1')).text).toBe((await get('/api/v1/topics')).text);
    expect((await get('/api/v1/entries?kind=person')).text).toBe((await get('/api/v1/entries')).text);
  });
});
