// What the verifier asks a mirror: every URL of the site (the root, the OpenAPI document, every
// page of every pre-rendered list, every record), and a seeded sample of what no file holds
// (computed ranges, other spellings, errors, methods, revalidation, negotiation). Each request
// is a Check; its expected answer is the core handler's answer to the same request.

import { pad2 } from '../core/dates.ts';
import { DOWNLOAD_TYPES } from '../core/files.ts';
import { entrySlice, type ListSlice, pageCount, wholeList } from '../core/lists.ts';
import { type LinkFilters, pageURL, totalPagesFor } from '../core/pagination.ts';
import type { Period } from '../core/period.ts';
import { prerenderedList, prerenderedLists } from '../core/prerendered.ts';
import { pick, prng, type Rand, sample } from '../core/random.ts';
import { TOPIC_KINDS } from '../core/record-fields.ts';
import type { SiteIndex } from '../core/site-index.ts';
import type { TopicList } from '../core/topic-lists.ts';
import type { Collection } from '../core/types.ts';
import { collectionURL } from '../core/urls.ts';

type Section =
  | 'root'
  | 'schema'
  | 'lists'
  | 'details'
  | 'spellings'
  | 'ranges'
  | 'filters'
  | 'downloads'
  | 'searches'
  | 'errors'
  | 'methods'
  | 'revalidation'
  | 'negotiation';

/** How a revalidation sends the ETag of the expected GET answer in If-None-Match. */
type Revalidate = 'strong' | 'weak' | 'list' | 'other';

export interface Check {
  section: Section;
  method: string;
  /** Path and query, as sent. */
  target: string;
  /** Request headers besides If-None-Match (see `revalidate`). */
  headers: Readonly<Record<string, string>>;
  /** False for the HTML answer: its status and headers are checked, not its bytes or ETag. */
  compareBody: boolean;
  revalidate?: Revalidate;
  /** What is special about the request, for a report ("CORS preflight"); empty for a plain GET. */
  note: string;
  /**
   * A file the CDNs serve themselves (a download): its status, bytes and Content-Type are
   * compared, not its other headers (its ETag and caching are the CDN's).
   */
  staticFile?: boolean;
}

const JSON_ACCEPT = 'application/json';
/** What a browser navigating sends. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
/** An origin for the cross-origin requests; any would do. */
const OTHER_ORIGIN = 'https://reader.example';

export interface PlanOptions {
  /** Size of each seeded sample (computed ranges, `.json` spellings). */
  sample: number;
  seed: number;
  /** Whether the build has the OpenAPI document. */
  hasSchema: boolean;
  /**
   * Whether to ask for the downloads: only when the build is for the mirror's own origin (their
   * bytes hold it, gzip'ed or in a database: no mapping of origins can reach it).
   */
  downloads?: boolean;
}

const API = '/api/v1';

function get(section: Section, target: string, note = '', headers: Record<string, string> = {}): Check {
  return { section, method: 'GET', target, headers: { Accept: JSON_ACCEPT, ...headers }, compareBody: true, note };
}

function withMethod(check: Check, method: string, note: string, headers: Record<string, string> = {}): Check {
  return { ...check, section: 'methods', method, note, headers: { ...check.headers, ...headers } };
}

/** `/api/v1/entries?page=2` → `/api/v1/entries.json?page=2`. */
function jsonSpelling(target: string): string {
  const q = target.indexOf('?');
  return q === -1 ? `${target}.json` : `${target.slice(0, q)}.json${target.slice(q)}`;
}

function listSlice(site: SiteIndex, collection: Collection, filters: LinkFilters): ListSlice {
  if (collection === 'entries') return entrySlice(site.entryDates, filters);
  return wholeList(collection === 'categories' ? site.categorySlugs.size : site.topicIds.size);
}

