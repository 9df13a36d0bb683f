// The compact index of a built site: enough to answer every list request and to tell an unknown
// record from a known one, without the content. The build writes it (SITE_INDEX_FILE); the local
// server and the edge functions load it once per generation or per isolate.

import { CALENDARS, type CalendarName } from './calendar.ts';
import { areCalendarDates, isCalendarDate } from './dates.ts';
import { hash64 } from './hash.ts';
import {
  areIdRuns,
  entryOfIndex,
  type IndexEntry,
  type IndexTitles,
  idRuns,
  idsOfRuns,
  indexEntries,
  isIndexTitles,
} from './index-lists.ts';
import { resultFragment } from './json.ts';
import { isLicense, type License } from './license.ts';
import type { Model } from './model.ts';
import { PEPYS_PERIOD, type Period } from './period.ts';
import { TOPIC_KINDS, type TopicKind } from './record-fields.ts';
import { entryItem } from './records.ts';
import { fail, ok, type Result } from './result.ts';
import type { TitleRules } from './titles.ts';
import { type TopicList, topicListCounts } from './topic-lists.ts';
import type { IsoDate, Timestamp } from './types.ts';
import { DEFAULT_WEB_URLS, type WebURLs } from './urls.ts';

/**
 * The version of the output's layout the index belongs to. 2: the details are packed
 * (core/packs.ts). A server of this version finds no detail in an output of version 1 (one file a
 * record), so it refuses that output's index and says to build again, rather than answer 503 for
 * every record. 3: each row of a pack's table carries a digest of its record, and the index the
 * diary's calendar and licence; a server of this version reads an output of version 2's packs as
 * damaged, so it refuses that index too. 4: the entries are packed by half-month, not by hash
 * (core/packs.ts); a server of this version would look for them in other files.
 */
const SITE_INDEX_VERSION = 4;

export interface SiteIndexFile {
  version: typeof SITE_INDEX_VERSION;
  /** Changes whenever anything a computed answer depends on changes. */
  buildId: string;
  apiOrigin: string;
  siteOrigin: string;
  pageSize: number;
  /** The diary's first and last day (site.yaml `period`): its years and months with entries are pre-rendered. */
  period: Period;
  /** The calendar of the entries' dates, addresses and `start`/`end` (site.yaml `calendar`). */
  calendar: CalendarName;
  /** The licence of the data (site.yaml `license`), absent when the site states none. */
  license?: License;
  /** The API's name in the HTML view (apiName). */
  name: string;
  /** Templates of the webURLs (site.yaml webURLs). */
  webURLs: WebURLs;
  /** Category slugs, ascending. */
  categories: string[];
  /** Topic ids, ascending: as runs of consecutive ids (core/index-lists.ts), or (earlier builds) each. */
  topicRuns?: number[];
  topics?: number[];
  /**
   * How many topics each category holds (`categories`' order), and each kind: the lists whose
   * pages the build writes (core/topic-lists.ts). Absent from the indexes of builds made before
   * them, whose filtered pages are all computed.
   */
  categoryTopics?: number[];
  kindTopics?: Record<TopicKind, number>;
  /** The lastModifiedTime of an entry written as its date alone, and how its title is made. */
  entryTime?: Timestamp;
  titles?: IndexTitles;
  /** Every entry, ascending by date: its date alone, or [date, title, lastModifiedTime] (core/index-lists.ts). */
  entries: IndexEntry[];
}

/** The index as the handler reads it: the file's settings as they are, its lists made ready. */
export interface SiteIndex
  extends Pick<
    SiteIndexFile,
    'buildId' | 'apiOrigin' | 'siteOrigin' | 'pageSize' | 'period' | 'calendar' | 'name' | 'webURLs'
  > {
  license: License | null;
  entryDates: IsoDate[];
  /** The list item of the entry at a position, as a result fragment (rendered once, when first asked). */
  entryFragment: (position: number) => string;
  categorySlugs: ReadonlySet<string>;
  topicIds: ReadonlySet<number>;
  /** The topics of a category or a kind, when the build wrote their pages (null: it did not). */
  topicListCount: (list: TopicList) => number | null;
}

/** The title of the diary the project was made for (site.yaml's default). */
export const PEPYS_TITLE = 'The Diary of Samuel Pepys';

/** The API's name in the HTML view: the project's own for the Pepys diary, after its title for another. */
export function apiName(title: string): string {
  return title === PEPYS_TITLE ? 'Pepys diary API' : `${title} · API`;
}

