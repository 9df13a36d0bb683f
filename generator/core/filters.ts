// The record filters of the lists (django-filter's convention, as the reference's stack has it):
// `topic` and `day` on the entries, `kind` and `category` on the topics. Each narrows the list to
// some positions of the unfiltered list; they combine with each other, with `start`/`end` and with
// `page`, and their links repeat them. Validated here, synchronously (400 for a malformed value,
// 404 for a topic or category the site does not have); the positions come from files of the built
// site, read through the runtime's ReadFile (an Answer of kind 'compute': answer-types.ts): a
// topic's or a category's own detail, and the small kinds file the build writes (TOPIC_KINDS_FILE).
// A category's or a kind's topics alone are a page the build wrote (core/topic-lists.ts), and a
// category's topics of one kind are read out of the category's pages.

import type { Answer, ReadFile } from './answer-types.ts';
import { type ApiError, errorBody, INVALID_PAGE } from './errors.ts';
import { detailFile, TOPIC_KINDS_FILE } from './files.ts';
import { IncompleteSite } from './incomplete-site.ts';
import { resultFragment } from './json.ts';
import type { ListQuery } from './lists.ts';
import { type LinkFilters, parsePage, totalPagesFor } from './pagination.ts';
import { RECORD_PARAMETERS, type RecordParameter } from './parameters.ts';
import { dateRange, lowerBound } from './ranges.ts';
import type { TopicKind } from './record-fields.ts';
import { type RecordPage, recordPage } from './record-page.ts';
import { topicItemOf } from './records.ts';
import { ok, type Result } from './result.ts';
import type { SiteIndex } from './site-index.ts';
import { type TopicList, topicListFile } from './topic-lists.ts';
import type { Collection, TopicDetail } from './types.ts';

/** The filters of one list request that are record filters, validated (a field per record row of parameters.ts). */
export interface RecordFilters extends Partial<Record<RecordParameter['name'], string | number>> {
  topic?: number;
  day?: string;
  kind?: TopicKind;
  category?: string;
}

/** The record filters a list takes, from a request's query: empty values are absent. */
export function recordFilters(collection: Collection, q: ListQuery, site: SiteIndex): Result<RecordFilters, ApiError> {
  const filters: Record<string, string | number> = {};
  for (const p of RECORD_PARAMETERS) {
    const raw = q[p.name];
    if (!(p.lists as readonly Collection[]).includes(collection) || raw === undefined || raw === '') continue;
    const value = p.parse(raw, site);
    if (!value.ok) return value;
    filters[p.name] = value.value;
  }
  // Each row's parse gives its field's type (parameters.ts): the topic's id, a TopicKind, a string.
  return ok(filters as RecordFilters);
}

export function hasRecordFilters(f: RecordFilters): boolean {
  return RECORD_PARAMETERS.some((p) => f[p.name] !== undefined);
}

/** The filters as links repeat them (canonical values: topic `007` is `7`). */
export function recordLinkFilters(f: RecordFilters): LinkFilters {
  const links: LinkFilters = {};
  for (const { name } of [...RECORD_PARAMETERS].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const value = f[name];
    if (value !== undefined) links[name] = String(value);
  }
  return links;
}

// ---------------------------------------------------------------------------------------------
// The kinds file: the ids of the people and of the places (every other topic is of kind default).

interface TopicKindsFile {
  version: 1;
  person: number[];
  place: number[];
}

export function topicKindsBody(topics: ReadonlyArray<{ id: number; kind: TopicKind }>): string {
  const file: TopicKindsFile = {
    version: 1,
    person: topics.filter((t) => t.kind === 'person').map((t) => t.id),
    place: topics.filter((t) => t.kind === 'place').map((t) => t.id),
  };
  return JSON.stringify(file);
}

const decoder = new TextDecoder();

/** Parsed forms, by the bytes a ReadFile gave (a runtime that keeps bytes parses each file once). */
const parsedJson = new WeakMap<Uint8Array, unknown>();

function parseOnce(bytes: Uint8Array): unknown {
  if (parsedJson.has(bytes)) return parsedJson.get(bytes);
  let value: unknown = null;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    value = null;
  }
  parsedJson.set(bytes, value);
  return value;
}

/** A file's JSON object; an IncompleteSite when it is missing or is not one. */
async function readJson(readFile: ReadFile, file: string): Promise<Record<string, unknown>> {
  const bytes = await readFile(file);
  if (bytes === null) throw new IncompleteSite(file, 'missing');
  const value = parseOnce(bytes);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new IncompleteSite(file, 'damaged');
  return value as Record<string, unknown>;
}