/** Every page of every pre-rendered list, by its canonical address. */
function listPages(site: SiteIndex): string[] {
  const targets: string[] = [];
  for (const list of prerenderedLists(site)) {
    const pages = pageCount(listSlice(site, list.collection, list.filters), site.pageSize);
    const url = collectionURL('', list.collection);
    for (let page = 1; page <= pages; page++) targets.push(pageURL(url, list.filters, page));
  }
  // And those of each category's and each kind's topics the build wrote (core/topic-lists.ts).
  const lists: TopicList[] = [
    ...[...site.categorySlugs].sort().map((value): TopicList => ({ filter: 'category', value })),
    ...TOPIC_KINDS.map((value): TopicList => ({ filter: 'kind', value })),
  ];
  for (const list of lists) {
    const count = site.topicListCount(list) ?? 0;
    const pages = count === 0 ? 0 : totalPagesFor(count, site.pageSize);
    for (let page = 1; page <= pages; page++)
      targets.push(pageURL(collectionURL('', 'topics'), { [list.filter]: list.value }, page));
  }
  return targets;
}

function detailTargets(site: SiteIndex): string[] {
  return [
    ...site.entryDates.map((d) => `${API}/entries/${d}`),
    ...[...site.categorySlugs].sort().map((s) => `${API}/categories/${s}`),
    ...[...site.topicIds].sort((a, b) => a - b).map((id) => `${API}/topics/${id}`),
  ];
}

const DAY_MS = 86_400_000;

/** A real date of the diary's period, or of the two months either side of it. */
function randomDate(rand: Rand, period: Period): string {
  const from = Date.parse(`${period.start}T00:00:00Z`) - 61 * DAY_MS;
  const days = Math.round((Date.parse(`${period.end}T00:00:00Z`) - from) / DAY_MS) + 61;
  const d = new Date(from + rand(days + 1) * DAY_MS);
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** A query in a random order of its parameters: the order must not matter to a mirror. */
function query(rand: Rand, params: Array<[string, string]>): string {
  const shuffled = [...params];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = rand(i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j] as [string, string], shuffled[i] as [string, string]];
  }
  return shuffled.map(([k, v]) => `${k}=${v}`).join('&');
}

/** Filters that no pre-rendered list has: both dates, one of them, reversed, one day. */
function computedFilters(rand: Rand, site: SiteIndex): LinkFilters {
  for (;;) {
    const a = rand(4) === 0 && site.entryDates.length > 0 ? pick(rand, site.entryDates) : randomDate(rand, site.period);
    const b = randomDate(rand, site.period);
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    const shape = rand(10);
    const filters: LinkFilters =
      shape < 6
        ? { start: lo, end: hi }
        : shape === 6
          ? { start: a }
          : shape === 7
            ? { end: a }
            : shape === 8
              ? { start: hi, end: lo }
              : { start: a, end: a };
    if (lo === hi && shape === 8) continue;
    if (prerenderedList('entries', filters, site) === null) return filters;
  }
}

function rangeTarget(rand: Rand, filters: LinkFilters, page: string | null): string {
  const params: Array<[string, string]> = [];
  if (filters.start !== undefined) params.push(['start', filters.start]);
  if (filters.end !== undefined) params.push(['end', filters.end]);
  if (page !== null) params.push(['page', page]);
  return `${API}/entries?${query(rand, params)}`;
}

function computedRanges(rand: Rand, site: SiteIndex, n: number): string[] {
  const targets: string[] = [];
  for (let i = 0; i < n; i++) {
    const filters = computedFilters(rand, site);
    const pages = pageCount(entrySlice(site.entryDates, filters), site.pageSize);
    const r = rand(10);
    const page = r < 4 ? null : r < 9 ? String(1 + rand(pages)) : 'last';
    targets.push(rangeTarget(rand, filters, page));
  }
  return targets;
}

