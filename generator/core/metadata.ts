// The answer to OPTIONS: a JSON description of the resource, as DRF's SimpleMetadata gives it
// (its name, its description, what it renders and parses), plus the query parameters it takes.
// JSON, because the contract answers OPTIONS with 200 and `Content-Type: application/json` (a
// body-less answer of that type is not JSON, and validating proxies refuse it).

import { DOWNLOAD_TYPES } from './files.ts';
import { pretty } from './json.ts';
import { parametersOf } from './parameters.ts';
import type { Route } from './router.ts';

interface Metadata {
  name: string;
  description: string;
  renders: string[];
  parses: string[];
  parameters: string[];
}

const JSON_AND_HTML = ['application/json', 'text/html'];
const MODEL = { entries: 'Entry', categories: 'Category', topics: 'Topic' } as const;

function describe(r: Exclude<Route, { kind: 'unknown' }>): Omit<Metadata, 'parses'> {
  switch (r.kind) {
    case 'root':
      return {
        name: 'Api Root',
        description: 'Where the lists are.',
        renders: JSON_AND_HTML,
        parameters: ['format'],
      };
    case 'schema':
      return {
        name: 'Schema',
        description: 'The OpenAPI 3.1 document of this API.',
        renders: JSON_AND_HTML,
        parameters: ['format'],
      };
    case 'feed':
      return r.format === 'atom'
        ? {
            name: 'Atom Feed',
            description: 'The latest entries by date, newest first.',
            renders: ['application/atom+xml'],
            parameters: [],
          }
        : {
            name: 'JSON Feed',
            description: 'The latest entries by date, newest first.',
            renders: ['application/feed+json'],
            parameters: [],
          };
    case 'downloads':
      return {
        name: 'Download List',
        description: 'The whole data as files: each with its URL, media type, size and SHA-256.',
        renders: JSON_AND_HTML,
        parameters: ['format'],
      };
    case 'download':
      return {
        name: 'Download',
        description: 'A file of the whole data, served as it is.',
        renders: [DOWNLOAD_TYPES.get(r.name) ?? 'application/octet-stream'],
        parameters: [],
      };
    case 'list':
      return {
        name: `${MODEL[r.collection]} List`,
        description: `A page of ${r.collection}, 50 a page, in key order.`,
        renders: JSON_AND_HTML,
        // The parameter table's rows this list takes, in alphabetical order.
        parameters: parametersOf(r.collection)
          .map((p) => p.name)
          .sort(),
      };
    case 'detail':
      return {
        name: `${MODEL[r.collection]} Instance`,
        description: `One ${MODEL[r.collection].toLowerCase()}.`,
        renders: JSON_AND_HTML,
        parameters: ['format'],
      };
  }
}

/** The OPTIONS body of a known path. The API is read-only: it parses nothing. */
export function metadataBody(r: Exclude<Route, { kind: 'unknown' }>): string {
  const d = describe(r);
  const body: Metadata = {
    name: d.name,
    description: d.description,
    renders: d.renders,
    parses: [],
    parameters: d.parameters,
  };
  return pretty(body);
}
