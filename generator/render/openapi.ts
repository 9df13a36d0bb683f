// The OpenAPI 3.1 document of the API, served at /api/v1/schema: rendered by the build from the
// same types (each record schema is checked by the compiler against the record's interface: a
// field added to a record and not here does not compile), the same configuration (the origins,
// the page size, the headers, the error messages) and the same model (the examples are the first
// records and first list pages of this very build). Clients can generate code from it; the
// contract tests validate every body they see against it, so it cannot drift from the answers.

import { DEFAULT_LOCALE, titleRules } from '../content/locale.ts';
import { calendarName } from '../core/calendar.ts';
import { INVALID_PAGE, invalidDate, NOT_FOUND, noRecord } from '../core/errors.ts';
import { DOWNLOAD_TYPES, SCHEMA_FILE } from '../core/files.ts';
import { API_HEADERS, CLIENT_CACHE_CONTROL, NO_STORE, PREFLIGHT_MAX_AGE } from '../core/headers.ts';
import { pretty } from '../core/json.ts';
import { type License, openApiLicense } from '../core/license.ts';
import { pagePlan, pagePositions, renderPage, wholeList } from '../core/lists.ts';
import type { Model, SiteConfig } from '../core/model.ts';
import { linkParametersOf, openApiParameter, PARAMETERS, parametersOf } from '../core/parameters.ts';
import { categoryDetail, entryDetail, type Origins, originsOf, root, topicDetail } from '../core/records.ts';
import { PEPYS_TITLE } from '../core/site-index.ts';
import { entryTitle } from '../core/titles.ts';
import {
  type CategoryDetail,
  type CategoryItem,
  type Collection,
  type Download,
  type DownloadList,
  type EntryDetail,
  type EntryItem,
  type ErrorBody,
  type ListEnvelope,
  type Root,
  TOPIC_KINDS,
  type TopicDetail,
  type TopicItem,
} from '../core/types.ts';
import { API_PATH, collectionURL } from '../core/urls.ts';
import type { FragmentList } from './fragment-list.ts';
import type { RenderMemo } from './render-memo.ts';

/** A JSON value of the document. */
type Doc = { [key: string]: unknown };
/** A schema for each field of a record type: exactly its fields, none missing, none extra. */
type Fields<T> = { [K in keyof T]-?: Doc };

const ref = (group: string, name: string): Doc => ({ $ref: `#/components/${group}/${name}` });
const schemaRef = (name: string) => ref('schemas', name);
const nullable = (schema: Doc): Doc => ({ anyOf: [schema, { type: 'null' }] });

/** A regular expression matching `text` literally (ECMA-262 with the `u` flag, as JSON Schema). */
const literal = (text: string) => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

const DATE = '[0-9]{4}-[0-9]{2}-[0-9]{2}';
// Django's slug and int converters, as the router accepts them (core/router.ts).
const SLUG = '[-a-zA-Z0-9_]+';

const PLACEHOLDER_PATTERNS: Readonly<Record<string, string>> = {
  date: DATE,
  yyyy: '[0-9]{4}',
  mm: '[0-9]{2}',
  dd: '[0-9]{2}',
  slug: SLUG,
  id: '[0-9]+',
};

/**
 * The pattern of the webURLs a template (core/urls.ts) makes. A category's `{path}` is one to three
 * slugs; followed by '/', as in pepysdiary.com's template, each slug is written with its slash.
 */
function webURLPattern(site: string, template: string): string {
  return template
    .slice('{site}'.length)
    .split(/(\{path\}\/|\{[a-z]+\})/)
    .map((part) => {
      if (part === '{path}/') return `(?:${SLUG}/){1,3}`;
      if (part === '{path}') return `${SLUG}(?:/${SLUG}){0,2}`;
      const name = /^\{([a-z]+)\}$/.exec(part)?.[1];
      return name === undefined ? literal(part) : (PLACEHOLDER_PATTERNS[name] ?? literal(part));
    })
    .reduce((pattern, part) => pattern + part, site);
}

/**
 * The URL of a page of a list: `params` (name, value pattern), each optional, in this order
 * (alphabetical, as the links write them).
 */
function pagePattern(listURL: string, params: ReadonlyArray<readonly [string, string]>): string {
  return `${listURL}(?:\\?${params.map(([name, value]) => `(?:&?${name}=${value})?`).join('')})?`;
}

/** A list's page links (pattern, description): the parameters they carry (the parameter table's), in alphabetical order. */
function pageLinks(api: string, c: Collection): [string, string] {
  const params = linkParametersOf(c);
  const filters = params.flatMap(([name]) => (name === 'page' ? [] : [`\`${name}\``]));
  const list = `A page of the ${SINGULAR[c]} list`;
  return [
    pagePattern(`${api}/${c}`, params),
    filters.length === 0
      ? `${list} (no \`page\` on page 1).`
      : `${list}: its filters (${filters.join(', ')}) and \`page\` in alphabetical order, no \`page\` on page 1.`,
  ];
}