/** A seeded sample of the record filters (core/filters.ts), alone and combined, and their errors. */
function filterTargets(rand: Rand, site: SiteIndex, n: number): string[] {
  const ids = [...site.topicIds];
  const slugs = [...site.categorySlugs];
  const day = () => (site.entryDates.length > 0 ? pick(rand, site.entryDates).slice(5) : '01-01');
  const targets = [`${API}/entries?day=02-29`, `${API}/entries?day=02-30`, `${API}/topics?kind=animal`];
  for (let i = 0; i < n; i++) {
    const r = rand(6);
    if (r === 0 && ids.length > 0) targets.push(`${API}/entries?topic=${pick(rand, ids)}`);
    else if (r === 1 && ids.length > 0) targets.push(`${API}/entries?day=${day()}&topic=${pick(rand, ids)}&page=last`);
    else if (r === 2) targets.push(`${API}/entries?day=${day()}`);
    else if (r === 3) targets.push(`${API}/topics?kind=${pick(rand, ['person', 'place', 'default'])}&page=last`);
    else if (slugs.length > 0)
      targets.push(`${API}/topics?category=${pick(rand, slugs)}${r === 5 ? '&kind=person' : ''}`);
  }
  return targets;
}

/** Searches of every kind (docs/search.md), the words and the dates seeded: no file holds them. */
const SEARCH_WORDS = [
  'plague',
  'lute',
  'theorbo',
  'king',
  'wife',
  'fire',
  'music',
  'church',
  'dinner',
  'office',
  'the',
  'bed',
];
const SEARCH_FORMS = [
  (a: string) => a,
  (a: string, b: string) => `${a} ${b}`,
  (a: string, b: string) => `${a} or ${b}`,
  (a: string, b: string) => `${a} -${b}`,
  () => '"and so to bed"',
  (a: string) => `"${a}`,
  () => 'Théâtre',
];

function searches(rand: Rand, site: SiteIndex, n: number): string[] {
  const targets: string[] = [];
  for (let i = 0; i < n; i++) {
    const form = pick(rand, SEARCH_FORMS);
    const text = form(pick(rand, SEARCH_WORDS), pick(rand, SEARCH_WORDS));
    const params: Array<[string, string]> = [['search', encodeURIComponent(text)]];
    if (rand(3) === 0) params.push(['ordering', 'relevance']);
    if (rand(4) === 0) params.push(['page', rand(2) === 0 ? '2' : 'last']);
    const topics = rand(4) === 0;
    if (!topics && rand(3) === 0) {
      const filters = computedFilters(rand, site);
      if (filters.start !== undefined) params.push(['start', filters.start]);
      if (filters.end !== undefined) params.push(['end', filters.end]);
    }
    targets.push(`${API}/${topics ? 'topics' : 'entries'}?${query(rand, params)}`);
  }
  // Refused: too long, a control character, too many words, an unknown ordering.
  targets.push(
    `${API}/entries?search=${'a'.repeat(501)}`,
    `${API}/entries?search=lute%01`,
    `${API}/topics?search=${Array.from({ length: 33 }, (_, i) => `w${i}`).join('+')}`,
    `${API}/entries?search=lute&ordering=date`,
  );
  return targets;
}

/** A real date of the period without an entry, if there is one. */
function dateWithoutEntry(rand: Rand, site: SiteIndex): string | null {
  const dates = new Set(site.entryDates);
  for (let tries = 0; tries < 1000; tries++) {
    const d = randomDate(rand, site.period);
    if (d >= site.period.start && d <= site.period.end && !dates.has(d)) return d;
  }
  return null;
}

function absentSlug(site: SiteIndex): string {
  let slug = 'no-such-category';
  while (site.categorySlugs.has(slug)) slug += '-x';
  return slug;
}

function absentTopic(site: SiteIndex): number {
  let id = 999_999_999;
  while (site.topicIds.has(id)) id++;
  return id;
}

/** The year `n` years after the diary's first (for the Pepys diary, 1660 + n). */
function yearOf(site: SiteIndex, n: number): string {
  return String(Number(site.period.start.slice(0, 4)) + n).padStart(4, '0');
}

