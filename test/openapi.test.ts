// The OpenAPI document the build writes (generator/render/openapi.ts), for the sample content: a
// valid OpenAPI 3.1 document (swagger-parser), describing every path, parameter and error, every
// field of every record; every file the build writes validates against the schema of its path;
// the examples are the site's own answers; the checker the contract suite uses catches drift;
// the same content gives the same bytes, and the watch mode renders it again only when needed.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { readContent, validate } from '../generator/content/load.ts';
import { DOWNLOADS_FILE, FEED_FILES, SCHEMA_FILE } from '../generator/core/files.ts';
import type { Model } from '../generator/core/model.ts';
import { RenderMemo } from '../generator/render/render-memo.ts';
import { renderSite } from '../generator/render/render-site.ts';
import { openApiAjv, openApiChecker } from './contract/openapi-check.ts';
import { CONTRACT_HEADERS } from './contract/suite.ts';
import { readServed, readTree } from './helpers/files.ts';
import { tempDir } from './helpers/temp.ts';

const CONTENT = join(import.meta.dirname, '..', 'content');
const ORIGIN = 'https://api.example.test';
type Json = Record<string, unknown>;

let publicDir = '';
let text = '';
let doc: Json = {};

beforeAll(async () => {
  publicDir = join(tempDir('pepys-openapi-'), 'public');
  await build({ contentDir: CONTENT, outDir: publicDir, quiet: true, overrides: { apiOrigin: ORIGIN }, env: {} });
  text = readFileSync(join(publicDir, SCHEMA_FILE), 'utf8');
  doc = JSON.parse(text) as Json;
});

const components = () => doc.components as Record<string, Record<string, Json>>;

/** Every file under the output's api/ directory, relative to the output. */
/** A response of the document, its reference followed. */
function resolveRef(r: unknown): unknown {
  const $ref = (r as { $ref?: string }).$ref;
  if ($ref === undefined) return r;
  return $ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], doc);
}

/** The schema a built file must validate against, by where the build writes it. */
function schemaOf(file: string): string {
  if (file === 'api/v1/index.json') return 'Root';
  if (file === SCHEMA_FILE) return 'OpenAPI';
  if (file === DOWNLOADS_FILE) return 'DownloadList';
  const m = /^api\/v1\/(entries|categories|topics)\/(.+)\.json$/.exec(file);
  if (m === null) throw new Error(`unexpected file ${file}`);
  const list = { entries: 'EntryList', categories: 'CategoryList', topics: 'TopicList' }[m[1] as 'entries'];
  const detail = { entries: 'Entry', categories: 'Category', topics: 'Topic' }[m[1] as 'entries'];
  return (m[2] as string).includes('pages/') ? list : detail;
}