/** The index of a model whose entries' titles are made by `rules` (content/locale.ts titleRules). */
export function siteIndexFile(model: Model, rules: TitleRules): SiteIndexFile {
  const { apiOrigin, siteOrigin, pageSize, period, calendar, license, webURLs } = model.config;
  const body: Omit<SiteIndexFile, 'buildId' | 'version'> = {
    apiOrigin,
    siteOrigin,
    pageSize,
    period: { start: period.start, end: period.end },
    calendar,
    ...(license === null ? {} : { license: { ...license } }),
    name: apiName(model.config.title),
    webURLs: { entry: webURLs.entry, category: webURLs.category, topic: webURLs.topic },
    categories: model.categories.map((c) => c.slug),
    topicRuns: idRuns(model.topics.map((t) => t.id)),
    ...topicListCounts(model),
    ...indexEntries(model.entries, rules),
  };
  const buildId = hash64(JSON.stringify(body));
  return { version: SITE_INDEX_VERSION, buildId, ...body };
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** What is wrong with a parsed SITE_INDEX_FILE, or null when it is one. */
function defect(f: Record<string, unknown>): string | null {
  if (f.version !== SITE_INDEX_VERSION)
    return `version is ${JSON.stringify(f.version)}, not ${SITE_INDEX_VERSION}: it was made by another version of the generator`;
  for (const key of ['buildId', 'apiOrigin', 'siteOrigin'] as const)
    if (!isString(f[key])) return `"${key}" is not a string`;
  if (!Number.isSafeInteger(f.pageSize) || (f.pageSize as number) < 1)
    return '"pageSize" is not a positive whole number';
  // Absent from the indexes of builds made before it was written, whose addresses were ISO dates.
  if (f.calendar !== undefined && !CALENDARS.includes(f.calendar as CalendarName))
    return `"calendar" is not one of ${CALENDARS.join(', ')}`;
  const calendar = calendarOf(f);
  // Absent from the indexes of builds made before it was written: those were all of Pepys's period.
  const period = f.period as Partial<Period> | null | undefined;
  if (
    period !== undefined &&
    (typeof period !== 'object' ||
      period === null ||
      !isCalendarDate(calendar, period.start ?? '') ||
      !isCalendarDate(calendar, period.end ?? ''))
  )
    return '"period" is not { start, end } of two dates';
  if (f.license !== undefined && !isLicense(f.license)) return '"license" is not { name, url, identifier? }';
  if (f.name !== undefined && (typeof f.name !== 'string' || f.name === '')) return '"name" is not a string';
  const web = f.webURLs as Partial<WebURLs> | null | undefined;
  if (
    web !== undefined &&
    (typeof web !== 'object' || web === null || !isString(web.entry) || !isString(web.category) || !isString(web.topic))
  )
    return '"webURLs" is not { entry, category, topic } of three templates';
  if (!Array.isArray(f.categories) || !f.categories.every(isString)) return '"categories" is not a list of slugs';
  if (f.topicRuns !== undefined ? !areIdRuns(f.topicRuns) : !Array.isArray(f.topics))
    return '"topics" is not a list of ids';
  const topics = (f.topics ?? []) as unknown[];
  for (let i = 0; i < topics.length; i++) if (!Number.isSafeInteger(topics[i])) return '"topics" is not a list of ids';
  if (f.titles !== undefined && !isIndexTitles(f.titles)) return '"titles" is not { convention, format }';
  if (f.entryTime !== undefined && !isString(f.entryTime)) return '"entryTime" is not a time';
  const counts = f.categoryTopics;
  if (
    counts !== undefined &&
    (!Array.isArray(counts) || counts.length !== f.categories.length || !counts.every(isCount))
  )
    return '"categoryTopics" is not a count of topics for each category';
  const kinds = f.kindTopics as Record<string, unknown> | null | undefined;
  if (
    kinds !== undefined &&
    (typeof kinds !== 'object' || kinds === null || !TOPIC_KINDS.every((kind) => isCount(kinds[kind])))
  )
    return '"kindTopics" is not a count of topics for each kind';
  if (!Array.isArray(f.entries)) return '"entries" is not a list';
  // Plain checks in one pass: an edge isolate's first request pays for this loop, run by V8's
  // interpreter. Indexed, not destructured nor `for…of`: each of those is the iterator protocol's
  // calls, which made it 3-7 ms on the whole diary's 3,413 entries.
  const entries = f.entries as unknown[];
  const dates: string[] = new Array(entries.length);
  let previous = '';
  const short = f.titles !== undefined && f.entryTime !== undefined;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (typeof e === 'string' && short) {
      if (e <= previous) return '"entries" is not in ascending order of date';
      dates[i] = e;
      previous = e;
      continue;
    }
    if (!Array.isArray(e) || e.length !== 3) return '"entries" holds something other than [date, title, time]';
    const date: unknown = e[0];
    const title: unknown = e[1];
    const time: unknown = e[2];
    if (typeof date !== 'string' || typeof title !== 'string' || typeof time !== 'string') {
      return '"entries" holds something other than [date, title, time]';
    }
    if (date <= previous) return '"entries" is not in ascending order of date';
    dates[i] = date;
    previous = date;
  }
  // The dates' validity in one match, not a call a date (dates.ts).
  if (!areCalendarDates(calendar, dates)) return '"entries" holds something other than [date, title, time]';
  return null;
}