function errors(rand: Rand, site: SiteIndex, n: number): string[] {
  const total = (c: Collection) => pageCount(listSlice(site, c, {}), site.pageSize);
  const first = site.entryDates[0] ?? site.period.start;
  const [y0, y1] = [yearOf(site, 0), yearOf(site, 1)];
  const computed = computedFilters(rand, site);
  const targets = [
    // Bad dates: 400, naming the parameter.
    `${API}/entries?start=${y1}-13-01`,
    `${API}/entries?end=${y1}-02-30`,
    `${API}/entries?start=${y1}`,
    `${API}/entries?start=yesterday`,
    `${API}/entries?start=${y0}-01-01&end=${y1}-02-30`,
    `${API}/entries?start=${y1}-02-30&page=abc`,
    // Bad pages: 404 Invalid page.
    `${API}/entries?page=0`,
    `${API}/entries?page=-1`,
    `${API}/entries?page=abc`,
    `${API}/entries?page=1.5`,
    `${API}/entries?page=${total('entries') + 1}`,
    `${API}/categories?page=${total('categories') + 1}`,
    `${API}/topics?page=${total('topics') + 1}`,
    `${API}/topics?page=first`,
    `${API}/entries?start=${y0}-01-01&end=${y0}-12-31&page=${pageCount(entrySlice(site.entryDates, { start: `${y0}-01-01`, end: `${y0}-12-31` }), site.pageSize) + 1}`,
    rangeTarget(rand, computed, String(pageCount(entrySlice(site.entryDates, computed), site.pageSize) + 1 + rand(3))),
    // Unknown records: 404 No … matches the given query.
    `${API}/entries/${yearOf(site, 40)}-01-01`,
    `${API}/categories/${absentSlug(site)}`,
    `${API}/topics/${absentTopic(site)}`,
    // Malformed keys and unknown paths: 404 Not found.
    `${API}/entries/${y0}-02-30`,
    `${API}/entries/${y0}-1-1`,
    `${API}/entries/${first}.json.json`,
    `${API}/entries/${first}/extra`,
    `${API}/topics/abc`,
    `${API}/topics/-1`,
    `${API}/categories/a.b`,
    `${API}/entries/`,
    `${API}/nothing`,
    `${API}/index.json`,
    `/api/v2`,
    `/api/`,
  ];
  for (let i = 0; i < Math.max(1, Math.ceil(n / 10)); i++) {
    const d = dateWithoutEntry(rand, site);
    if (d !== null) targets.push(`${API}/entries/${d}`);
  }
  return targets;
}

