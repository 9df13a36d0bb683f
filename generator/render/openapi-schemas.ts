// The schemas of the OpenAPI document (openapi.ts): each record's made from its description
// (core/record-fields.ts), field by field in its order, so that a field added there is described
// here too; the addresses' patterns from the configuration's origins and webURL templates.

import { DEFAULT_LOCALE, titleRules } from '../content/locale.ts';
import { calendarName } from '../core/calendar.ts';
import { DOWNLOAD_TYPES } from '../core/files.ts';
import type { License } from '../core/license.ts';
import type { SiteConfig } from '../core/model.ts';
import { linkParametersOf } from '../core/parameters.ts';
import {
  CATEGORY,
  type Description,
  DOWNLOAD,
  DOWNLOAD_LIST,
  ENTRY,
  ERROR,
  type FieldSpec,
  fieldsOf,
  itemFieldsOf,
  type PatternSpec,
  ROOT,
  ROUTE_SLUG,
  TOPIC,
  TOPIC_KINDS,
} from '../core/record-fields.ts';
import type { Origins } from '../core/records.ts';
import { PEPYS_TITLE } from '../core/site-index.ts';
import { entryTitle } from '../core/titles.ts';
import type { Collection, ListEnvelope } from '../core/types.ts';
import { API_PATH } from '../core/urls.ts';

/** A JSON value of the document. */
export type Doc = { [key: string]: unknown };

export const ref = (group: string, name: string): Doc => ({ $ref: `#/components/${group}/${name}` });
export const schemaRef = (name: string) => ref('schemas', name);
const nullable = (schema: Doc): Doc => ({ anyOf: [schema, { type: 'null' }] });

/** A regular expression matching `text` literally (ECMA-262 with the `u` flag, as JSON Schema). */
const literal = (text: string) => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

const DATE = '[0-9]{4}-[0-9]{2}-[0-9]{2}';
// Django's slug and int converters, as the router accepts them (core/router.ts).
export const SLUG = ROUTE_SLUG;

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

const SINGULAR: Readonly<Record<Collection, string>> = { entries: 'entry', categories: 'category', topics: 'topic' };

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

/** What the descriptions' fields are said with on this site. */
interface SchemaContext {
  o: Origins;
  /** The API's address, as a pattern. */
  api: string;
  words: EntryWords;
}

const ENUMS: Readonly<Record<NonNullable<FieldSpec['enum']>, () => string[]>> = {
  topicKinds: () => [...TOPIC_KINDS],
  downloadNames: () => [...DOWNLOAD_TYPES.keys()],
  mediaTypes: () => [...new Set(DOWNLOAD_TYPES.values())],
};

function patternOf(p: PatternSpec, c: SchemaContext): string {
  if (typeof p === 'string') return p;
  if ('api' in p) return `${c.api}${p.api}`;
  return webURLPattern(literal(c.o.siteOrigin), c.o.webURLs[p.webURL]);
}

/** A field's schema, its keys in the document's order. */
function fieldSchema(spec: FieldSpec, c: SchemaContext): Doc {
  let s: Doc;
  if (spec.ref !== undefined && spec.type !== 'array') s = schemaRef(spec.ref);
  else {
    s = { type: spec.type };
    if (spec.format !== undefined) s.format = spec.format;
    if (spec.enum !== undefined) s.enum = ENUMS[spec.enum]();
    if (spec.pattern !== undefined) s.pattern = `^${patternOf(spec.pattern, c)}$`;
    if (spec.minimum !== undefined) s.minimum = spec.minimum;
    if (spec.maximum !== undefined) s.maximum = spec.maximum;
    if (spec.type === 'array' && spec.ref !== undefined) s.items = schemaRef(spec.ref);
    if (spec.unique) s.uniqueItems = true;
  }
  if (spec.doc !== undefined) s.description = typeof spec.doc === 'string' ? spec.doc : c.words[spec.doc.words];
  if (spec.maxItems !== undefined) s.maxItems = spec.maxItems;
  return spec.nullable ? nullable(s) : s;
}