const SINGULAR: Readonly<Record<Collection, string>> = { entries: 'entry', categories: 'category', topics: 'topic' };

function record<T>(description: string, fields: Fields<T>): Doc {
  return {
    type: 'object',
    description,
    required: Object.keys(fields),
    properties: fields,
    additionalProperties: false,
  };
}

/** A list item's record, with the `snippet` that only the items of a search answer have. */
function searchableItem<T>(description: string, fields: Fields<T>): Doc {
  const doc = record<T>(`${description} In a search answer (and only there), also \`snippet\`.`, fields);
  const snippet: Doc = {
    type: 'string',
    description:
      'A short excerpt around the first match (text, then notes, then title), HTML: each matched word in `<mark>…</mark>`, everything else escaped; `…` where it is cut.',
  };
  return { ...doc, properties: { ...fields, snippet } };
}

function list(item: string, description: string, pageURL: string): Doc {
  const fields: Fields<ListEnvelope<unknown>> = {
    totalResults: { type: 'integer', minimum: 0, description: 'Records in the whole list (after the filters).' },
    totalPages: {
      type: 'integer',
      minimum: 1,
      description: 'max(1, ceil(totalResults / page size)): an empty list is one empty page.',
    },
    nextPageURL: nullable({ ...schemaRef(pageURL), description: 'The next page; null on the last.' }),
    previousPageURL: nullable({ ...schemaRef(pageURL), description: 'The previous page; null on the first.' }),
    results: { type: 'array', items: schemaRef(item) },
  };
  return record<ListEnvelope<unknown>>(description, fields);
}

/** How the document describes an entry's date and title: in the diary's own calendar and locale. */
interface EntryWords {
  date: string;
  title: string;
}

function entryWords(config: SiteConfig): EntryWords {
  // The Pepys diary's, as the document has always said them.
  if (config.title === PEPYS_TITLE && config.calendar === 'julian' && config.locale === DEFAULT_LOCALE)
    return {
      date: 'The day of the diary (Julian calendar, as Pepys wrote it).',
      title: '`<Weekday> <day> <Month> <year>`, e.g. `Sunday 1 January 1659/60`.',
    };
  return {
    date: `The day of the diary, in the ${calendarName(config.calendar)} calendar its dates are written in (${config.period.start} to ${config.period.end}).`,
    title: `The date in words, e.g. \`${entryTitle(config.period.start, titleRules(config))}\`.`,
  };
}

/** The listing of the downloads: with the licence of the data, when the site states one. */
function downloadList(license: License | null): Doc {
  const downloads = { type: 'array', items: schemaRef('Download'), description: 'Each file, once.' };
  if (license === null) return record<Pick<DownloadList, 'downloads'>>('The files of the whole data.', { downloads });
  const fields: Record<string, Doc> = {
    name: { type: 'string', description: 'What the licence is called (its SPDX id when it has one).' },
    url: { type: 'string', format: 'uri', description: 'Where its text is.' },
  };
  if (license.identifier !== undefined) fields.identifier = { type: 'string', description: 'Its SPDX licence id.' };
  return record<Required<DownloadList>>('The files of the whole data, and the licence they are published under.', {
    downloads,
    license: record<Record<string, unknown>>('The licence of the data.', fields),
  });
}