/** Every request of a verification, in the order they are reported. */
export function planChecks(site: SiteIndex, options: PlanOptions): Check[] {
  const rand = prng(options.seed);
  const checks: Check[] = [];
  const root = get('root', API);
  checks.push(root, get('root', `${API}/`), get('root', `${API}.json`));
  if (options.hasSchema) checks.push(get('schema', `${API}/schema`), get('schema', `${API}/schema.json`));
  // The feeds (render/feeds.ts): files of their own media types.
  checks.push(get('lists', `${API}/feeds/atom`), get('lists', `${API}/feeds/json`));
  // The downloads (render/downloads.ts): their list, and each file, byte for byte.
  if (options.downloads !== false) {
    checks.push(get('downloads', `${API}/downloads`));
    for (const name of DOWNLOAD_TYPES.keys())
      checks.push({ ...get('downloads', `${API}/downloads/${name}`, 'a static file on the CDNs'), staticFile: true });
  }

  const pages = listPages(site);
  for (const t of pages) checks.push(get('lists', t));
  const details = detailTargets(site);
  for (const t of details) checks.push(get('details', t));

  // Other spellings of the same answers: `.json`, a page given explicitly or with leading zeros,
  // `last`, empty or unknown parameters (ignored), a repeated parameter (the last counts).
  for (const t of sample(rand, [...pages, ...details], options.sample)) checks.push(get('spellings', jsonSpelling(t)));
  for (const t of [
    `${API}/entries?page=1`,
    `${API}/entries?page=01`,
    `${API}/entries?page=last`,
    `${API}/topics?page=last`,
    `${API}/categories.json?page=1`,
    `${API}/entries?start=&end=&page=`,
    `${API}/entries?utm_source=verify&page=1`,
    `${API}/entries?page=2&page=1`,
    `${API}/entries?start=${yearOf(site, 1)}-01-01&end=${yearOf(site, 1)}-12-31`,
    `${API}/entries?start=${yearOf(site, 1)}-01-01&end=${yearOf(site, 1)}-12-31&page=last`,
    `${API}/topics/0${[...site.topicIds][0] ?? 1}`,
  ]) {
    checks.push(get('spellings', t));
  }

  const ranges = computedRanges(rand, site, options.sample);
  for (const t of ranges) checks.push(get('ranges', t));

  for (const t of filterTargets(rand, site, options.sample)) checks.push(get('filters', t));
  for (const t of searches(rand, site, options.sample)) checks.push(get('searches', t));

  const errorTargets = errors(rand, site, options.sample);
  for (const t of errorTargets) checks.push(get('errors', t));

  // Methods: HEAD answers like GET without a body; OPTIONS and a CORS preflight; others 405.
  const detail = get('details', details.length > 0 ? pick(rand, details) : `${API}/entries/${site.period.start}`);
  const page = get('lists', pick(rand, pages));
  const range = get('ranges', ranges[0] ?? `${API}/entries?start=${site.period.start}&end=${site.period.end}`);
  const notFound = get('errors', `${API}/nothing`);
  const badDate = get('errors', `${API}/entries?start=${yearOf(site, 1)}-13-01`);
  for (const c of [root, detail, page, range, notFound, badDate]) checks.push(withMethod(c, 'HEAD', ''));
  checks.push(withMethod(root, 'GET', `cross-origin (Origin: ${OTHER_ORIGIN})`, { Origin: OTHER_ORIGIN }));
  checks.push(withMethod(detail, 'OPTIONS', ''));
  checks.push(withMethod(notFound, 'OPTIONS', ''));
  checks.push(
    withMethod(detail, 'OPTIONS', 'CORS preflight', {
      Origin: OTHER_ORIGIN,
      'Access-Control-Request-Method': 'GET',
      'Access-Control-Request-Headers': 'if-none-match, x-requested-with',
    }),
  );
  for (const c of [root, detail, page, range]) checks.push(withMethod(c, 'POST', ''));
  checks.push(withMethod(detail, 'PUT', ''), withMethod(detail, 'DELETE', ''), withMethod(notFound, 'POST', ''));

  // Revalidation with the ETag a whole mirror has: 304 when it matches, the answer when not.
  const revalidate = (c: Check, how: Revalidate, note: string, method = 'GET'): Check => ({
    ...c,
    section: 'revalidation',
    method,
    revalidate: how,
    note,
  });
  const revalidated = [root, detail, page, range, get('spellings', jsonSpelling(detail.target))];
  if (options.hasSchema) revalidated.push(get('schema', `${API}/schema`));
  for (const c of revalidated) checks.push(revalidate(c, 'strong', 'If-None-Match: its ETag'));
  for (const c of sample(rand, details, Math.max(1, Math.ceil(options.sample / 10))))
    checks.push(revalidate(get('details', c), 'strong', 'If-None-Match: its ETag'));
  checks.push(revalidate(detail, 'weak', 'If-None-Match: its ETag, weak (W/)'));
  checks.push(revalidate(page, 'list', 'If-None-Match: a list holding its ETag'));
  checks.push(revalidate(detail, 'strong', 'If-None-Match: its ETag', 'HEAD'));
  checks.push(revalidate(detail, 'other', 'If-None-Match: another ETag'));

  // Negotiation: a browser gets the HTML view, with the same status.
  checks.push({
    ...detail,
    section: 'negotiation',
    headers: { Accept: BROWSER_ACCEPT },
    compareBody: false,
    note: 'Accept: text/html (a browser)',
  });
  checks.push({
    ...notFound,
    section: 'negotiation',
    headers: { Accept: BROWSER_ACCEPT },
    compareBody: false,
    note: 'Accept: text/html (a browser)',
  });
  return checks;
}
