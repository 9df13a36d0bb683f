// The whole data as files, for whoever wants everything at once (as Datasette hands out its
// database): each collection as gzip'ed NDJSON (one record's detail a line, in the list's order)
// and one SQLite database of everything, with full-text search. Listed, with size and SHA-256, at
// /api/v1/downloads; served as they are, never re-encoded (core/answer.ts).
//
// The database is written by sql.js, SQLite compiled to WebAssembly: no native build on any
// Node, and the same engine (pinned by the lock file) on every machine, so the same content gives
// the same bytes. Its build has FTS3/4, not FTS5: the text is indexed with FTS4's porter tokenizer.

import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import initSqlJs, { type Database } from 'sql.js';
import { DOWNLOAD_PATHS, DOWNLOAD_TYPES, DOWNLOADS_FILE, downloadFile, STATIC_HEADERS_FILE } from '../core/files.ts';
import { API_HEADERS } from '../core/headers.ts';
import { pretty } from '../core/json.ts';
import type { Model } from '../core/model.ts';
import { categoryDetail, entryDetail, type Origins, originsOf, topicDetail } from '../core/records.ts';
import { entryFields, topicFields } from '../core/search/documents.ts';
import type { CategoryDetail, Download, DownloadList, EntryDetail, TopicDetail } from '../core/types.ts';

const SQL = await initSqlJs();

/** A file of the site whose body is bytes rather than text. */
export interface BinaryFile {
  path: string;
  body: Uint8Array;
}

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  'entries.ndjson.gz': "Every entry's detail, one JSON object a line, by date; gzip'ed.",
  'categories.ndjson.gz': "Every category's detail, one JSON object a line, by slug; gzip'ed.",
  'topics.ndjson.gz': "Every topic's detail, one JSON object a line, by id; gzip'ed.",
  'diary.sqlite':
    'A SQLite 3 database of everything: tables entries, categories, topics, entry_topics and topic_categories, full-text tables entries_fts and topics_fts (FTS4, porter).',
};

function ndjson(records: Iterable<unknown>): Uint8Array {
  // Each line made bytes on its own, the lines joined once: never one string of the whole
  // collection, which was held twice over while it was made bytes (at ten times the encyclopedia,
  // its topics' 74 MB of text cost 140 MB more at the build's peak).
  const lines: Buffer[] = [];
  for (const r of records) lines.push(Buffer.from(`${JSON.stringify(r)}\n`));
  // Level 9, no name, mtime 0: the same records give the same bytes.
  return gzipSync(Buffer.concat(lines), { level: 9 });
}

/** The schema: the columns are the fields of each detail; its lists of links become tables. */
const SCHEMA = `
CREATE TABLE entries (
  date TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, entryHTML TEXT NOT NULL, footnotesHTML TEXT NOT NULL,
  annotationCount INTEGER NOT NULL, lastAnnotationTime TEXT, lastModifiedTime TEXT NOT NULL,
  apiURL TEXT NOT NULL, webURL TEXT NOT NULL);
CREATE TABLE categories (
  slug TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, topicCount INTEGER NOT NULL, depth INTEGER NOT NULL,
  parent TEXT REFERENCES categories (slug), apiURL TEXT NOT NULL, webURL TEXT NOT NULL);
CREATE TABLE topics (
  id INTEGER PRIMARY KEY NOT NULL, title TEXT NOT NULL, orderTitle TEXT NOT NULL, wheatleyHTML TEXT NOT NULL,
  tooltipText TEXT NOT NULL, wikipediaURL TEXT, thumbnailURL TEXT, annotationCount INTEGER NOT NULL,
  lastAnnotationTime TEXT, kind TEXT NOT NULL, latitude REAL, longitude REAL, zoom REAL, shape TEXT NOT NULL,
  lastModifiedTime TEXT NOT NULL, apiURL TEXT NOT NULL, webURL TEXT NOT NULL);
CREATE TABLE entry_topics (
  entry TEXT NOT NULL REFERENCES entries (date), topic INTEGER NOT NULL REFERENCES topics (id),
  PRIMARY KEY (entry, topic)) WITHOUT ROWID;
CREATE INDEX entry_topics_by_topic ON entry_topics (topic, entry);
CREATE TABLE topic_categories (
  topic INTEGER NOT NULL REFERENCES topics (id), category TEXT NOT NULL REFERENCES categories (slug),
  PRIMARY KEY (topic, category)) WITHOUT ROWID;
CREATE INDEX topic_categories_by_category ON topic_categories (category, topic);
-- Text content (tags stripped, entities decoded), as the API's search reads it; docid is the
-- rowid of the record (entries.rowid, topics.id).
CREATE VIRTUAL TABLE entries_fts USING fts4 (content="", title, text, notes, tokenize=porter);
CREATE VIRTUAL TABLE topics_fts USING fts4 (content="", title, text, notes, tokenize=porter);
`;

type Cell = string | number | null;
/** The fields of a record whose values are one cell: the columns a table can take from it. */
type CellKeys<T> = { [K in keyof T]-?: T[K] extends Cell ? K : never }[keyof T];

function insertAll(db: Database, sql: string, rows: Iterable<readonly Cell[]>): void {
  const statement = db.prepare(sql);
  try {
    for (const row of rows) statement.run([...row]);
  } finally {
    statement.free();
  }
}