function schemas(o: Origins, pageSize: number, words: EntryWords, license: License | null): Doc {
  const api = literal(`${o.apiOrigin}${API_PATH}`);
  const site = literal(o.siteOrigin);
  const url = (pattern: string, description: string): Doc => ({
    type: 'string',
    format: 'uri',
    pattern: `^${pattern}$`,
    description,
  });
  const urls = (item: string, description: string): Doc => ({
    type: 'array',
    items: schemaRef(item),
    uniqueItems: true,
    description,
  });
  const count = (description: string): Doc => ({ type: 'integer', minimum: 0, description });
  const text = (description: string): Doc => ({ type: 'string', description });
  const lastModified = { ...schemaRef('Timestamp'), description: 'When the record last changed.' };

  const entryItem: Fields<EntryItem> = {
    date: { ...schemaRef('Date'), description: words.date },
    title: text(words.title),
    lastModifiedTime: lastModified,
    apiURL: schemaRef('EntryURL'),
    webURL: url(webURLPattern(site, o.webURLs.entry), 'The entry on the human-readable site.'),
  };
  const entryDetail: Fields<EntryDetail> = {
    date: entryItem.date,
    title: entryItem.title,
    entryHTML: text('The text of the entry, HTML.'),
    footnotesHTML: text('Its footnotes, HTML (may be empty).'),
    annotationCount: count('Annotations on the entry (0 when unknown).'),
    lastAnnotationTime: nullable({ ...schemaRef('Timestamp'), description: 'When the latest annotation was made.' }),
    topics: urls('TopicURL', 'The topics the entry mentions, by ascending id.'),
    lastModifiedTime: lastModified,
    apiURL: entryItem.apiURL,
    webURL: entryItem.webURL,
  };
  const categoryItem: Fields<CategoryItem> = {
    slug: { type: 'string', pattern: `^${SLUG}$` },
    title: text('The category’s name.'),
    topicCount: count('The number of its topics.'),
    depth: { type: 'integer', minimum: 1, maximum: 3, description: '1 for a top-level category.' },
    parents: { ...urls('CategoryURL', 'Every ancestor, top-level first.'), maxItems: 2 },
    children: urls('CategoryURL', 'The direct children, by title then slug.'),
    apiURL: schemaRef('CategoryURL'),
    webURL: url(webURLPattern(site, o.webURLs.category), 'The category on the human-readable site.'),
  };
  const { apiURL, webURL, ...head } = categoryItem;
  const categoryDetail: Fields<CategoryDetail> = {
    ...head,
    topics: urls('TopicURL', 'Its topics, by ascending id (topicCount of them).'),
    apiURL,
    webURL,
  };
  const topicItem: Fields<TopicItem> = {
    id: { type: 'integer', minimum: 1 },
    title: text('The topic’s name.'),
    orderTitle: text('The title to sort by (e.g. surname first).'),
    kind: { type: 'string', enum: [...TOPIC_KINDS] },
    lastModifiedTime: lastModified,
    apiURL: schemaRef('TopicURL'),
    webURL: url(webURLPattern(site, o.webURLs.topic), 'The topic on the human-readable site.'),
  };
  const coordinate = (description: string) => nullable({ type: 'number', description });
  const topicDetail: Fields<TopicDetail> = {
    id: topicItem.id,
    title: topicItem.title,
    orderTitle: topicItem.orderTitle,
    wheatleyHTML: text('The note of Wheatley’s edition, HTML (may be empty).'),
    tooltipText: text('A one-line summary (may be empty).'),
    wikipediaURL: nullable({ type: 'string', description: 'Its Wikipedia article.' }),
    thumbnailURL: nullable({ type: 'string', description: 'A picture of it.' }),
    annotationCount: count('Annotations on the topic (0 when unknown).'),
    lastAnnotationTime: nullable({ ...schemaRef('Timestamp'), description: 'When the latest annotation was made.' }),
    kind: topicItem.kind,
    latitude: coordinate('Of a place.'),
    longitude: coordinate('Of a place.'),
    zoom: coordinate('The map zoom level that shows the place.'),
    shape: text('The outline of a place on a map (may be empty).'),
    categories: urls('CategoryURL', 'Its categories, by slug.'),
    entries: urls('EntryURL', 'The entries that mention it, by ascending date.'),
    lastModifiedTime: lastModified,
    apiURL: topicItem.apiURL,
    webURL: topicItem.webURL,
  };
  const root: Fields<Root> = {
    categories: url(`${api}/categories`, 'The list of categories.'),
    entries: url(`${api}/entries`, 'The list of entries.'),
    topics: url(`${api}/topics`, 'The list of topics.'),
  };
  const error: Fields<ErrorBody> = {
    detail: text('What went wrong, in words.'),
    status_code: { type: 'integer', description: 'The HTTP status of the answer.' },
  };
  return {
    Date: { type: 'string', format: 'date', pattern: `^${DATE}$`, description: 'A calendar date, `YYYY-MM-DD`.' },
    Timestamp: {
      type: 'string',
      format: 'date-time',
      pattern: `^${DATE}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$`,
      description: 'UTC, whole seconds: `YYYY-MM-DDTHH:MM:SSZ`.',
    },
    EntryURL: url(`${api}/entries/${DATE}`, 'The API address of an entry.'),
    CategoryURL: url(`${api}/categories/${SLUG}`, 'The API address of a category.'),
    TopicURL: url(`${api}/topics/[0-9]+`, 'The API address of a topic.'),
    EntryPageURL: url(...pageLinks(api, 'entries')),
    CategoryPageURL: url(...pageLinks(api, 'categories')),
    TopicPageURL: url(...pageLinks(api, 'topics')),
    DownloadList: downloadList(license),
    Download: record<Download>('A file of the whole data, served as it is (no content coding).', {
      name: { type: 'string', enum: [...DOWNLOAD_TYPES.keys()], description: 'The last segment of its URL.' },
      description: text('What it holds, and how.'),
      url: url(`${api}/downloads/[-a-z.]+`, 'Where to get it.'),
      mediaType: { type: 'string', enum: [...new Set(DOWNLOAD_TYPES.values())], description: 'Its Content-Type.' },
      bytes: count('Its size in bytes.'),
      sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'The SHA-256 of its bytes, hex.' },
    }),
    Root: record<Root>('The root: where the three lists are.', root),
    EntryItem: searchableItem<EntryItem>('An entry, as a list gives it: the head of its detail.', entryItem),
    Entry: record<EntryDetail>('An entry of the diary.', entryDetail),
    CategoryItem: record<CategoryItem>('A category, as a list gives it: its detail without `topics`.', categoryItem),
    Category: record<CategoryDetail>('A category of the encyclopedia (a tree three levels deep).', categoryDetail),
    TopicItem: searchableItem<TopicItem>('A topic, as a list gives it: the head of its detail.', topicItem),
    Topic: record<TopicDetail>('A topic of the encyclopedia: a person, a place or anything else.', topicDetail),
    EntryList: list('EntryItem', `A page of entries, ${pageSize} a page, by ascending date.`, 'EntryPageURL'),
    CategoryList: list('CategoryItem', `A page of categories, ${pageSize} a page, by slug.`, 'CategoryPageURL'),
    TopicList: list('TopicItem', `A page of topics, ${pageSize} a page, by ascending id.`, 'TopicPageURL'),
    Error: record<ErrorBody>('The body of every error.', error),
    OpenAPI: {
      type: 'object',
      description: 'This document.',
      required: ['openapi', 'info', 'servers', 'paths', 'components'],
      properties: {
        openapi: { const: '3.1.0' },
        info: { type: 'object' },
        servers: {
          type: 'array',
          items: { type: 'object', required: ['url'], properties: { url: { type: 'string', const: o.apiOrigin } } },
        },
        paths: { type: 'object' },
        components: { type: 'object' },
      },
    },
  };
}