/** The schemas of `names`, fields of `description`, in that order. */
function fieldSchemas(description: Description, names: readonly string[], c: SchemaContext): Record<string, Doc> {
  return Object.fromEntries(names.map((n) => [n, fieldSchema(description[n] as FieldSpec, c)]));
}

function record(description: string, fields: Record<string, Doc>): Doc {
  return {
    type: 'object',
    description,
    required: Object.keys(fields),
    properties: fields,
    additionalProperties: false,
  };
}

/** A record's detail, every field of its description. */
const detail = (d: Description, doc: string, c: SchemaContext) => record(doc, fieldSchemas(d, fieldsOf(d), c));

/** A list item's record, with the `snippet` that only the items of a search answer have. */
function searchableItem(d: Description, description: string, c: SchemaContext): Doc {
  const fields = fieldSchemas(d, itemFieldsOf(d), c);
  const doc = record(`${description} In a search answer (and only there), also \`snippet\`.`, fields);
  const snippet: Doc = {
    type: 'string',
    description:
      'A short excerpt around the first match (text, then notes, then title), HTML: each matched word in `<mark>…</mark>`, everything else escaped; `…` where it is cut.',
  };
  return { ...doc, properties: { ...fields, snippet } };
}

function list(item: string, description: string, pageURL: string): Doc {
  const fields: Record<keyof ListEnvelope<unknown>, Doc> = {
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
  return record(description, fields);
}

/** The listing of the downloads: with the licence of the data, when the site states one. */
function downloadList(license: License | null, c: SchemaContext): Doc {
  const { downloads } = fieldSchemas(DOWNLOAD_LIST, fieldsOf(DOWNLOAD_LIST), c) as { downloads: Doc };
  if (license === null) return record('The files of the whole data.', { downloads });
  const fields: Record<string, Doc> = {
    name: { type: 'string', description: 'What the licence is called (its SPDX id when it has one).' },
    url: { type: 'string', format: 'uri', description: 'Where its text is.' },
  };
  if (license.identifier !== undefined) fields.identifier = { type: 'string', description: 'Its SPDX licence id.' };
  return record('The files of the whole data, and the licence they are published under.', {
    downloads,
    license: record('The licence of the data.', fields),
  });
}

export function schemas(o: Origins, config: SiteConfig): Doc {
  const { pageSize, license } = config;
  const api = literal(`${o.apiOrigin}${API_PATH}`);
  const c: SchemaContext = { o, api, words: entryWords(config) };
  const url = (pattern: string, description: string): Doc => ({
    type: 'string',
    format: 'uri',
    pattern: `^${pattern}$`,
    description,
  });
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
    DownloadList: downloadList(license, c),
    Download: detail(DOWNLOAD, 'A file of the whole data, served as it is (no content coding).', c),
    Root: detail(ROOT, 'The root: where the three lists are.', c),
    EntryItem: searchableItem(ENTRY, 'An entry, as a list gives it: the head of its detail.', c),
    Entry: detail(ENTRY, 'An entry of the diary.', c),
    CategoryItem: record(
      'A category, as a list gives it: its detail without `topics`.',
      fieldSchemas(CATEGORY, itemFieldsOf(CATEGORY), c),
    ),
    Category: detail(CATEGORY, 'A category of the encyclopedia (a tree three levels deep).', c),
    TopicItem: searchableItem(TOPIC, 'A topic, as a list gives it: the head of its detail.', c),
    Topic: detail(TOPIC, 'A topic of the encyclopedia: a person, a place or anything else.', c),
    EntryList: list('EntryItem', `A page of entries, ${pageSize} a page, by ascending date.`, 'EntryPageURL'),
    CategoryList: list('CategoryItem', `A page of categories, ${pageSize} a page, by slug.`, 'CategoryPageURL'),
    TopicList: list('TopicItem', `A page of topics, ${pageSize} a page, by ascending id.`, 'TopicPageURL'),
    Error: detail(ERROR, 'The body of every error.', c),
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
