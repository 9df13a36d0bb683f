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
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { DOWNLOAD_PATHS, DOWNLOAD_TYPES, DOWNLOADS_FILE, downloadFile, STATIC_HEADERS_FILE } from '../core/files.ts';
import { API_HEADERS } from '../core/headers.ts';
import { pretty } from '../core/json.ts';
import type { Category, Entry, Model, Topic } from '../core/model.ts';
import { categoryDetail, entryDetail, type Origins, originsOf, topicDetail } from '../core/records.ts';
import { entryFields, topicFields } from '../core/search/documents.ts';
import type { Download, DownloadList } from '../core/types.ts';
import {
  CATEGORY_COLUMNS,
  ENTRY_COLUMNS,
  insertRecords,
  insertRows,
  SCHEMA,
  searchedText,
  type Table,
  TOPIC_COLUMNS,
} from './database-tables.ts';
import { databaseThread, GZIP, GZIP_PIECE } from './database-thread.ts';
import { gzipMemo } from './gzip-memo.ts';
import type { RenderMemo } from './render-memo.ts';
import { copyingRuns } from './run-copies.ts';
import { type Cell, type DatabaseStep, makeDatabase } from './sqlite-steps.mjs';

// sql.js on this thread, started when first wanted: only the downloads made on this thread need it
// (the watch mode's first render, tests); a build makes them on the database's thread, and
// starting it here cost every build about 0.1 s of CPU and 10 MB for nothing.
let loading: Promise<SqlJsStatic> | undefined;
let SQL: SqlJsStatic | undefined;

/** Starts sql.js on this thread, once: awaited before making the downloads here (downloadFiles). */
export async function sqlOnThisThread(): Promise<void> {
  loading ??= initSqlJs();
  SQL = await loading;
}

function startedSql(): SqlJsStatic {
  if (SQL === undefined) throw new Error('sql.js was not started on this thread: await sqlOnThisThread() first');
  return SQL;
}

/** A download: a file of the site whose body is bytes rather than text, and their SHA-256 (hex), as its list gives it. */
interface BinaryFile {
  path: string;
  body: Uint8Array;
  sha256: string;
}

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  'entries.ndjson.gz': "Every entry's detail, one JSON object a line, by date; gzip'ed.",
  'categories.ndjson.gz': "Every category's detail, one JSON object a line, by slug; gzip'ed.",
  'topics.ndjson.gz': "Every topic's detail, one JSON object a line, by id; gzip'ed.",
  'diary.sqlite':
    'A SQLite 3 database of everything: tables entries, categories, topics, entry_topics and topic_categories, full-text tables entries_fts and topics_fts (FTS4, porter).',
};