const header = (description: string, schema: Doc, required = true): Doc => ({ description, required, schema });

/** The headers of the contract (core/headers.ts), described once and referenced by every answer. */
function headers(): Doc {
  return {
    ETag: header('A strong validator: a hash of the bytes of the representation. Send it back in If-None-Match.', {
      type: 'string',
      pattern: '^(?:W/)?"[^"]*"$',
    }),
    'Cache-Control': header(
      'Clients revalidate every time (cheaply, with the ETag); errors of the server are not stored.',
      {
        type: 'string',
        examples: [CLIENT_CACHE_CONTROL, NO_STORE],
      },
    ),
    Vary: header(
      'The answer depends on Accept (JSON or the HTML page), and on Accept-Encoding where the body is compressed.',
      {
        type: 'string',
        examples: [API_HEADERS.Vary],
      },
    ),
    Allow: header('The methods of every path.', { type: 'string', const: API_HEADERS.Allow }),
    'X-Content-Type-Options': header('Browsers must not sniff another type.', {
      type: 'string',
      const: API_HEADERS['X-Content-Type-Options'],
    }),
    'Access-Control-Allow-Origin': header('Any page may read the API (CORS).', {
      type: 'string',
      const: API_HEADERS['Access-Control-Allow-Origin'],
    }),
    'Access-Control-Expose-Headers': header('Pages on other origins may read the ETag.', {
      type: 'string',
      const: API_HEADERS['Access-Control-Expose-Headers'],
    }),
    'Access-Control-Allow-Methods': header(
      'The answer to a CORS preflight: the methods allowed.',
      { type: 'string', const: 'GET, HEAD, OPTIONS' },
      false,
    ),
    'Access-Control-Allow-Headers': header(
      'The answer to a CORS preflight: every request header it asked for, and If-None-Match.',
      { type: 'string', examples: ['If-None-Match'] },
      false,
    ),
    'Access-Control-Max-Age': header(
      'The answer to a CORS preflight: how long a browser may keep it, in seconds.',
      {
        type: 'string',
        const: PREFLIGHT_MAX_AGE,
      },
      false,
    ),
  };
}

const COMMON_HEADERS = [
  'Vary',
  'Allow',
  'X-Content-Type-Options',
  'Access-Control-Allow-Origin',
  'Access-Control-Expose-Headers',
  'Cache-Control',
];
const headerRefs = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, ref('headers', n)]));

const HTML_NOTE =
  ' A browser (Accept preferring text/html) or `format=api` gets the same answer, with the same status, as an HTML page instead; ' +
  'a `.json` path or `format=json` always gets JSON.';

interface Examples {
  [name: string]: { summary: string; value: unknown };
}

/**
 * A response with a JSON body. Its HTML page for browsers is said in words (HTML_NOTE), not
 * listed as a second media type: a client generated from the document then types the body as
 * the JSON it asks for, which is what every client that is not a browser gets.
 */
function response(description: string, schema: Doc, examples: Examples, success: boolean): Doc {
  const json: Doc = { schema };
  if (Object.keys(examples).length > 0) json.examples = examples;
  return {
    description: description + HTML_NOTE,
    headers: headerRefs(success ? ['ETag', ...COMMON_HEADERS] : COMMON_HEADERS),
    content: { 'application/json': json },
  };
}