/** The last path segment of each URL of a list (the key of the record it names). */
function keysOf(urls: unknown): string[] | null {
  if (!Array.isArray(urls) || !urls.every((u) => typeof u === 'string')) return null;
  return (urls as string[]).map((u) => u.slice(u.lastIndexOf('/') + 1));
}

const topicIdLists = new WeakMap<SiteIndex, readonly number[]>();

/** The topic ids of a site in their list's order (ascending). */
function topicOrder(site: SiteIndex): readonly number[] {
  let ids = topicIdLists.get(site);
  if (ids === undefined) {
    ids = [...site.topicIds].sort((a, b) => a - b);
    topicIdLists.set(site, ids);
  }
  return ids;
}

function positionOfId(ids: readonly number[], id: number): number {
  const i = lowerBound(ids, id);
  return ids[i] === id ? i : -1;
}

/** Ascending positions in both ascending lists. */
function intersect(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      out.push(x);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out;
}

/** The positions of a category's topics in the topics' list (ascending), from its detail. */
async function categoryPositions(slug: string, site: SiteIndex, readFile: ReadFile): Promise<number[]> {
  const ids = topicOrder(site);
  const file = detailFile('categories', slug);
  const keys = keysOf((await readJson(readFile, file)).topics);
  if (keys === null) throw new IncompleteSite(file, 'damaged');
  return keys
    .map((k) => positionOfId(ids, Number(k)))
    .filter((p) => p >= 0)
    .sort((a, b) => a - b);
}

/**
 * The positions, in the unfiltered list, of the records the filters select (ascending), or null
 * when no record filter is given (every record). Throws an IncompleteSite for a file it cannot use.
 * `category`: the positions of the category's topics, when the caller has read them already.
 */
export async function filteredPositions(
  collection: Collection,
  f: RecordFilters,
  site: SiteIndex,
  readFile: ReadFile,
  category?: number[],
): Promise<number[] | null> {
  let positions: number[] | null = null;
  const narrow = (next: number[]) => {
    positions = positions === null ? next : intersect(positions, next);
  };
  if (collection === 'entries') {
    const dates = site.entryDates;
    if (f.day !== undefined) {
      const suffix = `-${f.day}`;
      const found: number[] = [];
      for (let i = 0; i < dates.length; i++) if ((dates[i] as string).endsWith(suffix)) found.push(i);
      narrow(found);
    }
    if (f.topic !== undefined) {
      const file = detailFile('topics', String(f.topic));
      const keys = keysOf((await readJson(readFile, file)).entries);
      if (keys === null) throw new IncompleteSite(file, 'damaged');
      const found: number[] = [];
      for (const date of keys) {
        const i = lowerBound(dates, date);
        if (dates[i] === date) found.push(i);
      }
      narrow(found.sort((a, b) => a - b));
    }
  } else if (collection === 'topics') {
    const ids = topicOrder(site);
    if (f.category !== undefined) narrow(category ?? (await categoryPositions(f.category, site, readFile)));
    if (f.kind !== undefined) {
      const { person, place } = await readJson(readFile, TOPIC_KINDS_FILE);
      if (!Array.isArray(person) || !Array.isArray(place)) throw new IncompleteSite(TOPIC_KINDS_FILE, 'damaged');
      let found: number[];
      if (f.kind === 'default') {
        const special = new Set<number>([...(person as number[]), ...(place as number[])]);
        found = [];
        for (let i = 0; i < ids.length; i++) if (!special.has(ids[i] as number)) found.push(i);
      } else {
        const list = (f.kind === 'person' ? person : place) as number[];
        found = list.map((id) => positionOfId(ids, id)).filter((p) => p >= 0);
        found.sort((a, b) => a - b);
      }
      narrow(found);
    }
  }
  return positions;
}

const topicFragments = new WeakMap<Uint8Array, string>();

/**
 * Where the items of a page of a category's topics narrowed further (by kind) are read from: the
 * pages of that category's topics the build wrote (core/topic-lists.ts), a few files, not the
 * detail of each topic. `carrier`: the positions of the category's topics. Null when it wrote none.
 */