/** A record's line of its collection's NDJSON, as bytes. */
function ndjsonLine(record: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(record)}\n`);
}

/** The collections of the downloads, in the order of their NDJSON files. */
const COLLECTIONS = ['entries', 'categories', 'topics'] as const;
type Collection = (typeof COLLECTIONS)[number];

/** Given each record's NDJSON line, in the list's order, as its row is made. */
type LineOf = (collection: Collection, line: Buffer) => void;

/** A record's detail and its NDJSON line. */
interface Made<D> {
  detail: D;
  line: Buffer;
}

/**
 * What `make` makes of a record (and of `extras`, what else it is made of), or, given a memo (the
 * watch mode's, kept between its downloads), what it made last time of the same. An edit changes a
 * few records: making every detail and line again was most of the main thread's share of an
 * edit's downloads (about 110–170 ms on the whole diary), and the searched text ≈50 ms more.
 */
function memoized<K, V>(
  memo: RenderMemo | undefined,
  table: string,
  key: K,
  record: object,
  extras: readonly unknown[],
  make: () => V,
): V {
  return memo === undefined ? make() : memo.table<K, V>(table).get(key, record, extras, make);
}

/** A record's detail and its NDJSON line (memoized). */
function made<K, D>(
  memo: RenderMemo | undefined,
  table: string,
  key: K,
  record: object,
  extras: readonly unknown[],
  detail: () => D,
): Made<D> {
  return memoized(memo, table, key, record, extras, () => {
    const d = detail();
    return { detail: d, line: ndjsonLine(d) };
  });
}

/**
 * What makes the database, in order: its schema, every row (inserts in pieces, made as they are
 * asked for, each record's detail made with its row and its NDJSON line given to `line`), then its
 * compaction. The same statements in the same order however they are pieced: the same bytes.
 * Given a memo, the entries' and topics' details and lines made of the same are taken from it.
 * The tables of `kept` are copied from the last database instead (a rebuild's edits left their
 * rows as they were: lastDownloads), their rows and their collection's lines never made.
 */
function* databaseSteps(
  model: Model,
  line: LineOf,
  memo?: RenderMemo,
  kept?: ReadonlySet<Table>,
): Generator<DatabaseStep> {
  const o: Origins = originsOf(model);
  const { entries, categories, topics } = model;
  memo?.begin([o.apiOrigin, o.siteOrigin, o.webURLs]);
  /** A table's run of steps, or the copy of its rows from the last database. */
  const table = (name: Table, steps: () => Iterable<DatabaseStep>): Iterable<DatabaseStep> =>
    kept?.has(name) === true ? [{ copy: [name] }] : steps();
  // Temporary tables (VACUUM's copy) in SQLite's memory, not in files of the emulated file system,
  // which grow by copying: the same database, made faster and in less memory.
  yield { sql: 'PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;' };
  yield { sql: SCHEMA };
  yield { sql: 'BEGIN' };
  yield* table('entries', () =>
    insertRecords('entries', ENTRY_COLUMNS, entries.length, (i) => {
      const e = entries[i] as Entry;
      const m = made(memo, 'entries', e.date, e, [], () => entryDetail(o, e));
      line('entries', m.line);
      return m.detail;
    }),
  );
  // The searched fields of a record are its detail's, and the detail's are the model's (entryFields).
  yield* table('entries_fts', () =>
    searchedText('entries_fts', entries.length, (i) => {
      const e = entries[i] as Entry;
      return [i + 1, ...memoized(memo, 'entries_fts', e.date, e, [], () => entryFields(e))];
    }),
  );
  // A category's links to its ancestors become its parent's slug (PARENT).
  yield* table('categories', () =>
    insertRecords(
      'categories',
      CATEGORY_COLUMNS,
      categories.length,
      (i) => {
        const d = categoryDetail(o, model, categories[i] as Category);
        line('categories', ndjsonLine(d));
        return d;
      },
      { column: 'parent', values: categories.map((c) => c.parent) },
    ),
  );
  yield* table('topics', () =>
    insertRecords('topics', TOPIC_COLUMNS, topics.length, (i) => {
      const t = topics[i] as Topic;
      // A topic's detail lists the entries that mention it.
      const m = made(memo, 'topics', t.id, t, [model.topicEntries.get(t.id)], () => topicDetail(o, model, t));
      line('topics', m.line);
      return m.detail;
    }),
  );
  yield* table('topics_fts', () =>
    searchedText('topics_fts', topics.length, (i) => {
      const t = topics[i] as Topic;
      return [t.id, ...memoized(memo, 'topics_fts', t.id, t, [], () => topicFields(t))];
    }),
  );
  yield* table('entry_topics', () => {
    const mentions = entries.flatMap((e) => e.topicIds.map((id): Cell[] => [e.date, id]));
    return insertRows('entry_topics', ['entry', 'topic'], mentions);
  });
  yield* table('topic_categories', () => {
    const filed = topics.flatMap((t) => t.categorySlugs.map((slug): Cell[] => [t.id, slug]));
    return insertRows('topic_categories', ['topic', 'category'], filed);
  });
  yield { sql: 'COMMIT' };
  // Each full-text index as one b-tree segment: smaller, and faster to search.
  yield { sql: "INSERT INTO entries_fts (entries_fts) VALUES ('optimize')" };
  yield { sql: "INSERT INTO topics_fts (topics_fts) VALUES ('optimize')" };
  yield { sql: 'VACUUM' };
  // The records of this model only are kept (those gone are forgotten).
  memo?.sweep();
}

/**
 * About the most bytes the database's file holds while it is made (before its VACUUM), so that it
 * is given the room at once (sqlite-steps.mjs roomyDatabase): three times the searched text (a
 * table's copy, the full-text table's, its index) and 256 bytes a record. Measured: the sample
 * 332 KB (this gives 317 KB), the whole diary 26.5 MB (28.8 MB), thirty times its topics 111 MB
 * (115 MB). Too little room only means the file grows from there; too much is memory unused.
 */
function databaseRoom(model: Model): number {
  let text = 0;
  for (const e of model.entries) text += e.title.length + e.entryHTML.length + e.footnotesHTML.length;
  for (const t of model.topics) text += t.title.length + t.tooltipText.length + t.wheatleyHTML.length;
  return 3 * text + 256 * (model.entries.length + model.categories.length + model.topics.length);
}

/** The whole-data files by name, in the order the list gives them: the NDJSON of each collection, then the database. */
function bodiesByName(ndjson: readonly Uint8Array[], database: Uint8Array): Map<string, Uint8Array> {
  const [entries, categories, topics] = ndjson as [Uint8Array, Uint8Array, Uint8Array];
  return new Map([
    ['entries.ndjson.gz', entries],
    ['categories.ndjson.gz', categories],
    ['topics.ndjson.gz', topics],
    ['diary.sqlite', database],
  ]);
}

/** The whole-data files, by name, in the order the list gives them. */
function downloadBodies(model: Model, memo?: RenderMemo): Map<string, Uint8Array> {
  const lines = new Map<Collection, Buffer[]>(COLLECTIONS.map((c) => [c, []]));
  const database = makeDatabase(
    startedSql(),
    databaseSteps(model, (collection, bytes) => lines.get(collection)?.push(bytes), memo),
    databaseRoom(model),
  );
  return bodiesByName(
    COLLECTIONS.map((c) => gzipSync(Buffer.concat(lines.get(c) ?? []), GZIP)),
    database,
  );
}

/**
 * The same bodies, made off this thread: the database on a thread of its own, fed its rows a piece
 * at a time as they are made here, and the NDJSON lines a megabyte at a time, which that thread
 * gzips on libuv's pool (database-worker.mjs says why there). Given `pace`, it is
 * awaited between two pieces (the watch mode lets the server answer meanwhile); `signal` stops it
 * all.
 */
async function downloadBodiesInThread(
  model: Model,
  { signal, pace, memo, last }: InThread,
): Promise<Map<string, Uint8Array>> {
  const stopped = () => {
    if (signal?.aborted === true) throw signal.reason;
  };
  stopped();
  // A memo means downloads made again (the watch mode): the database is kept for the next job.
  const keep = memo !== undefined;
  const thread = databaseThread({ streams: COLLECTIONS.length, room: databaseRoom(model), keep, last: last?.database });
  // Each collection's lines not yet sent, and their bytes.
  const waiting = COLLECTIONS.map(() => ({ lines: [] as Buffer[], bytes: 0 }));
  const send = async (stream: number, least: number) => {
    const w = waiting[stream] as (typeof waiting)[number];
    if (w.bytes === 0 || w.bytes < least) return;
    const bytes = Buffer.concat(w.lines, w.bytes);
    w.lines = [];
    w.bytes = 0;
    await thread.append(stream, bytes);
  };
  // A collection whose lines are all the last downloads' is not gzipped again (gzip-memo.ts).
  const zips = gzipMemo<Buffer>(memo, COLLECTIONS, (stream, bytes) => {
    const w = waiting[stream] as (typeof waiting)[number];
    w.lines.push(bytes);
    w.bytes += bytes.length;
  });
  const line: LineOf = (collection, bytes) => zips.line(COLLECTIONS.indexOf(collection), bytes);
  try {
    // The runs that are the same as the database copied from's are copied, not sent (run-copies.ts).
    const from = await thread.copyFrom;
    for (const step of copyingRuns(databaseSteps(model, line, memo, last?.kept), from)) {
      await thread.step(step);
      for (let i = 0; i < COLLECTIONS.length; i++) await send(i, GZIP_PIECE);
      if (pace !== undefined) await pace();
      stopped();
    }
    const reused = zips.reused();
    for (let i = 0; i < COLLECTIONS.length; i++) await send(i, 0);
    const made = thread.end();
    const stop = () => thread.stop();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const { database, gzipped } = await made;
      stopped();
      // A kept table's collection sent no lines: its NDJSON is the last build's.
      const ndjson = gzipped.map((fresh, i) => reused[i] ?? last?.ndjson.get(COLLECTIONS[i] as Collection) ?? fresh);
      zips.keep(ndjson);
      return bodiesByName(ndjson, database);
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  } catch (err) {
    thread.stop();
    throw err;
  }
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
export interface Downloads {
  files: BinaryFile[];
  list: { path: string; body: string };
}

function downloadsOf(model: Model, bodies: Map<string, Uint8Array>): Downloads {
  const made = [...bodies].map(([name, body]) => ({
    name,
    body,
    sha256: createHash('sha256').update(body).digest('hex'),
  }));
  const downloads: Download[] = made.map(({ name, body, sha256 }) => ({
    name,
    description: DESCRIPTIONS[name] ?? '',
    url: `${model.config.apiOrigin}/${downloadFile(name)}`,
    mediaType: DOWNLOAD_TYPES.get(name) ?? 'application/octet-stream',
    bytes: body.length,
    sha256,
  }));
  const { license } = model.config;
  const list: DownloadList = license === null ? { downloads } : { downloads, license: { ...license } };
  return {
    files: made.map(({ name, body, sha256 }) => ({ path: downloadFile(name), body, sha256 })),
    list: { path: DOWNLOADS_FILE, body: pretty(list) },
  };
}

/**
 * The whole-data files and their list, made on this thread (after sqlOnThisThread()); given a
 * memo, of the records' details and lines made last time of the same (databaseSteps).
 */
export function downloadFiles(model: Model, memo?: RenderMemo): Downloads {
  return downloadsOf(model, downloadBodies(model, memo));
}

/** How downloads made off this thread are stopped, paced and remembered (downloadFilesInThread). */
export interface InThread {
  /** Stops the work; the promise then rejects. */
  signal?: AbortSignal;
  /** Awaited between two pieces of the work done here (the watch mode's server answers meanwhile). */
  pace?: () => Promise<void>;
  /** The records' details and lines made last time (databaseSteps). */
  memo?: RenderMemo;
  /** What a rebuild keeps of the last build's downloads (lastDownloads). */
  last?: LastDownloads;
}

/** What a rebuild keeps of the last build's downloads: the tables its edits left, and their files. */
export interface LastDownloads {
  /** The last build's database, which the kept tables are copied from. */
  database: Uint8Array;
  kept: ReadonlySet<Table>;
  /** The last build's gzip'ed NDJSON of each collection whose table is kept. */
  ndjson: ReadonlyMap<Collection, Uint8Array>;
}

/**
 * The last build's downloads, for a rebuild whose edits left the tables `kept` as they were (their
 * rows, and their collections' lines, are those of the same details: tables-left.ts), each file
 * read by `read` (the live tree's, as its manifest says: null when it does not hold). A
 * collection's table is kept only with its NDJSON; undefined when nothing is kept.
 */
export function lastDownloads(
  kept: ReadonlySet<Table>,
  read: (file: string) => Uint8Array | null,
): LastDownloads | undefined {
  const tables = new Set(kept);
  const ndjson = new Map<Collection, Uint8Array>();
  for (const c of COLLECTIONS) {
    if (!tables.has(c)) continue;
    const bytes = read(downloadFile(`${c}.ndjson.gz`));
    if (bytes === null) tables.delete(c);
    else ndjson.set(c, bytes);
  }
  const database = tables.size === 0 ? null : read(downloadFile('diary.sqlite'));
  return database === null ? undefined : { database, kept: tables, ndjson };
}

/**
 * The same files, byte for byte, made mostly off this thread (the cold build renders the rest of
 * the site meanwhile), as `options` say.
 */
export async function downloadFilesInThread(model: Model, options: InThread = {}): Promise<Downloads> {
  return downloadsOf(model, await downloadBodiesInThread(model, options));
}