describe('the OpenAPI document of the sample build', () => {
  it('is a valid OpenAPI 3.1 document (swagger-parser), served from the configured API origin', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: ORIGIN, description: 'This site' }]);
    expect(text).toBe(JSON.stringify(doc, null, 2));
  });

  it('describes every path, in every spelling, with its parameters and every error', () => {
    const paths = doc.paths as Record<
      string,
      Record<string, { parameters?: Array<{ $ref: string }>; responses: Record<string, unknown> }>
    >;
    expect(Object.keys(paths).sort()).toEqual(
      [
        '/api/v1',
        '/api/v1.json',
        '/api/v1/downloads',
        '/api/v1/downloads.json',
        '/api/v1/downloads/{name}',
        '/api/v1/schema',
        '/api/v1/schema.json',
        '/api/v1/entries',
        '/api/v1/entries.json',
        '/api/v1/entries/{date}',
        '/api/v1/entries/{date}.json',
        '/api/v1/categories',
        '/api/v1/categories.json',
        '/api/v1/categories/{slug}',
        '/api/v1/categories/{slug}.json',
        '/api/v1/topics',
        '/api/v1/topics.json',
        '/api/v1/topics/{id}',
        '/api/v1/topics/{id}.json',
        '/api/v1/feeds/atom',
        '/api/v1/feeds/json',
      ].sort(),
    );
    const refs = (xs: Array<{ $ref: string }> | undefined) => (xs ?? []).map((x) => x.$ref.split('/').at(-1));
    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries(paths)) {
      const get = item.get as { parameters?: Array<{ $ref: string }>; responses: Record<string, unknown> };
      const statuses = Object.keys(get.responses).sort();
      if (path === '/api/v1/downloads/{name}') {
        // A static file on the CDNs: GET and HEAD only, no `format`.
        expect(refs(item.parameters as unknown as Array<{ $ref: string }>), path).toEqual(['name']);
        expect(statuses, path).toEqual(['200', '304', '404', '503']);
        expect(Object.keys(item).sort(), path).toEqual(['get', 'head', 'parameters']);
      } else if (/\/entries(\.json)?$/.test(path)) {
        expect(refs(get.parameters), path).toEqual([
          'format',
          'page',
          'start',
          'end',
          'topic',
          'day',
          'search',
          'ordering',
        ]);
        expect(statuses, path).toEqual(['200', '304', '400', '404', '503']);
      } else if (/\/topics(\.json)?$/.test(path)) {
        expect(refs(get.parameters), path).toEqual(['format', 'page', 'kind', 'category', 'search', 'ordering']);
        expect(statuses, path).toEqual(['200', '304', '400', '404', '503']);
      } else if (/\/categories(\.json)?$/.test(path)) {
        expect(refs(get.parameters), path).toEqual(['format', 'page']);
        expect(statuses, path).toEqual(['200', '304', '404', '503']);
      } else if (path.includes('{')) {
        expect(refs(item.parameters as unknown as Array<{ $ref: string }>), path).toEqual([
          /\{(\w+)\}/.exec(path)?.[1],
        ]);
        expect(statuses, path).toEqual(['200', '304', '404', '503']);
      } else {
        // `format` of anything but json or api is a 404 on every path.
        expect(refs(get.parameters), path).toEqual(['format']);
        expect(statuses, path).toEqual(['200', '304', '404', '503']);
      }
      if (path !== '/api/v1/downloads/{name}') {
        expect(
          Object.keys(item).filter((k) => k !== 'parameters'),
          path,
        ).toEqual(['get', 'head', 'options']);
        expect(refs((item.options as { parameters?: Array<{ $ref: string }> }).parameters), path).toEqual(['format']);
      }
      // The refused methods are said in the document's description, not offered as operations.
      for (const method of ['post', 'put', 'patch', 'delete'])
        expect(item[method], `${method} ${path}`).toBeUndefined();
      for (const [method, op] of Object.entries(item)) {
        if (method === 'parameters') continue;
        const o = op as unknown as { operationId: string; description: string; summary: string };
        expect(o.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
        expect(operationIds.has(o.operationId), o.operationId).toBe(false);
        operationIds.add(o.operationId);
        expect(o.description.length, `${method} ${path}`).toBeGreaterThan(20);
      }
      // JSON only: the HTML page is described in words, so that generated clients stay JSON-typed.
      for (const r of Object.values(get.responses)) {
        const response = resolveRef(r) as { content?: Record<string, unknown> };
        expect(Object.keys(response.content ?? {}), path).not.toContain('text/html');
      }
    }
    expect(doc.security).toEqual([]);
    expect((doc.info as { description: string }).description).toContain('405 Method Not Allowed');
    const parameters = components().parameters as Record<string, { schema: Json; in: string }>;
    expect(parameters.date?.schema).toEqual({ $ref: '#/components/schemas/Date' });
    expect(parameters.id?.schema).toMatchObject({ type: 'integer' });
    expect(components().headers?.['Access-Control-Allow-Origin']).toMatchObject({
      required: true,
      schema: { const: '*' },
    });
  });

  it('has a schema for every record with exactly its fields, all required, with types, nullability and formats', () => {
    const schemas = components().schemas as Record<
      string,
      { properties: Record<string, Json>; required: string[]; additionalProperties: boolean }
    >;
    const read = (file: string) => JSON.parse(readServed(publicDir, file) as string) as Json;
    const entries = read('api/v1/entries/pages/1.json') as { results: Json[] };
    const firstDate = entries.results[0]?.date as string;
    const samples: Record<string, Json> = {
      Root: read('api/v1/index.json'),
      EntryItem: entries.results[0] as Json,
      Entry: read(`api/v1/entries/${firstDate}.json`),
      CategoryItem: (read('api/v1/categories/pages/1.json') as { results: Json[] }).results[0] as Json,
      TopicItem: (read('api/v1/topics/pages/1.json') as { results: Json[] }).results[0] as Json,
    };
    samples.Category = read(`api/v1/categories/${samples.CategoryItem?.slug as string}.json`);
    samples.Topic = read(`api/v1/topics/${samples.TopicItem?.id as number}.json`);
    for (const [name, sample] of Object.entries(samples)) {
      const schema = schemas[name];
      // Items of entries and topics also have `snippet`, in search answers only: not required.
      const searched = name === 'EntryItem' || name === 'TopicItem' ? ['snippet'] : [];
      expect(Object.keys(schema?.properties ?? {}), name).toEqual([...Object.keys(sample), ...searched]);
      expect(schema?.required, name).toEqual(Object.keys(sample));
      expect(schema?.additionalProperties, name).toBe(false);
    }
    expect(schemas.Entry?.properties.lastAnnotationTime).toMatchObject({
      anyOf: [{ $ref: '#/components/schemas/Timestamp' }, { type: 'null' }],
    });
    expect(schemas.Topic?.properties.latitude).toMatchObject({ anyOf: [{ type: 'number' }, { type: 'null' }] });
    expect(schemas.Topic?.properties.kind).toMatchObject({ enum: ['person', 'place', 'default'] });
    expect(schemas.Date).toMatchObject({ type: 'string', format: 'date' });
    expect(schemas.Timestamp).toMatchObject({ type: 'string', format: 'date-time' });
    expect(schemas.EntryURL).toMatchObject({
      format: 'uri',
      pattern: `^https://api\\.example\\.test/api/v1/entries/[0-9]{4}-[0-9]{2}-[0-9]{2}$`,
    });
    expect(schemas.Error?.required).toEqual(['detail', 'status_code']);
  });

  it('validates every file the build writes against the schema of its path, and every example against its response', () => {
    const { compile } = openApiAjv(doc);
    // The files under api/, and the details read out of their packs by their files' names.
    const tree = readTree(publicDir);
    const files = [...tree.keys()].filter((file) => file.startsWith('api/'));
    expect(files.length).toBeGreaterThan(300);
    const responses = components().responses as Record<string, { content: Record<string, { schema: Json }> }>;
    for (const file of files) {
      if (file === FEED_FILES.atom) continue; // XML: test/feeds.test.ts reads it with a feed parser
      if (/\.(gz|sqlite)$/.test(file)) continue; // binary: test/downloads.test.ts reads them
      const validate = compile(
        file === FEED_FILES.json
          ? responses.JsonFeed?.content['application/feed+json']?.schema
          : { $ref: `#/components/schemas/${schemaOf(file)}` },
      );
      const ok = validate(JSON.parse(tree.get(file) as string));
      expect(ok, `${file}: ${JSON.stringify(validate.errors?.slice(0, 2))}`).toBe(true);
    }
    let examples = 0;
    for (const [name, response] of Object.entries(
      components().responses as Record<
        string,
        { content?: Record<string, { schema: Json; examples?: Record<string, { value: unknown }> }> }
      >,
    )) {
      const json = response.content?.['application/json'];
      for (const [key, example] of Object.entries(json?.examples ?? {})) {
        const validate = compile(json?.schema);
        expect(validate(example.value), `${name} ${key}: ${JSON.stringify(validate.errors?.slice(0, 2))}`).toBe(true);
        examples++;
      }
    }
    expect(examples).toBeGreaterThanOrEqual(13);
  });

  it('takes its examples from the build: the first record of each kind, the first page of each list', () => {
    const responses = components().responses as Record<
      string,
      { content: Record<string, { examples: Record<string, { value: unknown }> }> }
    >;
    const example = (name: string) =>
      Object.values(responses[name]?.content['application/json']?.examples ?? {})[0]?.value;
    const read = (file: string) => JSON.parse(readServed(publicDir, file) as string) as unknown;
    expect(example('Root')).toEqual(read('api/v1/index.json'));
    expect(example('EntryList')).toEqual(read('api/v1/entries/pages/1.json'));
    expect(example('CategoryList')).toEqual(read('api/v1/categories/pages/1.json'));
    expect(example('TopicList')).toEqual(read('api/v1/topics/pages/1.json'));
    const first = (example('EntryList') as { results: Array<{ date: string }> }).results[0]?.date as string;
    expect(example('Entry')).toEqual(read(`api/v1/entries/${first}.json`));
    const parameters = components().parameters as Record<string, { example: unknown }>;
    expect(parameters.date?.example).toBe(first);
  });

  it('lets the contract suite’s checker catch an answer that drifts from it', () => {
    const checker = openApiChecker(doc);
    const headers = new Headers({
      ...CONTRACT_HEADERS,
      'cache-control': 'public, max-age=0, must-revalidate',
      etag: '"0"',
    });
    const entry = JSON.parse(readServed(publicDir, 'api/v1/entries/1660-01-01.json') as string) as Json;
    const url = `${ORIGIN}/api/v1/entries/1660-01-01`;
    const check = (body: unknown, h = headers, status = 200, at = url) =>
      checker.check('GET', at, status, h, JSON.stringify(body));
    expect(check(entry)).toEqual([]);
    const { footnotesHTML: _, ...missing } = entry;
    const drifts: Array<[string, unknown]> = [
      ['an extra field', { ...entry, extra: 1 }],
      ['a missing field', missing],
      ['a string count', { ...entry, annotationCount: '3' }],
      ['a null title', { ...entry, title: null }],
      ['a date that is no date', { ...entry, date: '1660-02-30' }],
      ['a timestamp with milliseconds', { ...entry, lastModifiedTime: '2026-01-01T00:00:00.000Z' }],
      ['a link to another origin', { ...entry, apiURL: 'https://elsewhere.test/api/v1/entries/1660-01-01' }],
      ['a topic link that is an entry link', { ...entry, topics: [`${ORIGIN}/api/v1/entries/1660-01-02`] }],
    ];
    for (const [what, body] of drifts) expect(check(body), what).not.toEqual([]);
    const noCors = new Headers(headers);
    noCors.delete('access-control-allow-origin');
    expect(check(entry, noCors).join()).toMatch(/Access-Control-Allow-Origin/);
    const sniffing = new Headers(headers);
    sniffing.set('x-content-type-options', 'sniff');
    expect(check(entry, sniffing)).not.toEqual([]);
    expect(check({ detail: 'x', status_code: 404 }, headers, 418).join()).toMatch(/no 418 response/);
    expect(check({ detail: 'Not found.', status_code: 400 }, headers, 404, `${ORIGIN}/api/v1/nothing`)).not.toEqual([]);
    // A method the document does not offer: only the 405 with the error body conforms.
    expect(checker.check('TRACE', url, 200, headers, '{"detail": "x", "status_code": 200}').join()).toMatch(/no TRACE/);
    expect(checker.check('TRACE', url, 405, headers, '{"detail": "x", "status_code": 404}').join()).toMatch(
      /error body/,
    );
    expect(checker.check('TRACE', url, 405, headers, '{"detail": "x", "status_code": 405}')).toEqual([]);
  });
});

