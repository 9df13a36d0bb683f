// The paths of the OpenAPI document (openapi.ts): each operation of the API, its `.json`
// spelling, HEAD and OPTIONS beside GET, the parameters and responses it refers to.

import { parametersOf } from '../core/parameters.ts';
import type { Collection } from '../core/types.ts';
import { API_PATH } from '../core/urls.ts';
import { type Doc, ref } from './openapi-schemas.ts';

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

export function paths(): Doc {
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
