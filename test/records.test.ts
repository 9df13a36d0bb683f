// The one description of each record (generator/core/record-fields.ts): in the contract's order
// (shared/API.md, "Records (fields in this order)"), and followed by everything made of it: the
// records the builders make, the OpenAPI document's schemas, the SQLite tables' columns and the
// NDJSON lines of the downloads, the fields a content file may give.

import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../generator/content/load.ts';
import { SCHEMA_FILE } from '../generator/core/files.ts';
import type { Model } from '../generator/core/model.ts';
import {
  CATEGORY,
  CATEGORY_FILE_KEYS,
  type Description,
  DOWNLOAD,
  ENTRY,
  ENTRY_FILE_KEYS,
  ERROR,
  fieldsOf,
  itemFieldsOf,
  ROOT,
  TOPIC,
  TOPIC_FILE_KEYS,
} from '../generator/core/record-fields.ts';
import {
  categoryDetail,
  categoryItem,
  entryDetail,
  entryItem,
  entryItemOf,
  originsOf,
  root,
  topicDetail,
  topicItem,
  topicItemOf,
} from '../generator/core/records.ts';
import { downloadFiles } from '../generator/render/downloads.ts';
import { CONTRACT } from './contract/field-order.ts';
import { entryFile, problemsOf, smallSite } from './helpers/content.ts';
import { renderedSite } from './helpers/rendered.ts';

/** A description's fields that are one cell: its table's columns. */
const cells = (d: Description) => fieldsOf(d).filter((k) => d[k]?.type !== 'array');

let model: Model;

beforeAll(async () => {
  ({ model } = await loadContent(fileURLToPath(new URL('../content', import.meta.url))));
});

