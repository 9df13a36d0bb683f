// The OpenAPI 3.1 document of the API, served at /api/v1/schema: rendered by the build from the
// same descriptions of the records (core/record-fields.ts: a field added there is described
// here), the same configuration (the origins, the page size, the headers, the error messages) and
// the same model (the examples are the first records and first list pages of this very build).
// Clients can generate code from it; the contract tests validate every body they see against it,
// so it cannot drift from the answers. Its parts: openapi-schemas.ts, openapi-responses.ts,
// openapi-parameters.ts, openapi-paths.ts; here, the examples and the whole document.

import { SCHEMA_FILE } from '../core/files.ts';
import { pretty } from '../core/json.ts';
import { openApiLicense } from '../core/license.ts';
import { pagePlan, pagePositions, renderPage, wholeList } from '../core/lists.ts';
import type { Model } from '../core/model.ts';
import { categoryDetail, entryDetail, type Origins, originsOf, root, topicDetail } from '../core/records.ts';
import type { Collection } from '../core/types.ts';
import { collectionURL } from '../core/urls.ts';
import type { FragmentList } from './fragment-list.ts';
import { parameters } from './openapi-parameters.ts';
import { paths } from './openapi-paths.ts';
import { type Examples, headers, responses } from './openapi-responses.ts';
import { type Doc, schemas } from './openapi-schemas.ts';
import type { RenderMemo } from './render-memo.ts';

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
      schemas: schemas(o, config),
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
