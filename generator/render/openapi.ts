// The OpenAPI 3.1 document of the API, served at /api/v1/schema: rendered by the build from the
// same types (each record schema is checked by the compiler against the record's interface: a
// field added to a record and not here does not compile), the same configuration (the origins,
// the page size, the headers, the error messages) and the same model (the examples are the first
// records and first list pages of this very build). Clients can generate code from it; the
// contract tests validate every body they see against it, so it cannot drift from the answers.

import { INVALID_PAGE, invalidDate, methodNotAllowed, NOT_FOUND, noRecord } from '../core/errors.ts';
import { SCHEMA_FILE } from '../core/files.ts';
import { API_HEADERS, CLIENT_CACHE_CONTROL, NO_STORE, PREFLIGHT_MAX_AGE } from '../core/headers.ts';
import { pretty } from '../core/json.ts';
import { pagePlan, pagePositions, renderPage, wholeList } from '../core/lists.ts';
import type { Model } from '../core/model.ts';
import { categoryDetail, entryDetail, type Origins, root, topicDetail } from '../core/records.ts';
import {
  type CategoryDetail,
  type CategoryItem,
  type Collection,
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

function schemas(o: Origins, pageSize: number): Doc {
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
    date: { ...schemaRef('Date'), description: 'The day of the diary (Julian calendar, as Pepys wrote it).' },
    title: text('`<Weekday> <day> <Month> <year>`, e.g. `Sunday 1 January 1659/60`.'),
    lastModifiedTime: lastModified,
    apiURL: schemaRef('EntryURL'),
    webURL: url(`${site}/diary/[0-9]{4}/[0-9]{2}/[0-9]{2}/`, 'The entry on the human-readable site.'),
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
    webURL: url(`${site}/encyclopedia/(?:${SLUG}/){1,3}`, 'The category on the human-readable site.'),
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
    webURL: url(`${site}/encyclopedia/[0-9]+/`, 'The topic on the human-readable site.'),
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
  const pages = `(?:\\?page=[1-9][0-9]*)?`;
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
    EntryPageURL: url(
      `${api}/entries(?:\\?(?:end=${DATE})?(?:&?ordering=relevance)?(?:&?page=[1-9][0-9]*)?(?:&?search=[^&#]+)?(?:&?start=${DATE})?)?`,
      'A page of the entry list: `end`, `ordering`, `page`, `search` and `start` in alphabetical order, no `page` on page 1.',
    ),
    CategoryPageURL: url(`${api}/categories${pages}`, 'A page of the category list (no `page` on page 1).'),
    TopicPageURL: url(
      `${api}/topics(?:\\?(?:ordering=relevance)?(?:&?page=[1-9][0-9]*)?(?:&?search=[^&#]+)?)?`,
      'A page of the topic list: `ordering`, `page` and `search` in alphabetical order, no `page` on page 1.',
    ),
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
  ' A client whose Accept prefers text/html (a browser) gets the same answer, with the same status, as a browsable HTML page instead; ' +
  'a `.json` path is always JSON.';

interface Examples {
  [name: string]: { summary: string; value: unknown };
}

/** A response with a JSON body (and its HTML page for browsers). */
function response(description: string, schema: Doc, examples: Examples, success: boolean): Doc {
  const json: Doc = { schema };
  if (Object.keys(examples).length > 0) json.examples = examples;
  return {
    description: description + HTML_NOTE,
    headers: headerRefs(success ? ['ETag', ...COMMON_HEADERS] : COMMON_HEADERS),
    content: { 'application/json': json, 'text/html': { schema: { type: 'string' } } },
  };
}

const errorOf = (status: number): Doc => ({
  allOf: [schemaRef('Error'), { type: 'object', properties: { status_code: { const: status } } }],
});
const errorExample = (summary: string, error: { status: number; detail: string }) => ({
  summary,
  value: { detail: error.detail, status_code: error.status },
});

function responses(examples: Record<string, Examples>): Doc {
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
        badMonth: errorExample('start=1661-13-01', invalidDate('start', '1661-13-01')),
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
    MethodNotAllowed: response(
      'The API is read-only: GET, HEAD and OPTIONS only.',
      errorOf(405),
      {
        post: errorExample('POST', methodNotAllowed('POST')),
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

function parameters(model: Model): Doc {
  const first = {
    date: model.entries[0]?.date ?? '1660-01-01',
    slug: model.categories[0]?.slug ?? 'people',
    id: model.topics[0]?.id ?? 1,
  };
  return {
    page: {
      name: 'page',
      in: 'query',
      required: false,
      description:
        'The page: 1 (the default, also when empty) to totalPages, leading zeros allowed, or `last`. Anything else: 404 Invalid page.',
      schema: {
        anyOf: [
          { type: 'integer', minimum: 1 },
          { type: 'string', enum: ['last'] },
        ],
      },
      examples: { second: { value: 2 }, last: { value: 'last' } },
    },
    start: {
      name: 'start',
      in: 'query',
      required: false,
      description:
        'Entries on or after this date. Empty means absent; anything but a real date written YYYY-MM-DD: 400.',
      schema: schemaRef('Date'),
      example: '1661-01-01',
    },
    end: {
      name: 'end',
      in: 'query',
      required: false,
      description:
        'Entries on or before this date. Empty means absent; anything but a real date written YYYY-MM-DD: 400. After `start`: an empty list.',
      schema: schemaRef('Date'),
      example: '1661-12-31',
    },
    topic: {
      name: 'topic',
      in: 'query',
      required: false,
      description:
        'Only the entries that mention this topic (its id), in date order. Empty means absent; not a whole number: 400; no such topic: 404 No Topic matches.',
      schema: { type: 'integer', minimum: 0 },
      example: first.id,
    },
    day: {
      name: 'day',
      in: 'query',
      required: false,
      description:
        'On this day: only the entries of this calendar day, written MM-DD, in every year, in date order. Empty means absent; not a day of the year (02-29 is one): 400.',
      schema: { type: 'string', pattern: '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$' },
      example: '01-01',
    },
    kind: {
      name: 'kind',
      in: 'query',
      required: false,
      description: 'Only the topics of this kind. Empty means absent; anything else: 400.',
      schema: { type: 'string', enum: ['person', 'place', 'default'] },
      example: 'person',
    },
    category: {
      name: 'category',
      in: 'query',
      required: false,
      description:
        "Only the category's own topics (its slug). Empty means absent; no such category: 404 No Category matches.",
      schema: { type: 'string', pattern: `^${SLUG}$` },
      example: first.slug,
    },
    search: {
      name: 'search',
      in: 'query',
      required: false,
      description:
        'Full-text search, written as in a web search engine: words are all required, `"a phrase"` needs its words in a row, `or` between two terms takes either, `-term` excludes. Case, accents and word endings do not matter (English stemming); no word is ignored. An empty value is no search. At most 500 characters and 32 words, no control characters: anything else is read leniently; beyond that: 400. Matches come in the list’s order unless `ordering=relevance`; each item gains `snippet`.',
      schema: { type: 'string', maxLength: 500 },
      examples: {
        word: { value: 'plague' },
        phrase: { value: '"and so to bed"' },
        either: { value: 'lute or theorbo' },
      },
    },
    ordering: {
      name: 'ordering',
      in: 'query',
      required: false,
      description:
        'With `search`: `relevance` ranks the matches (BM25; the title weighs more than the text, the text more than the notes; ties in the list’s order). Empty or absent: the list’s order. Anything else: 400. Without `search` it changes nothing.',
      schema: { type: 'string', enum: ['', 'relevance'] },
      example: 'relevance',
    },
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
  /** Component parameters: the path's own, then the query's. */
  pathParams: string[];
  queryParams: string[];
  ok: string;
  errors: string[];
}

const REFUSED = ['post', 'put', 'patch', 'delete'];

function pathItem(spec: PathSpec): Doc {
  const get: Doc = {
    tags: [spec.tag],
    operationId: spec.operationId,
    summary: spec.summary,
    responses: {
      200: ref('responses', spec.ok),
      304: ref('responses', 'NotModified'),
      ...Object.fromEntries(spec.errors.map((e) => [e === 'BadRequest' ? 400 : 404, ref('responses', e)])),
      503: ref('responses', 'Unavailable'),
    },
  };
  if (spec.queryParams.length > 0) get.parameters = spec.queryParams.map((p) => ref('parameters', p));
  const item: Doc = {};
  if (spec.pathParams.length > 0) item.parameters = spec.pathParams.map((p) => ref('parameters', p));
  item.get = get;
  item.head = {
    ...get,
    operationId: `${spec.operationId}Head`,
    summary: `${spec.summary}: the headers of GET, no body`,
  };
  item.options = {
    tags: [spec.tag],
    summary: 'The methods of this path; the answer to CORS preflights',
    responses: { 200: ref('responses', 'Options'), 503: ref('responses', 'Unavailable') },
  };
  for (const method of REFUSED) {
    item[method] = {
      tags: [spec.tag],
      summary: 'Refused: the API is read-only',
      responses: { 405: ref('responses', 'MethodNotAllowed'), 503: ref('responses', 'Unavailable') },
    };
  }
  return item;
}

function paths(): Doc {
  const out: Doc = {};
  const add = (spec: PathSpec, spellings: string[]) => {
    spellings.forEach((path, i) => {
      const suffix = i === 0 ? '' : path.endsWith('.json') ? 'Json' : 'Slash';
      out[path] = pathItem({
        ...spec,
        path,
        operationId: spec.operationId + suffix,
        summary: spec.summary + (suffix === '' ? '' : ` (${path.slice(spec.path.length) || 'no suffix'} spelling)`),
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
      pathParams: [],
      queryParams: [],
      ok: 'Root',
      errors: [],
    },
    [v1, `${v1}/`, `${v1}.json`],
  );
  const collections: Array<[Collection, string, string, string, string]> = [
    ['entries', 'Entries', 'Entry', 'date', 'an entry'],
    ['categories', 'Categories', 'Category', 'slug', 'a category'],
    ['topics', 'Topics', 'Topic', 'id', 'a topic'],
  ];
  for (const [c, plural, singular, key, a] of collections) {
    const base = `${v1}/${c}`;
    const query =
      c === 'entries'
        ? ['page', 'start', 'end', 'topic', 'day', 'search', 'ordering']
        : c === 'topics'
          ? ['page', 'kind', 'category', 'search', 'ordering']
          : ['page'];
    const listErrors = c === 'categories' ? ['NotFound'] : ['BadRequest', 'NotFound'];
    add(
      {
        path: base,
        tag: c,
        operationId: `list${plural}`,
        summary: `A page of ${c}`,
        pathParams: [],
        queryParams: query,
        ok: `${singular}List`,
        errors: listErrors,
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
        pathParams: [key],
        queryParams: [],
        ok: singular,
        errors: ['NotFound'],
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
        pathParams: [],
        queryParams: [],
        ok,
        errors: [],
      },
      [feed],
    );
  }
  const schema = `${v1}/schema`;
  add(
    {
      path: schema,
      tag: 'schema',
      operationId: 'getSchema',
      summary: 'This OpenAPI document',
      pathParams: [],
      queryParams: [],
      ok: 'OpenAPI',
      errors: [],
    },
    [schema, `${schema}.json`],
  );
  return out;
}

/** The first page of a list of this build, as the build writes it. */
function firstPage(model: Model, collection: Collection, fragments: readonly string[]): unknown {
  const plan = pagePlan(wholeList(fragments.length), model.config.pageSize, 1);
  return JSON.parse(
    renderPage(
      collectionURL(model.config.apiOrigin, collection),
      (i) => fragments[i] as string,
      model.config.pageSize,
      plan,
    ),
  );
}

function examples(model: Model, fragments: Readonly<Record<Collection, readonly string[]>>): Record<string, Examples> {
  const o: Origins = { apiOrigin: model.config.apiOrigin, siteOrigin: model.config.siteOrigin };
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
function openApiDocument(model: Model, fragments: Readonly<Record<Collection, readonly string[]>>): Doc {
  const { config } = model;
  const o: Origins = { apiOrigin: config.apiOrigin, siteOrigin: config.siteOrigin };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pepys diary API',
      version: '1',
      summary: 'The diary of Samuel Pepys (1660–1669) and its encyclopedia, read-only, as JSON.',
      description:
        'Every answer is UTF-8 JSON, pretty-printed. Lists are paginated (' +
        `${config.pageSize} records a page, ` +
        '`page`, links to the next and previous pages); entries can be filtered by date (`start`, `end`, inclusive). ' +
        'Every successful answer has an ETag (send If-None-Match to get 304); any page on any origin may read the API (CORS). ' +
        'Every path also answers with a `.json` suffix, and a browser (Accept preferring text/html) gets a browsable HTML page.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: config.apiOrigin, description: 'This site' }],
    externalDocs: { url: `${o.siteOrigin}/`, description: 'The human-readable site each webURL points at' },
    tags: [
      { name: 'root', description: 'Where the lists are' },
      { name: 'entries', description: 'The diary, one entry a day' },
      { name: 'categories', description: 'The tree of categories of the encyclopedia' },
      { name: 'topics', description: 'People, places and everything else the diary mentions' },
      { name: 'feeds', description: 'The latest entries, for feed readers' },
      { name: 'schema', description: 'This document' },
    ],
    paths: paths(),
    components: {
      schemas: schemas(o, config.pageSize),
      responses: responses(examples(model, fragments)),
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
  fragments: Readonly<Record<Collection, readonly string[]>>,
  memo?: RenderMemo,
): { path: string; body: string } {
  const render = () => pretty(openApiDocument(model, fragments));
  if (memo === undefined) return { path: SCHEMA_FILE, body: render() };
  const size = model.config.pageSize;
  const held = (c: Collection) =>
    pagePositions(size, pagePlan(wholeList(fragments[c].length), size, 1)).map((i) => fragments[c][i]);
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
