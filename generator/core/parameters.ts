// The query parameters of the lists, one row each: the single place that says which lists take a
// parameter, how it is read, what its 400 says, how its links spell it, how the OpenAPI document
// describes it and which field of the HTML view's forms sets it. The places that used to agree by
// hand derive from it: lists.ts (which parameters a request reads, the date filters), filters.ts
// (the record filters), metadata.ts (OPTIONS), html-view.ts (the forms and the `.json` link) and
// render/openapi.ts (the parameters and the page-link patterns). Adding a record filter is one row
// here plus its predicate in filters.ts (`filteredPositions`).

import type { ApiError } from './errors.ts';
import { noRecord } from './errors.ts';
import { TOPIC_KINDS } from './record-fields.ts';
import { fail, ok, type Result } from './result.ts';
import type { SiteIndex } from './site-index.ts';
import { topicIdOfKey, topicKey } from './topic-id.ts';
import type { Collection } from './types.ts';

/** What a few OpenAPI examples name: the build's diary and first records. */
export interface ExampleContext {
  /** The diary's second year (1661 for the Pepys diary). */
  year: string;
  topicId: number;
  categorySlug: string;
}

/** A parameter as the OpenAPI document describes it (`in: query`, never required). */
interface OpenApiQuery {
  description: string;
  schema: Readonly<Record<string, unknown>>;
  /** One example, or one computed from the build's records. */
  example?: string | ((c: ExampleContext) => string | number);
  examples?: Readonly<Record<string, { value: unknown }>>;
}

/** The field of the HTML view that sets a parameter: the date-range form or the search box. */
export interface FormField {
  form: 'range' | 'search';
  label: string;
  input: 'date' | 'words' | 'order';
}

/**
 * How a request's value is read. `format`: the representation (handler.ts, 404 otherwise);
 * `page`: the page (pagination.ts's parsePage, 404 otherwise); `date`: a real date of the diary's
 * calendar (lists.ts's entryFilters, errors.ts's invalidDate); `search`: the full-text query and
 * its ordering (search/query.ts's parseSearch and parseOrdering, with their 400s); `record`: a
 * record filter, read by the row's own `parse` (filters.ts's recordFilters), its records found
 * by its predicate in filters.ts.
 */
type Reading =
  | { role: 'format' | 'page' | 'date' | 'search' }
  | {
      role: 'record';
      /** The value as the predicate takes it (400 or 404 otherwise); `site`: the built site's keys. */
      parse: (raw: string, site: SiteIndex) => Result<string | number, ApiError>;
    };

export type Parameter = Reading & {
  name: string;
  /** The lists that read it (every other list ignores it). */
  lists: readonly Collection[];
  /** Its value's pattern in the links of the pages (which spell their parameters in alphabetical order); null: not in links. */
  link: string | null;
  openapi: OpenApiQuery;
  form?: FormField;
};

/** 400 for a record filter's value: what was given and what is expected. */
function invalid(parameter: string, given: string, expected: string): ApiError {
  return {
    status: 400,
    detail: `Invalid "${parameter}" parameter: ${JSON.stringify(given)} is not ${expected}.`,
  };
}

const DAY = /^(\d{2})-(\d{2})$/;
const SLUG = '[-a-zA-Z0-9_]+';
const SLUG_VALUE = new RegExp(`^${SLUG}$`);
/** Days of each month in a leap year: `day` names a calendar day of any year. */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DATE_LINK = '[0-9]{4}-[0-9]{2}-[0-9]{2}';
const DATE_SCHEMA = { $ref: '#/components/schemas/Date' };
const SEARCH_LISTS: readonly Collection[] = ['entries', 'topics'];