const errorOf = (status: number): Doc => ({
  allOf: [schemaRef('Error'), { type: 'object', properties: { status_code: { const: status } } }],
});
const errorExample = (summary: string, error: { status: number; detail: string }) => ({
  summary,
  value: { detail: error.detail, status_code: error.status },
});

function responses(examples: Record<string, Examples>, config: SiteConfig): Doc {
  const ok = (name: string, description: string) => response(description, schemaRef(name), examples[name] ?? {}, true);
  return {
    Root: ok('Root', 'The root.'),
    EntryList: ok('EntryList', 'A page of entries.'),
    Entry: ok('Entry', 'An entry.'),
    CategoryList: ok('CategoryList', 'A page of categories.'),
    Category: ok('Category', 'A category.'),
    TopicList: ok('TopicList', 'A page of topics.'),
    Topic: ok('Topic', 'A topic.'),
    OpenAPI: response('This document.', schemaRef('OpenAPI'), {}, true),
    DownloadList: ok('DownloadList', 'The files of the whole data.'),
    DownloadFile: {
      description: 'The file, as it is: gzip’ed NDJSON or a SQLite 3 database (the list gives which).',
      content: Object.fromEntries(
        [...new Set(DOWNLOAD_TYPES.values())].map((type) => [
          type,
          { schema: { type: 'string', contentMediaType: type } },
        ]),
      ),
    },
    AtomFeed: {
      description:
        'An Atom feed (RFC 4287) of the latest 50 entries by date, newest first: each links its page (alternate) and its record (related), with its text and footnotes as HTML. Never the HTML view.',
      headers: headerRefs(['ETag', ...COMMON_HEADERS]),
      content: { 'application/atom+xml': { schema: { type: 'string' } } },
    },
    JsonFeed: {
      description:
        'A JSON Feed 1.1 (https://jsonfeed.org/version/1.1) of the same entries: each item has the record as `id` and `external_url`, the page as `url`, the text and footnotes as `content_html`. Never the HTML view.',
      headers: headerRefs(['ETag', ...COMMON_HEADERS]),
      content: {
        'application/feed+json': {
          schema: {
            type: 'object',
            required: ['version', 'title', 'items'],
            properties: {
              version: { const: 'https://jsonfeed.org/version/1.1' },
              title: { type: 'string' },
              items: {
                type: 'array',
                maxItems: 50,
                items: {
                  type: 'object',
                  required: ['id', 'content_html'],
                  properties: {
                    id: { type: 'string', format: 'uri' },
                    url: { type: 'string', format: 'uri' },
                    external_url: { type: 'string', format: 'uri' },
                    title: { type: 'string' },
                    content_html: { type: 'string' },
                    date_modified: { type: 'string', format: 'date-time' },
                  },
                },
              },
            },
          },
        },
      },
    },
    NotModified: {
      description: 'The representation named by If-None-Match is still current: no body.',
      headers: headerRefs(['ETag', ...COMMON_HEADERS]),
    },
    Options: {
      description:
        "The path's metadata, as Django REST Framework's OPTIONS answer gives it: its name, description, what it renders and parses (nothing: the API is read-only) and the query parameters it takes. A CORS preflight (Origin and Access-Control-Request-Method) also gets the Access-Control-Allow-* headers.",
      content: {
        'application/json': {
          schema: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'description', 'renders', 'parses', 'parameters'],
            properties: {
              name: { type: 'string', description: 'The name of the resource, e.g. "Entry List".' },
              description: { type: 'string', description: 'What it is.' },
              renders: { type: 'array', items: { type: 'string' }, description: 'The media types it answers with.' },
              parses: { type: 'array', items: { type: 'string' }, maxItems: 0, description: 'None: read-only.' },
              parameters: { type: 'array', items: { type: 'string' }, description: 'The query parameters it reads.' },
            },
          },
        },
      },
      headers: headerRefs([
        ...COMMON_HEADERS,
        'Access-Control-Allow-Methods',
        'Access-Control-Allow-Headers',
        'Access-Control-Max-Age',
      ]),
    },
    BadRequest: response(
      'A filter is malformed (a date that is not a real calendar date written YYYY-MM-DD, a topic that is not a whole number, a day that is not MM-DD, an unknown kind): the detail names the parameter and the value.',
      errorOf(400),
      {
        badMonth: errorExample(
          `start=${exampleYear(config)}-13-01`,
          invalidDate('start', `${exampleYear(config)}-13-01`, config.period.start),
        ),
      },
      false,
    ),
    NotFound: response(
      'No such record, no such page of the list, or no such path.',
      errorOf(404),
      {
        noEntry: errorExample('A well-formed date without an entry', noRecord('Entry')),
        noCategory: errorExample('A well-formed slug without a category', noRecord('Category')),
        noTopic: errorExample('A well-formed id without a topic', noRecord('Topic')),
        invalidPage: errorExample('page=0, or past the last page', INVALID_PAGE),
        notFound: errorExample('A malformed key or an unknown path', NOT_FOUND),
      },
      false,
    ),
    Unavailable: response(
      'The server cannot answer from the built site (it is missing, damaged or incomplete): not cached.',
      errorOf(503),
      {},
      false,
    ),
  };
}