/** The calendar of an index; absent (an index older than it), the ISO dates' addresses had then. */
function calendarOf(f: Record<string, unknown>): CalendarName {
  return f.calendar === undefined ? 'gregorian' : (f.calendar as CalendarName);
}

/** Loads a parsed SITE_INDEX_FILE; anything that is not one is an error saying what is wrong. */
export function loadSiteIndex(file: unknown): Result<SiteIndex, string> {
  if (typeof file !== 'object' || file === null || Array.isArray(file)) return fail('not a JSON object');
  const problem = defect(file as Record<string, unknown>);
  if (problem !== null) return fail(problem);
  const f = file as SiteIndexFile;
  // Absent from the indexes of builds made before it was written: those all had pepysdiary.com's.
  const webURLs = f.webURLs === undefined ? DEFAULT_WEB_URLS : { ...f.webURLs };
  const origins = { apiOrigin: f.apiOrigin, siteOrigin: f.siteOrigin, webURLs };
  // Rendered on demand: loading stays a JSON parse (an edge isolate's first request pays for it),
  // and a page renders only the items it holds.
  const period = f.period === undefined ? PEPYS_PERIOD : { start: f.period.start, end: f.period.end };
  const calendar = calendarOf(f as unknown as Record<string, unknown>);
  const rules: TitleRules | null = f.titles === undefined ? null : { calendar, periodStart: period.start, ...f.titles };
  const fragments: Array<string | undefined> = new Array(f.entries.length);
  const entryFragment = (position: number): string => {
    let fragment = fragments[position];
    if (fragment === undefined) {
      const entry = entryOfIndex(f.entries[position] as IndexEntry, rules, f.entryTime);
      fragment = fragments[position] = resultFragment(entryItem(origins, entry));
    }
    return fragment;
  };
  // Made when first asked: a request about entries (most of an edge isolate's) never asks.
  let topicIds: ReadonlySet<number> | undefined;
  let categoryCounts: ReadonlyMap<string, number> | undefined;
  const topicListCount = (list: TopicList): number | null => {
    if (list.filter === 'kind') return f.kindTopics?.[list.value] ?? null;
    if (f.categoryTopics === undefined) return null;
    categoryCounts ??= new Map(f.categories.map((slug, i) => [slug, f.categoryTopics?.[i] as number]));
    return categoryCounts.get(list.value) ?? null;
  };
  return ok({
    buildId: f.buildId,
    apiOrigin: f.apiOrigin,
    siteOrigin: f.siteOrigin,
    pageSize: f.pageSize,
    period,
    calendar,
    license: f.license === undefined ? null : { ...f.license },
    name: f.name ?? apiName(PEPYS_TITLE),
    webURLs,
    entryDates: f.entries.map((e) => (typeof e === 'string' ? e : e[0])),
    entryFragment,
    categorySlugs: new Set(f.categories),
    get topicIds() {
      topicIds ??= new Set(f.topicRuns !== undefined ? (idsOfRuns(f.topicRuns) as number[]) : f.topics);
      return topicIds;
    },
    topicListCount,
  });
}

/** How many topics an index lists. */
export function topicCount(f: Pick<SiteIndexFile, 'topicRuns' | 'topics'>): number {
  let count = f.topics?.length ?? 0;
  for (let i = 1; i < (f.topicRuns?.length ?? 0); i += 2) count += f.topicRuns?.[i] as number;
  return count;
}

/** Parses the text of a SITE_INDEX_FILE (JSON) and loads it. */
export function parseSiteIndex(text: string): Result<SiteIndex, string> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return fail('not valid JSON (truncated or damaged)');
  }
  return loadSiteIndex(data);
}
