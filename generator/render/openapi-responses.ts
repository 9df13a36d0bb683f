// The responses and headers of the OpenAPI document (openapi.ts): the contract's headers
// (core/headers.ts) described once, every answer's body and examples (core/errors.ts' messages).

import { INVALID_PAGE, invalidDate, NOT_FOUND, noRecord } from '../core/errors.ts';
import { DOWNLOAD_TYPES } from '../core/files.ts';
import { API_HEADERS, CLIENT_CACHE_CONTROL, NO_STORE, PREFLIGHT_MAX_AGE } from '../core/headers.ts';
import type { SiteConfig } from '../core/model.ts';
import { type Doc, ref, schemaRef } from './openapi-schemas.ts';

const header = (description: string, schema: Doc, required = true): Doc => ({ description, required, schema });

/** The headers of the contract (core/headers.ts), described once and referenced by every answer. */
export function headers(): Doc {
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

export interface Examples {
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

export function responses(examples: Record<string, Examples>, config: SiteConfig): Doc {
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
export function exampleYear(config: SiteConfig): string {
  return String(Number(config.period.start.slice(0, 4)) + 1).padStart(4, '0');
}