/** The year of the examples of dates: the diary's second (1661 for the Pepys diary). */
function exampleYear(config: SiteConfig): string {
  return String(Number(config.period.start.slice(0, 4)) + 1).padStart(4, '0');
}

function parameters(model: Model): Doc {
  const first = {
    date: model.entries[0]?.date ?? model.config.period.start,
    slug: model.categories[0]?.slug ?? 'people',
    id: model.topics[0]?.id ?? 1,
  };
  // The query's parameters from the parameter table (core/parameters.ts), `format` first.
  const context = { year: exampleYear(model.config), topicId: first.id, categorySlug: first.slug };
  const query = Object.fromEntries(PARAMETERS.map((p) => [p.name, openApiParameter(p, context)]));
  return {
    format: query.format,
    name: {
      name: 'name',
      in: 'path',
      required: true,
      description: `The name of a file of the whole data, as /api/v1/downloads lists it: ${[...DOWNLOAD_TYPES.keys()].map((n) => `\`${n}\``).join(', ')}. Any other: 404 Not found.`,
      schema: { type: 'string', pattern: '^[-a-z0-9.]+$' },
      example: 'diary.sqlite',
    },
    ...query,
    date: {
      name: 'date',
      in: 'path',
      required: true,
      description:
        'The date of an entry. A well-formed date without an entry: 404 No Entry matches; anything else: 404 Not found.',
      schema: schemaRef('Date'),
      example: first.date,
    },
    slug: {
      name: 'slug',
      in: 'path',
      required: true,
      description: 'The slug of a category.',
      schema: { type: 'string', pattern: `^${SLUG}$` },
      example: first.slug,
    },
    id: {
      name: 'id',
      in: 'path',
      required: true,
      description: 'The id of a topic (leading zeros allowed: `007` is topic 7).',
      schema: { type: 'integer', minimum: 0 },
      example: first.id,
    },
  };
}

interface PathSpec {
  path: string;
  tag: string;
  operationId: string;
  summary: string;
  description: string;
  /** Component parameters: the path's own, then the query's. */
  pathParams: string[];
  queryParams: string[];
  ok: string;
  /** BadRequest where a parameter can be malformed (NotFound is every operation's). */
  badRequest: boolean;
}

function pathItem(spec: PathSpec): Doc {
  // `format` is every operation's: `json` and `api` choose the representation, anything else is a 404.
  const parameters = ['format', ...spec.queryParams].map((p) => ref('parameters', p));
  const get: Doc = {
    tags: [spec.tag],
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    parameters,
    responses: {
      200: ref('responses', spec.ok),
      304: ref('responses', 'NotModified'),
      ...(spec.badRequest ? { 400: ref('responses', 'BadRequest') } : {}),
      404: ref('responses', 'NotFound'),
      503: ref('responses', 'Unavailable'),
    },
  };
  const item: Doc = {};
  if (spec.pathParams.length > 0) item.parameters = spec.pathParams.map((p) => ref('parameters', p));
  item.get = get;
  item.head = {
    ...get,
    operationId: `${spec.operationId}Head`,
    summary: `${spec.summary}: the headers of GET, no body`,
    description: `The headers GET would answer, without its body. ${spec.description}`,
  };
  item.options = {
    tags: [spec.tag],
    operationId: `${spec.operationId}Options`,
    summary: `${spec.summary}: what it is and takes`,
    description:
      "This path's metadata as JSON (Django REST Framework's OPTIONS answer): its name, description, media types and query parameters. Also the answer to a CORS preflight.",
    parameters: [ref('parameters', 'format')],
    responses: {
      200: ref('responses', 'Options'),
      404: ref('responses', 'NotFound'),
      503: ref('responses', 'Unavailable'),
    },
  };
  return item;
}

/** A whole-data file: GET and HEAD only (the CDNs serve these files themselves). */
function downloadItem(): Doc {
  const get: Doc = {
    tags: ['downloads'],
    operationId: 'getDownload',
    summary: 'A file of the whole data',
    description:
      'The file as it is, with the media type, size and SHA-256 the list gives (no content coding). On a CDN it is a static file: its ETag and caching headers are the CDN’s.',
    responses: {
      200: ref('responses', 'DownloadFile'),
      304: { description: 'The copy named by If-None-Match is still current: no body.' },
      404: ref('responses', 'NotFound'),
      503: ref('responses', 'Unavailable'),
    },
  };
  return {
    parameters: [ref('parameters', 'name')],
    get,
    head: { ...get, operationId: 'getDownloadHead', summary: 'A file of the whole data: its headers, no body' },
  };
}

function paths(): Doc {
  const out: Doc = {};
  const add = (spec: PathSpec, spellings: string[]) => {
    spellings.forEach((path, i) => {
      const suffix = i === 0 ? '' : 'Json';
      out[path] = pathItem({
        ...spec,
        path,
        operationId: spec.operationId + suffix,
        summary: spec.summary + (suffix === '' ? '' : ' (.json spelling)'),
      });
    });
  };
  const v1 = API_PATH;
  add(
    {
      path: v1,
      tag: 'root',
      operationId: 'getRoot',
      summary: 'The root',
      description: `Where the three lists are (also at \`${v1}/\`, with a slash).`,
      pathParams: [],
      queryParams: [],
      ok: 'Root',
      badRequest: false,
    },
    [v1, `${v1}.json`],
  );
  const collections: Array<[Collection, string, string, string, string]> = [
    ['entries', 'Entries', 'Entry', 'date', 'an entry'],
    ['categories', 'Categories', 'Category', 'slug', 'a category'],
    ['topics', 'Topics', 'Topic', 'id', 'a topic'],
  ];
  const listDescriptions: Record<Collection, string> = {
    entries:
      'The entries by date, 50 a page; cut by dates (`start`, `end`), by a topic they mention (`topic`), by the day of the year (`day`), and searched (`search`, `ordering`).',
    categories: 'The categories by slug, 50 a page.',
    topics:
      'The topics by id, 50 a page; cut by kind (`kind`) and by category (`category`), and searched (`search`, `ordering`).',
  };
  for (const [c, plural, singular, key, a] of collections) {
    const base = `${v1}/${c}`;
    // The table's rows this list takes, in its order (`format`, every operation's, comes first anyway).
    const query = parametersOf(c)
      .map((p) => p.name)
      .filter((name) => name !== 'format');
    add(
      {
        path: base,
        tag: c,
        operationId: `list${plural}`,
        summary: `A page of ${c}`,
        description: listDescriptions[c],
        pathParams: [],
        queryParams: query,
        ok: `${singular}List`,
        badRequest: c !== 'categories',
      },
      [base, `${base}.json`],
    );
    const detail = `${base}/{${key}}`;
    add(
      {
        path: detail,
        tag: c,
        operationId: `get${singular}`,
        summary: `${a.charAt(0).toUpperCase()}${a.slice(1)} by its ${key}`,
        description: `The whole record of ${a}, with links to the records it relates to.`,
        pathParams: [key],
        queryParams: [],
        ok: singular,
        badRequest: false,
      },
      [detail, `${detail}.json`],
    );
  }
  for (const [format, ok, title] of [
    ['atom', 'AtomFeed', 'Atom'],
    ['json', 'JsonFeed', 'JSON Feed'],
  ] as const) {
    const feed = `${v1}/feeds/${format}`;
    add(
      {
        path: feed,
        tag: 'feeds',
        operationId: `get${ok}`,
        summary: `The latest entries as an ${title} feed`,
        description: `The latest 50 entries by date, newest first, for feed readers (${title}).`,
        pathParams: [],
        queryParams: [],
        ok,
        badRequest: false,
      },
      [feed],
    );
  }
  const downloads = `${v1}/downloads`;
  add(
    {
      path: downloads,
      tag: 'downloads',
      operationId: 'listDownloads',
      summary: 'The files of the whole data',
      description:
        'Everything at once: each collection as gzip’ed NDJSON (a detail a line) and one SQLite database, each with its URL, size and SHA-256.',
      pathParams: [],
      queryParams: [],
      ok: 'DownloadList',
      badRequest: false,
    },
    [downloads, `${downloads}.json`],
  );
  out[`${downloads}/{name}`] = downloadItem();
  const schema = `${v1}/schema`;
  add(
    {
      path: schema,
      tag: 'schema',
      operationId: 'getSchema',
      summary: 'This OpenAPI document',
      description: 'The OpenAPI 3.1 document of this API, as this build wrote it.',
      pathParams: [],
      queryParams: [],
      ok: 'OpenAPI',
      badRequest: false,
    },
    [schema, `${schema}.json`],
  );
  return out;
}