/** Inserts each record's `columns` (fields of its detail, by the same names) into `table`. */
function insertRecords<T>(
  db: Database,
  table: string,
  columns: ReadonlyArray<CellKeys<T>>,
  records: readonly T[],
  extra: { column: string; values: readonly Cell[] } | null = null,
): void {
  const names = [...columns.map(String), ...(extra === null ? [] : [extra.column])];
  insertAll(
    db,
    `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    records.map((r, i) => [...columns.map((c) => r[c] as Cell), ...(extra === null ? [] : [extra.values[i] ?? null])]),
  );
}

const ENTRY_COLUMNS: ReadonlyArray<CellKeys<EntryDetail>> = [
  'date',
  'title',
  'entryHTML',
  'footnotesHTML',
  'annotationCount',
  'lastAnnotationTime',
  'lastModifiedTime',
  'apiURL',
  'webURL',
];
const CATEGORY_COLUMNS: ReadonlyArray<CellKeys<CategoryDetail>> = [
  'slug',
  'title',
  'topicCount',
  'depth',
  'apiURL',
  'webURL',
];
const TOPIC_COLUMNS: ReadonlyArray<CellKeys<TopicDetail>> = [
  'id',
  'title',
  'orderTitle',
  'wheatleyHTML',
  'tooltipText',
  'wikipediaURL',
  'thumbnailURL',
  'annotationCount',
  'lastAnnotationTime',
  'kind',
  'latitude',
  'longitude',
  'zoom',
  'shape',
  'lastModifiedTime',
  'apiURL',
  'webURL',
];

/** Every record's detail, as the API gives it, in the lists' order. */
interface Details {
  entries: EntryDetail[];
  categories: CategoryDetail[];
  topics: TopicDetail[];
}

function database(model: Model, d: Details): Uint8Array {
  const db = new SQL.Database();
  try {
    // Temporary tables (VACUUM's copy) in SQLite's memory, not in files of the emulated file system,
    // which grow by copying: the same database, made faster and in less memory.
    db.run('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;');
    db.run(SCHEMA);
    db.run('BEGIN');
    insertRecords(db, 'entries', ENTRY_COLUMNS, d.entries);
    insertAll(
      db,
      'INSERT INTO entries_fts (docid, title, text, notes) VALUES (?, ?, ?, ?)',
      d.entries.map((e, i) => [i + 1, ...entryFields(e)]),
    );
    // A category's links to its ancestors become its parent's slug.
    const parents = { column: 'parent', values: model.categories.map((c) => c.parent) };
    insertRecords(db, 'categories', CATEGORY_COLUMNS, d.categories, parents);
    insertRecords(db, 'topics', TOPIC_COLUMNS, d.topics);
    insertAll(
      db,
      'INSERT INTO topics_fts (docid, title, text, notes) VALUES (?, ?, ?, ?)',
      d.topics.map((t) => [t.id, ...topicFields(t)]),
    );
    insertAll(
      db,
      'INSERT INTO entry_topics VALUES (?, ?)',
      model.entries.flatMap((e) => e.topicIds.map((id) => [e.date, id])),
    );
    insertAll(
      db,
      'INSERT INTO topic_categories VALUES (?, ?)',
      model.topics.flatMap((t) => t.categorySlugs.map((s) => [t.id, s])),
    );
    db.run('COMMIT');
    // Each full-text index as one b-tree segment: smaller, and faster to search.
    db.run("INSERT INTO entries_fts (entries_fts) VALUES ('optimize')");
    db.run("INSERT INTO topics_fts (topics_fts) VALUES ('optimize')");
    db.run('VACUUM');
    return db.export();
  } finally {
    db.close();
  }
}

/** The whole-data files, by name, in the order the list gives them. */
function downloadBodies(model: Model): Map<string, Uint8Array> {
  const o: Origins = originsOf(model);
  // Each detail made once, for its NDJSON line and its row.
  const d: Details = {
    entries: model.entries.map((e) => entryDetail(o, e)),
    categories: model.categories.map((c) => categoryDetail(o, model, c)),
    topics: model.topics.map((t) => topicDetail(o, model, t)),
  };
  return new Map([
    ['entries.ndjson.gz', ndjson(d.entries)],
    ['categories.ndjson.gz', ndjson(d.categories)],
    ['topics.ndjson.gz', ndjson(d.topics)],
    ['diary.sqlite', database(model, d)],
  ]);
}

/**
 * The headers Netlify and Cloudflare add to the downloads, which they serve as static files (the
 * `_headers` file both read from the published directory): the media type the list names, and the
 * API's CORS and nosniff headers, so that a page on any origin may fetch them as it fetches the API.
 */
export function staticHeadersFile(): { path: string; body: string } {
  let body = '# Written by the build (render/downloads.ts): the headers of the files the CDN serves itself.\n';
  for (const path of DOWNLOAD_PATHS) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    body += `${path}\n`;
    body += `  Content-Type: ${DOWNLOAD_TYPES.get(name)}\n`;
    for (const h of ['Access-Control-Allow-Origin', 'Access-Control-Expose-Headers', 'X-Content-Type-Options'] as const)
      body += `  ${h}: ${API_HEADERS[h]}\n`;
  }
  return { path: STATIC_HEADERS_FILE, body };
}

/** The whole-data files and their list. */
export function downloadFiles(model: Model): { files: BinaryFile[]; list: { path: string; body: string } } {
  const bodies = downloadBodies(model);
  const downloads: Download[] = [...bodies].map(([name, body]) => ({
    name,
    description: DESCRIPTIONS[name] ?? '',
    url: `${model.config.apiOrigin}/${downloadFile(name)}`,
    mediaType: DOWNLOAD_TYPES.get(name) ?? 'application/octet-stream',
    bytes: body.length,
    sha256: createHash('sha256').update(body).digest('hex'),
  }));
  const list: DownloadList = { downloads };
  return {
    files: [...bodies].map(([name, body]) => ({ path: downloadFile(name), body })),
    list: { path: DOWNLOADS_FILE, body: pretty(list) },
  };
}