describe('rendering the document', () => {
  async function model(): Promise<Model> {
    const validated = validate(await readContent(CONTENT, { overrides: { apiOrigin: ORIGIN }, env: {} }));
    if (!validated.ok) throw new Error('the sample content does not validate');
    return validated.model;
  }

  it('is byte-identical from the same content, and the build writes what it renders', async () => {
    const a = renderSite(await model()).find((f) => f.path === SCHEMA_FILE)?.body;
    const b = renderSite(await model()).find((f) => f.path === SCHEMA_FILE)?.body;
    expect(a).toBeDefined();
    expect(a).toBe(b);
    expect(a).toBe(text);
  });

  it('is rendered again by the watch mode only when something it shows changed', async () => {
    const m = await model();
    const memo = new RenderMemo();
    const schema = () => renderSite(m, memo).find((f) => f.path === SCHEMA_FILE)?.body as string;
    const first = schema();
    // Nothing changed: the very same string, not rendered again.
    expect(Object.is(schema(), first)).toBe(true);
    // An entry that is not the first one, nor on the first page: the document does not change.
    const late = m.entries.at(-1);
    if (late !== undefined) m.entries[m.entries.length - 1] = { ...late, entryHTML: `${late.entryHTML}<p>more</p>` };
    expect(Object.is(schema(), first)).toBe(true);
    // The first entry changes: so does its example.
    const [entry] = m.entries;
    if (entry !== undefined) m.entries[0] = { ...entry, entryHTML: '<p>Changed.</p>' };
    const changed = schema();
    expect(changed).not.toBe(first);
    expect(changed).toContain('<p>Changed.</p>');
    // What the memo gives is what a render without one gives.
    expect(changed).toBe(renderSite(m).find((f) => f.path === SCHEMA_FILE)?.body);
  });
});