function carrierOf(
  slug: string,
  carrier: readonly number[],
  site: SiteIndex,
): Pick<RecordPage, 'fileOf' | 'fragment'> | null {
  const list: TopicList = { filter: 'category', value: slug };
  if (!site.topicListCount(list)) return null;
  const ids = topicOrder(site);
  const indexOf = (p: number) => lowerBound(carrier, p);
  const fileOf = (p: number) => topicListFile(list, Math.floor(indexOf(p) / site.pageSize) + 1);
  const fragment = (p: number, bytes: Uint8Array | undefined): string => {
    const page = parseOnce(bytes as Uint8Array) as { results?: unknown } | null;
    const item = Array.isArray(page?.results) ? page.results[indexOf(p) % site.pageSize] : undefined;
    // The item of another topic, or none: the page is not this build's.
    if (typeof item !== 'object' || item === null || (item as { id?: unknown }).id !== ids[p])
      throw new IncompleteSite(fileOf(p), 'damaged');
    return resultFragment(item);
  };
  return { fileOf, fragment };
}

/** The one list of a category's or a kind's topics that the filters select, if that is all they do. */
function topicListOf(f: RecordFilters): TopicList | null {
  if (RECORD_PARAMETERS.some((p) => p.name !== 'category' && p.name !== 'kind' && f[p.name] !== undefined)) return null;
  if (f.category !== undefined && f.kind === undefined) return { filter: 'category', value: f.category };
  if (f.kind !== undefined && f.category === undefined) return { filter: 'kind', value: f.kind };
  return null;
}

/**
 * The page of the topics of a category or a kind that the build wrote (core/topic-lists.ts), as a
 * pre-rendered list's; null when it wrote none (an index without their counts, an empty list).
 */
function writtenTopicPage(f: RecordFilters, rawPage: string | undefined, site: SiteIndex): Answer | null {
  const list = topicListOf(f);
  const count = list === null ? null : site.topicListCount(list);
  if (list === null || count === null || count === 0) return null;
  const page = parsePage(rawPage, totalPagesFor(count, site.pageSize));
  if (page === null) return { kind: 'body', status: INVALID_PAGE.status, body: errorBody(INVALID_PAGE) };
  return { kind: 'file', file: topicListFile(list, page) };
}

/**
 * A list request with record filters: the records they select (within `start`/`end` for the
 * entries), 50 a page, items exactly as in the unfiltered list.
 */
export function filteredListAnswer(
  collection: 'entries' | 'topics',
  f: RecordFilters,
  dates: LinkFilters,
  rawPage: string | undefined,
  site: SiteIndex,
): Answer {
  const written = collection === 'topics' ? writtenTopicPage(f, rawPage, site) : null;
  if (written !== null) return written;
  const links: LinkFilters = { ...dates, ...recordLinkFilters(f) };
  return {
    kind: 'compute',
    run: async (readFile) => {
      // A category's topics, read once: they narrow the list and, when the build wrote their
      // pages, say where on those pages each topic's item is (carrierOf).
      const category =
        collection === 'topics' && f.category !== undefined
          ? await categoryPositions(f.category, site, readFile)
          : undefined;
      let positions = (await filteredPositions(collection, f, site, readFile, category)) ?? [];
      if (collection === 'entries') {
        const { from, to } = dateRange(site.entryDates, dates.start, dates.end);
        positions = positions.filter((p) => p >= from && p < to);
      }
      if (collection === 'entries')
        return recordPage(
          { collection, selected: positions, rawPage, links, part: 'site', fragment: (p) => site.entryFragment(p) },
          site,
          readFile,
        );
      const ids = topicOrder(site);
      const carried = f.category === undefined || category === undefined ? null : carrierOf(f.category, category, site);
      if (carried !== null)
        return recordPage(
          { collection, selected: positions, rawPage, links, part: 'site', ...carried },
          site,
          readFile,
        );
      const fileOf = (p: number) => detailFile('topics', String(ids[p]));
      // recordPage gives the bytes of each topic's detail (fileOf).
      const fragment = (p: number, bytes: Uint8Array | undefined): string => {
        const detail = bytes as Uint8Array;
        let fragment = topicFragments.get(detail);
        if (fragment === undefined) {
          const d = parseOnce(detail) as TopicDetail | null;
          if (d === null || typeof d !== 'object') throw new IncompleteSite(fileOf(p), 'damaged');
          fragment = resultFragment(topicItemOf(d));
          topicFragments.set(detail, fragment);
        }
        return fragment;
      };
      return recordPage(
        { collection, selected: positions, rawPage, links, fileOf, part: 'site', fragment },
        site,
        readFile,
      );
    },
  };
}