/** The first page of a list of this build, as the build writes it. */
function firstPage(model: Model, collection: Collection, fragments: FragmentList): unknown {
  const plan = pagePlan(wholeList(fragments.length), model.config.pageSize, 1);
  return JSON.parse(
    renderPage(
      collectionURL(model.config.apiOrigin, collection),
      (i) => fragments.at(i) as string,
      model.config.pageSize,
      plan,
    ),
  );
}

function examples(model: Model, fragments: Readonly<Record<Collection, FragmentList>>): Record<string, Examples> {
  const o: Origins = originsOf(model);
  const out: Record<string, Examples> = {
    Root: { root: { summary: 'The root of this site', value: root(o.apiOrigin) } },
    EntryList: {
      firstPage: { summary: 'The first page of the entries', value: firstPage(model, 'entries', fragments.entries) },
    },
    CategoryList: {
      firstPage: {
        summary: 'The first page of the categories',
        value: firstPage(model, 'categories', fragments.categories),
      },
    },
    TopicList: {
      firstPage: { summary: 'The first page of the topics', value: firstPage(model, 'topics', fragments.topics) },
    },
  };
  const [entry] = model.entries;
  const [category] = model.categories;
  const [topic] = model.topics;
  if (entry !== undefined)
    out.Entry = { first: { summary: `The entry of ${entry.date}`, value: entryDetail(o, entry) } };
  if (category !== undefined)
    out.Category = { first: { summary: `The category ${category.slug}`, value: categoryDetail(o, model, category) } };
  if (topic !== undefined) out.Topic = { first: { summary: `Topic ${topic.id}`, value: topicDetail(o, model, topic) } };
  return out;
}

