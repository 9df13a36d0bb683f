// The parameter table (generator/core/parameters.ts) drives every place that names the lists'
// query parameters: a list's OPTIONS body, its OpenAPI operation and parameter objects, its page
// links' pattern, the HTML view's forms and `.json` link, and which parameters a request reads.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readContent, validate } from '../generator/content/load.ts';
import { SCHEMA_FILE } from '../generator/core/files.ts';
import { renderHtmlView } from '../generator/core/html-view.ts';
import { listQuery } from '../generator/core/lists.ts';
import { metadataBody } from '../generator/core/metadata.ts';
import { ALPHABETICAL, linkParametersOf, PARAMETERS, parametersOf } from '../generator/core/parameters.ts';
import type { Collection } from '../generator/core/types.ts';
import { renderSite } from '../generator/render/render-site.ts';

const CONTENT = join(import.meta.dirname, '..', 'content');
const COLLECTIONS: readonly Collection[] = ['entries', 'categories', 'topics'];
type Json = Record<string, unknown>;

let doc: Json = {};

beforeAll(async () => {
  const validated = validate(await readContent(CONTENT, { overrides: { apiOrigin: 'https://api.test' }, env: {} }));
  if (!validated.ok) throw new Error('the sample content does not validate');
  const file = renderSite(validated.model).find((f) => f.path === SCHEMA_FILE);
  doc = JSON.parse(file?.body as string) as Json;
});

const takes = (c: Collection) => parametersOf(c).map((p) => p.name);

describe('the parameter table', () => {
  it('names each parameter once, every list taking page and format', () => {
    const names = PARAMETERS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of COLLECTIONS) expect(takes(c)).toEqual(expect.arrayContaining(['format', 'page']));
    expect(ALPHABETICAL).toEqual([...names].sort());
  });

  it('is what OPTIONS says each list takes, in alphabetical order', () => {
    for (const c of COLLECTIONS) {
      const body = JSON.parse(metadataBody({ kind: 'list', collection: c } as never)) as { parameters: string[] };
      expect(body.parameters, c).toEqual([...takes(c)].sort());
    }
  });

  it('is what the OpenAPI document says each list takes, in the table order, with the row’s description', () => {
    const paths = doc.paths as Record<string, { get: { parameters: Array<{ $ref: string }> } }>;
    const components = (doc.components as Record<string, Record<string, Json>>).parameters as Record<string, Json>;
    for (const c of COLLECTIONS)
      for (const path of [`/api/v1/${c}`, `/api/v1/${c}.json`]) {
        const refs = paths[path]?.get.parameters.map((r) => r.$ref.slice('#/components/parameters/'.length));
        expect(refs, path).toEqual(takes(c));
      }
    for (const p of PARAMETERS) {
      expect(components[p.name]?.in, p.name).toBe('query');
      expect(components[p.name]?.description, p.name).toBe(p.openapi.description);
      expect(components[p.name]?.schema, p.name).toEqual(p.openapi.schema);
    }
  });

  it('gives the page links’ pattern: the list’s parameters in alphabetical order', () => {
    const schemas = (doc.components as Record<string, Record<string, Json>>).schemas as Record<string, Json>;
    const names = { entries: 'EntryPageURL', categories: 'CategoryPageURL', topics: 'TopicPageURL' } as const;
    for (const c of COLLECTIONS) {
      const linked = linkParametersOf(c).map(([name]) => name);
      expect(linked).toEqual([...linked].sort());
      expect(linked).toEqual(
        takes(c)
          .filter((n) => n !== 'format')
          .sort(),
      );
      const pattern = schemas[names[c]]?.pattern as string;
      const order = [...pattern.matchAll(/\(\?:&\?([a-z]+)=/g)].map((m) => m[1]);
      expect(order, c).toEqual(linked);
    }
  });

  it('gives the HTML view its form fields and the `.json` link its parameters, in the links’ order', () => {
    for (const c of ['entries', 'topics'] as const) {
      const query = Object.fromEntries(PARAMETERS.map((p) => [p.name, p.name === 'ordering' ? 'relevance' : 'x']));
      const html = renderHtmlView({
        status: 200,
        json: '{}',
        jsonHeaders: {},
        path: `/api/v1/${c}`,
        query: { ...query, format: '' },
        apiOrigin: 'https://api.test',
      });
      for (const p of PARAMETERS) {
        if (!('form' in p)) continue;
        // The list's own fields, and the date range kept by the search box of the entries only.
        const shown = html.includes(`name="${p.name}"`);
        expect(shown, `${c} ${p.name}`).toBe(takes(c).includes(p.name));
        if (shown && !html.includes(`type="hidden" name="${p.name}"`))
          expect(html, `${c} ${p.name}`).toContain(`<label for="${p.name}">${p.form.label}</label>`);
      }
      const link = /<a href="([^"]*\.json[^"]*)">the <code>\.json<\/code> address/.exec(html)?.[1] ?? '';
      const names = new URLSearchParams(link.replaceAll('&amp;', '&').split('?')[1]).keys();
      expect([...names], c).toEqual(ALPHABETICAL.filter((n) => n !== 'format'));
    }
  });

  it('is what a request reads: every row, the last occurrence of each, nothing else', () => {
    const params = new URLSearchParams([...PARAMETERS.map((p): [string, string] => [p.name, 'first']), ['other', 'x']]);
    for (const p of PARAMETERS) params.append(p.name, p.name);
    expect(listQuery(params)).toEqual(Object.fromEntries(PARAMETERS.map((p) => [p.name, p.name])));
  });
});