/** Every query parameter of the lists, in the order of the OpenAPI document's operations. */
export const PARAMETERS = [
  {
    name: 'format',
    role: 'format',
    lists: ['entries', 'categories', 'topics'],
    link: null,
    openapi: {
      description:
        'The representation, as Django REST Framework’s format override: `json` (JSON whatever the Accept header) or `api` (the browsable HTML page). Empty or absent: by Accept. Anything else: 404 Not found.',
      schema: { type: 'string', enum: ['', 'json', 'api'] },
      example: 'json',
    },
  },
  {
    name: 'page',
    role: 'page',
    lists: ['entries', 'categories', 'topics'],
    link: '[1-9][0-9]*',
    openapi: {
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
  },
  {
    name: 'start',
    role: 'date',
    lists: ['entries'],
    link: DATE_LINK,
    openapi: {
      description:
        'Entries on or after this date. Empty means absent; anything but a real date written YYYY-MM-DD: 400.',
      schema: DATE_SCHEMA,
      example: (c) => `${c.year}-01-01`,
    },
    form: { form: 'range', label: 'From (start)', input: 'date' },
  },
  {
    name: 'end',
    role: 'date',
    lists: ['entries'],
    link: DATE_LINK,
    openapi: {
      description:
        'Entries on or before this date. Empty means absent; anything but a real date written YYYY-MM-DD: 400. After `start`: an empty list.',
      schema: DATE_SCHEMA,
      example: (c) => `${c.year}-12-31`,
    },
    form: { form: 'range', label: 'To (end)', input: 'date' },
  },
  {
    name: 'topic',
    role: 'record',
    lists: ['entries'],
    link: '[0-9]+',
    // Read as the path `/api/v1/topics/<id>` reads it (topic-id.ts): `0012` is 12.
    parse: (raw, site) => {
      const key = topicKey(raw);
      if (key === null) return fail(invalid('topic', raw, 'a topic id. Expected a whole number, such as 1'));
      const id = topicIdOfKey(key);
      return id === null || !site.topicIds.has(id) ? fail(noRecord('Topic')) : ok(id);
    },
    openapi: {
      description:
        'Only the entries that mention this topic (its id), in date order. Empty means absent; not a whole number: 400; no such topic: 404 No Topic matches.',
      schema: { type: 'integer', minimum: 0 },
      example: (c) => c.topicId,
    },
  },
  {
    name: 'day',
    role: 'record',
    lists: ['entries'],
    link: '[0-9]{2}-[0-9]{2}',
    parse: (raw) => {
      const m = DAY.exec(raw);
      const month = Number(m?.[1]);
      const day = Number(m?.[2]);
      return m === null || month < 1 || month > 12 || day < 1 || day > (MONTH_DAYS[month - 1] as number)
        ? fail(invalid('day', raw, 'a day of the year. Expected a month and a day written MM-DD, such as 01-01'))
        : ok(raw);
    },
    openapi: {
      description:
        'On this day: only the entries of this calendar day, written MM-DD, in every year, in date order. Empty means absent; not a day of the year (02-29 is one): 400.',
      schema: { type: 'string', pattern: '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$' },
      example: '01-01',
    },
  },
  {
    name: 'kind',
    role: 'record',
    lists: ['topics'],
    link: `(?:${TOPIC_KINDS.join('|')})`,
    parse: (raw) =>
      (TOPIC_KINDS as readonly string[]).includes(raw)
        ? ok(raw)
        : fail(invalid('kind', raw, `a kind of topic. Expected one of ${TOPIC_KINDS.join(', ')}`)),
    openapi: {
      description: 'Only the topics of this kind. Empty means absent; anything else: 400.',
      schema: { type: 'string', enum: [...TOPIC_KINDS] },
      example: 'person',
    },
  },
  {
    name: 'category',
    role: 'record',
    lists: ['topics'],
    link: SLUG,
    parse: (raw, site) => (SLUG_VALUE.test(raw) && site.categorySlugs.has(raw) ? ok(raw) : fail(noRecord('Category'))),
    openapi: {
      description:
        "Only the category's own topics (its slug). Empty means absent; no such category: 404 No Category matches.",
      schema: { type: 'string', pattern: `^${SLUG}$` },
      example: (c) => c.categorySlug,
    },
  },
  {
    name: 'search',
    role: 'search',
    lists: SEARCH_LISTS,
    link: '[^&#]+',
    openapi: {
      description:
        'Full-text search, written as in a web search engine: words are all required, `"a phrase"` needs its words in a row, `or` between two terms takes either, `-term` excludes. Case, accents and word endings do not matter (English stemming); no word is ignored. An empty value is no search. At most 500 characters and 32 words, no control characters: anything else is read leniently; beyond that: 400. Matches come in the list’s order unless `ordering=relevance`; each item gains `snippet`.',
      schema: { type: 'string', maxLength: 500 },
      examples: {
        word: { value: 'plague' },
        phrase: { value: '"and so to bed"' },
        either: { value: 'lute or theorbo' },
      },
    },
    form: { form: 'search', label: 'Words', input: 'words' },
  },
  {
    name: 'ordering',
    role: 'search',
    lists: SEARCH_LISTS,
    link: 'relevance',
    openapi: {
      description:
        'With `search`: `relevance` ranks the matches (BM25; the title weighs more than the text, the text more than the notes; ties in the list’s order). Empty or absent: the list’s order. Anything else: 400. Without `search` it changes nothing.',
      schema: { type: 'string', enum: ['', 'relevance'] },
      example: 'relevance',
    },
    form: { form: 'search', label: 'Order', input: 'order' },
  },
] as const satisfies readonly Parameter[];

export type ParameterName = (typeof PARAMETERS)[number]['name'];

/** The record filters' rows (topic, day, kind, category), in the order their errors are checked. */
export type RecordParameter = Extract<(typeof PARAMETERS)[number], { role: 'record' }>;
export const RECORD_PARAMETERS: readonly RecordParameter[] = PARAMETERS.filter(
  (p): p is RecordParameter => p.role === 'record',
);

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The parameters a list takes, in the table's order. */
export function parametersOf(collection: Collection): Parameter[] {
  return PARAMETERS.filter((p) => (p.lists as readonly Collection[]).includes(collection));
}

/** The parameters a list's page links carry, with their patterns, in the links' (alphabetical) order. */
export function linkParametersOf(collection: Collection): Array<readonly [string, string]> {
  return parametersOf(collection)
    .sort(byName)
    .flatMap((p) => (p.link === null ? [] : [[p.name, p.link] as const]));
}

/** The names of every list parameter in alphabetical order (the links' order). */
export const ALPHABETICAL: readonly ParameterName[] = [...PARAMETERS].sort(byName).map((p) => p.name);

/** A row's OpenAPI parameter object, its example computed for this build. */
export function openApiParameter(p: Parameter, c: ExampleContext): Record<string, unknown> {
  const { description, schema, example, examples } = p.openapi;
  return {
    name: p.name,
    in: 'query',
    required: false,
    description,
    schema,
    ...(example === undefined ? {} : { example: typeof example === 'function' ? example(c) : example }),
    ...(examples === undefined ? {} : { examples }),
  };
}