describe('the description of each record', () => {
  it('lists its fields in the order of the contract, its list item the head of its detail', () => {
    expect(fieldsOf(ENTRY)).toEqual(CONTRACT.entryDetail);
    expect(itemFieldsOf(ENTRY)).toEqual(CONTRACT.entryItem);
    expect(fieldsOf(CATEGORY)).toEqual(CONTRACT.categoryDetail);
    expect(itemFieldsOf(CATEGORY)).toEqual(CONTRACT.categoryItem);
    expect(fieldsOf(TOPIC)).toEqual(CONTRACT.topicDetail);
    expect(itemFieldsOf(TOPIC)).toEqual(CONTRACT.topicItem);
    expect(fieldsOf(ROOT)).toEqual(CONTRACT.root);
    expect(fieldsOf(ERROR)).toEqual(CONTRACT.error);
    expect(fieldsOf(DOWNLOAD)).toEqual(CONTRACT.download);
  });

  it('is the order of the records the builders make', () => {
    const o = originsOf(model);
    const [e, c, t] = [model.entries[0], model.categories[0], model.topics[0]];
    if (e === undefined || c === undefined || t === undefined) throw new Error('the sample has records');
    expect(Object.keys(entryItem(o, e))).toEqual(CONTRACT.entryItem);
    expect(Object.keys(entryDetail(o, e))).toEqual(CONTRACT.entryDetail);
    expect(Object.keys(entryItemOf(entryDetail(o, e)))).toEqual(CONTRACT.entryItem);
    expect(entryItemOf(entryDetail(o, e))).toEqual(entryItem(o, e));
    expect(Object.keys(categoryItem(o, model, c))).toEqual(CONTRACT.categoryItem);
    expect(Object.keys(categoryDetail(o, model, c))).toEqual(CONTRACT.categoryDetail);
    expect(Object.keys(topicItem(o, t))).toEqual(CONTRACT.topicItem);
    expect(Object.keys(topicDetail(o, model, t))).toEqual(CONTRACT.topicDetail);
    expect(topicItemOf(topicDetail(o, model, t))).toEqual(topicItem(o, t));
    expect(Object.keys(root(o.apiOrigin))).toEqual(CONTRACT.root);
  });

  it('is the OpenAPI document’s schema of each record, field for field', () => {
    const { files } = renderedSite(model);
    const doc = JSON.parse(new TextDecoder().decode(files.get(SCHEMA_FILE)));
    const schemas: Record<string, { required: string[]; properties: Record<string, unknown> }> = doc.components.schemas;
    const fields = (name: string) => Object.keys(schemas[name]?.properties ?? {});
    for (const [name, keys] of [
      ['Entry', CONTRACT.entryDetail],
      ['Category', CONTRACT.categoryDetail],
      ['CategoryItem', CONTRACT.categoryItem],
      ['Topic', CONTRACT.topicDetail],
      ['Root', CONTRACT.root],
      ['Error', CONTRACT.error],
      ['Download', CONTRACT.download],
    ] as const) {
      expect(fields(name), name).toEqual(keys);
      expect(schemas[name]?.required, name).toEqual(keys);
    }
    // A list item of a search answer also has its snippet.
    expect(fields('EntryItem')).toEqual([...CONTRACT.entryItem, 'snippet']);
    expect(fields('TopicItem')).toEqual([...CONTRACT.topicItem, 'snippet']);
    // A nullable field is said so; a list of links is an array of the addresses.
    expect(schemas.Topic?.properties.wikipediaURL).toEqual({
      anyOf: [{ type: 'string', description: 'Its Wikipedia article.' }, { type: 'null' }],
    });
    expect(schemas.Entry?.properties.topics).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/TopicURL' },
    });
  });

  it('gives the SQLite tables their columns and the NDJSON lines their fields, in its order', async () => {
    const { files, list } = downloadFiles(model);
    // The listing's every file, field by field.
    for (const d of JSON.parse(list.body).downloads) expect(Object.keys(d)).toEqual(CONTRACT.download);
    const body = (name: string) => files.find((f) => f.path.endsWith(`/${name}`))?.body as Uint8Array;
    const SQL = await initSqlJs();
    const db = new SQL.Database(body('diary.sqlite'));
    try {
      const columns = (table: string) =>
        (db.exec(`PRAGMA table_info(${table})`)[0]?.values ?? []).map((row) => [row[1], row[2], row[3]]);
      const expected = (d: Description) =>
        cells(d).map((k) => [
          k,
          d[k]?.type === 'string' ? 'TEXT' : d[k]?.type === 'integer' ? 'INTEGER' : 'REAL',
          d[k]?.nullable ? 0 : 1,
        ]);
      expect(columns('entries')).toEqual(expected(ENTRY));
      expect(columns('topics')).toEqual(expected(TOPIC));
      // A category's parent is a column of its own, after its depth.
      const category = expected(CATEGORY);
      category.splice(4, 0, ['parent', 'TEXT', 0]);
      expect(columns('categories')).toEqual(category);
    } finally {
      db.close();
    }
    for (const [name, keys] of [
      ['entries.ndjson.gz', CONTRACT.entryDetail],
      ['categories.ndjson.gz', CONTRACT.categoryDetail],
      ['topics.ndjson.gz', CONTRACT.topicDetail],
    ] as const) {
      const [first] = gunzipSync(body(name)).toString().split('\n');
      expect(Object.keys(JSON.parse(first as string)), name).toEqual(keys);
    }
  });

  it('names the fields a content file may give, and each is read and checked as described', async () => {
    const given = (d: Description) => fieldsOf(d).filter((k) => d[k]?.file === true);
    expect(given(ENTRY).every((k) => (ENTRY_FILE_KEYS as readonly string[]).includes(k))).toBe(true);
    expect(given(TOPIC).every((k) => (TOPIC_FILE_KEYS as readonly string[]).includes(k))).toBe(true);
    // A category's own: its key, name and parent.
    expect(CATEGORY_FILE_KEYS).toEqual(['slug', 'title', 'parent']);
    const site = smallSite();
    site['entries/1660/1660-01-01.html'] = entryFile(
      '1660-01-01',
      'lastAnnotationTime: yesterday\nannotationCount: -1\nrating: 5\n',
    );
    const messages = (await problemsOf(site)).map((p) => p.message);
    expect(messages).toEqual([
      '"lastAnnotationTime" must be a UTC timestamp written YYYY-MM-DDTHH:MM:SSZ, not string "yesterday"',
      '"annotationCount" must be a whole number, 0 or more, not number -1',
      `unknown field "rating" (known: ${ENTRY_FILE_KEYS.join(', ')})`,
    ]);
  });
});