/** The whole document, for a model and the rendered list items of its three lists. */
function openApiDocument(model: Model, fragments: Readonly<Record<Collection, FragmentList>>): Doc {
  const { config } = model;
  const o: Origins = originsOf(model);
  return {
    openapi: '3.1.0',
    info: {
      title: `${config.title}: API`,
      // Whoever publishes the diary, at its human-readable site.
      contact: { name: config.title, url: `${o.siteOrigin}/` },
      version: '1',
      // What the data is published under (site.yaml `license`), when the site says.
      ...(config.license === null ? {} : { license: openApiLicense(config.license) }),
      summary: `${config.title}, one entry a day, and its encyclopedia: read-only, as JSON.`,
      description:
        'Every answer is UTF-8 JSON, pretty-printed. Lists are paginated (' +
        `${config.pageSize} records a page, ` +
        '`page`, links to the next and previous pages); entries can be filtered by date (`start`, `end`, inclusive). ' +
        'Every successful answer has an ETag (send If-None-Match to get 304); any page on any origin may read the API (CORS). ' +
        'Every path also answers with a `.json` suffix. A browser (Accept preferring text/html), or `format=api`, gets each answer as a browsable HTML page ' +
        '(`text/html; charset=utf-8`, the same status); this document describes the JSON only, so that generated clients are typed by it. ' +
        'The API is read-only: any method but GET, HEAD and OPTIONS (POST, PUT, PATCH, DELETE, …) gets 405 Method Not Allowed with the error body and `Allow: GET, HEAD, OPTIONS`. ' +
        'No authentication: anyone may read everything.',
    },
    // No authentication anywhere (OpenAPI: an empty list of requirements).
    security: [],
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: config.apiOrigin, description: 'This site' }],
    externalDocs: { url: `${o.siteOrigin}/`, description: 'The human-readable site each webURL points at' },
    tags: [
      { name: 'root', description: 'Where the lists are' },
      { name: 'entries', description: 'The diary, one entry a day' },
      { name: 'categories', description: 'The tree of categories of the encyclopedia' },
      { name: 'topics', description: 'People, places and everything else the diary mentions' },
      { name: 'feeds', description: 'The latest entries, for feed readers' },
      { name: 'downloads', description: 'The whole data at once: NDJSON and SQLite' },
      { name: 'schema', description: 'This document' },
    ],
    paths: paths(),
    components: {
      schemas: schemas(o, config.pageSize, entryWords(config), config.license),
      responses: responses(examples(model, fragments), model.config),
      parameters: parameters(model),
      headers: headers(),
    },
  };
}

const NO_RECORD = {};

/**
 * The document as the file the build writes. With a memo (the watch mode) it is rendered again
 * only when something it shows changed: the first record of each kind, the first page of each
 * list, the size of each list (the configuration is the memo's own key).
 */
export function openApiFile(
  model: Model,
  fragments: Readonly<Record<Collection, FragmentList>>,
  memo?: RenderMemo,
): { path: string; body: string } {
  const render = () => pretty(openApiDocument(model, fragments));
  if (memo === undefined) return { path: SCHEMA_FILE, body: render() };
  const size = model.config.pageSize;
  const held = (c: Collection) =>
    pagePositions(size, pagePlan(wholeList(fragments[c].length), size, 1)).map((i) => fragments[c].at(i));
  const [entry] = model.entries;
  const [category] = model.categories;
  const [topic] = model.topics;
  const extras = [
    entry,
    category,
    topic,
    category === undefined
      ? []
      : [
          model.categoryAncestors.get(category.slug),
          model.categoryTopics.get(category.slug),
          model.categoryChildren.get(category.slug),
        ],
    topic === undefined ? [] : model.topicEntries.get(topic.id),
    held('entries'),
    held('categories'),
    held('topics'),
    fragments.entries.length,
    fragments.categories.length,
    fragments.topics.length,
  ];
  return { path: SCHEMA_FILE, body: memo.table<string>('openapi').get(SCHEMA_FILE, NO_RECORD, extras, render) };
}
