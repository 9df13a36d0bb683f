// A list request with `search`: the matching records of the list, 50 a page, each item with its
// snippet. It reads the index's statistics and the shards its words need (together), then the
// detail files of the page's records (a few at a time: core/read-files.ts), through the
// runtime's ReadFile (an Answer of kind 'compute': core/answer-types.ts); the tail, the page of
// records and its envelope, is core/record-page.ts's, which filtered lists share.

import type { Answer, ReadFile } from '../answer-types.ts';
import { type ApiError, errorBody } from '../errors.ts';
import { detailFile, searchDocsFile, searchShardFile } from '../files.ts';
import { filteredPositions, hasRecordFilters, type RecordFilters, recordLinkFilters } from '../filters.ts';
import { IncompleteSite } from '../incomplete-site.ts';
import { resultFragment } from '../json.ts';
import { entryFilters, type ListQuery } from '../lists.ts';
import type { LinkFilters } from '../pagination.ts';
import { dateRange } from '../ranges.ts';
import { recordPage } from '../record-page.ts';
import { entryItemOf, topicItemOf } from '../records.ts';
import type { SiteIndex } from '../site-index.ts';
import type { EntryDetail, EntryItem, Searched, TopicDetail, TopicItem } from '../types.ts';
import { entryFields, type Fields, SEARCH_WEIGHTS, type SearchCollection, topicFields } from './documents.ts';
import { fitsDocuments, MAX_SEARCH_WORK, searchWithPlaces, searchWork } from './engine.ts';
import { isIndexOf, parseSearchDocs, type SearchDocs } from './index-file.ts';
import { decodePostings, lineInShard, type Postings, shardCount, shardOf } from './postings.ts';
import { invalidSearch, type Ordering, parseOrdering, parseSearch, type SearchQuery } from './query.ts';
import { type KeptField, keptField, snippet as snippetOf } from './snippet.ts';

const decoder = new TextDecoder();

function errorAnswer(error: ApiError): Answer {
  return { kind: 'body', status: error.status, body: errorBody(error) };
}

/** A file of the search index (or a record it finds) the site lacks or has damaged: its 503. */
function incomplete(file: string, why: string): IncompleteSite {
  return new IncompleteSite(file, why, 'search index');
}

function tooMuchWork(work: number): ApiError {
  return invalidSearch(
    `its words are too common to search together (${work} postings to visit; a search may visit at most ${MAX_SEARCH_WORK}). Leave out some of its commonest words or phrases.`,
  );
}

// Parsed forms of files, by the bytes a ReadFile gave: a runtime that keeps a file's bytes (the
// local server, for a generation) parses each once; new bytes (a rebuild) are parsed again.
const parsedDocs = new WeakMap<Uint8Array, SearchDocs>();
const shardWords = new WeakMap<Uint8Array, { text: string; postings: Map<string, Postings> }>();

const topicIdLists = new WeakMap<SiteIndex, readonly number[]>();

/** The topic ids of a site in their list's order (ascending), made once a site. */
function topicKeys(site: SiteIndex): readonly number[] {
  let ids = topicIdLists.get(site);
  if (ids === undefined) {
    ids = [...site.topicIds];
    topicIdLists.set(site, ids);
  }
  return ids;
}

async function readDocs(readFile: ReadFile, collection: SearchCollection): Promise<SearchDocs> {
  const file = searchDocsFile(collection);
  const bytes = await readFile(file);
  if (bytes === null) throw incomplete(file, 'missing');
  let docs = parsedDocs.get(bytes);
  if (docs === undefined) {
    const parsed = parseSearchDocs(decoder.decode(bytes));
    if (!parsed.ok) throw incomplete(file, `damaged (${parsed.error})`);
    docs = parsed.value;
    parsedDocs.set(bytes, docs);
  }
  return docs;
}

async function readPostings(
  readFile: ReadFile,
  collection: SearchCollection,
  shards: number,
  words: readonly string[],
): Promise<Map<string, Postings>> {
  const found = new Map<string, Postings>();
  const results = await Promise.all(
    words.map(async (word) => {
      const file = searchShardFile(collection, shardOf(word, shards));
      const bytes = await readFile(file);
      if (bytes === null) return { word, file, postings: null };
      let shard = shardWords.get(bytes);
      if (shard === undefined) {
        shard = { text: decoder.decode(bytes), postings: new Map() };
        shardWords.set(bytes, shard);
      }
      let postings = shard.postings.get(word);
      if (postings === undefined) {
        // A word the shard does not hold has no postings; a line of it with none is damage.
        const line = lineInShard(shard.text, word);
        postings = (line === null ? NO_POSTINGS : line === '' ? null : decodePostings(line)) ?? undefined;
        if (postings !== undefined) shard.postings.set(word, postings);
      }
      return { word, file, postings: postings ?? null };
    }),
  );
  for (const r of results) {
    if (r.postings === null) throw incomplete(r.file, 'missing or damaged');
    found.set(r.word, r.postings);
  }
  return found;
}

const NO_POSTINGS = decodePostings('') as Postings;

/** An IncompleteSite a read threw, as a value (to be thrown in order); any other error thrown on. */
function lacking(err: unknown): IncompleteSite {
  if (err instanceof IncompleteSite) return err;
  throw err;
}

function queryWords(query: SearchQuery): string[] {
  return [...new Set(query.clauses.flat().flatMap((term) => term.words))];
}

/** What a search answer needs of a record's detail file: its list item and its searched fields. */
interface Searchable {
  /** The list item as a result fragment (core/json.ts), less its closing brace. */
  head: string;
  fields: Fields;
  /**
   * Each field as a reader of many snippets keeps it (one line, and its words), from the second
   * snippet of the record on: the first (in an edge isolate, usually the only one) reads only its
   * excerpt, not the whole field.
   */
  kept: Array<KeptField | undefined>;
  snippets: number;
  /**
   * The item with its snippet as given for the last searches that showed the record, by search
   * (searchKey): the same search asked again (an edge isolate keeps no answers) cuts no excerpt,
   * nor makes the record's fields kept as a new one would. At most SHOWN_KEPT.
   */
  shown: Map<string, string>;
}

const SHOWN_KEPT = 4;

/**
 * What a record's snippet follows from: the parsed query (its terms, and the clauses the places
 * of its first occurrences are found by) and the ordering. Equal keys, equal snippets.
 */
const searchKey = (query: SearchQuery, ordering: Ordering): string => `${ordering} ${JSON.stringify(query.clauses)}`;

const parsedDetails = new WeakMap<Uint8Array, Searchable>();

const CLOSE = '\n    }';
/** The field a search adds to each item (core/types.ts's Searched). */
const SNIPPET: Exclude<keyof Searched<EntryItem>, keyof EntryItem> = 'snippet';

/** An item's result fragment without its last line, for a field to be added after the others. */
function openFragment(item: EntryItem | TopicItem): string {
  const fragment = resultFragment(item);
  return fragment.slice(0, fragment.length - CLOSE.length);
}

/**
 * The result fragment of an item with its snippet added as its last field: the bytes of
 * resultFragment({ ...item, snippet }) (test/search-answer.test.ts), from a fragment kept a record.
 */
function withSnippet(head: string, snippet: string): string {
  return `${head},\n      "${SNIPPET}": ${JSON.stringify(snippet)}${CLOSE}`;
}

function searchable(collection: SearchCollection, bytes: Uint8Array): Searchable {
  let found = parsedDetails.get(bytes);
  if (found !== undefined) return found;
  const d = JSON.parse(decoder.decode(bytes)) as EntryDetail & TopicDetail;
  found =
    collection === 'entries'
      ? { head: openFragment(entryItemOf(d)), fields: entryFields(d), kept: [], snippets: 0, shown: new Map() }
      : { head: openFragment(topicItemOf(d)), fields: topicFields(d), kept: [], snippets: 0, shown: new Map() };
  parsedDetails.set(bytes, found);
  return found;
}

/**
 * The answer to a list request with a non-blank `search`: 400 for a bad date, search or
 * ordering, 404 for a page past the last, the page otherwise.
 */
export function searchAnswer(
  collection: SearchCollection,
  q: ListQuery,
  site: SiteIndex,
  records: RecordFilters = {},
): Answer {
  const dates =
    collection === 'entries'
      ? entryFilters(q, site.calendar, site.period.start)
      : { ok: true as const, value: {} as LinkFilters };
  if (!dates.ok) return errorAnswer(dates.error);
  const parsed = parseSearch(q.search ?? '');
  if (!parsed.ok) return errorAnswer(parsed.error);
  const ordering = parseOrdering(q.ordering);
  if (!ordering.ok) return errorAnswer(ordering.error);
  const filters: LinkFilters = { ...dates.value, ...recordLinkFilters(records), search: q.search as string };
  if (ordering.value !== 'natural') filters.ordering = ordering.value;
  return {
    kind: 'compute',
    run: (readFile) => runSearch(collection, q, site, readFile, parsed.value, ordering.value, filters, records),
  };
}

async function runSearch(
  collection: SearchCollection,
  q: ListQuery,
  site: SiteIndex,
  readFile: ReadFile,
  query: SearchQuery,
  ordering: Ordering,
  filters: LinkFilters,
  records: RecordFilters,
): Promise<Answer> {
  // Documents are numbered in the order of the site index's list, and their number gives the
  // index's shards (postings.ts shardCount): the statistics and the shards the words need are read
  // at once, not one after the other (on a CDN, a round trip each).
  const keys = collection === 'entries' ? site.entryDates : topicKeys(site);
  const shards = shardCount(collection, keys.length);
  const [docs, postings] = await Promise.all([
    readDocs(readFile, collection).catch(lacking),
    readPostings(readFile, collection, shards, queryWords(query)).catch(lacking),
  ]);
  // Both read at once, but a lacking statistics file is named first, whichever read ended first.
  if (docs instanceof IncompleteSite) throw docs;
  if (postings instanceof IncompleteSite) throw postings;
  if (!isIndexOf(docs, collection, keys.length)) throw incomplete(searchDocsFile(collection), 'not of this build');
  const stats = { count: docs.count, lengths: docs.lengths, weights: SEARCH_WEIGHTS[collection] };
  for (const [word, list] of postings)
    if (!fitsDocuments(list, stats))
      throw incomplete(searchShardFile(collection, shardOf(word, shards)), 'damaged (postings past its documents)');
  // A bound on the work, not on the time: the same query on the same index is always answered
  // the same way (docs/search.md).
  const work = searchWork(query, stats.count, postings);
  if (work > MAX_SEARCH_WORK) return errorAnswer(tooMuchWork(work));
  const found = searchWithPlaces(query, stats, postings, ordering);
  let matches = found.docs;
  if (collection === 'entries') {
    const { from, to } = dateRange(site.entryDates, filters.start, filters.end);
    if (from > 0 || to < keys.length) matches = matches.filter((doc) => doc >= from && doc < to);
  }
  // The record filters (core/filters.ts) select positions of the same list the documents number.
  if (hasRecordFilters(records)) {
    const set = new Set((await filteredPositions(collection, records, site, readFile)) ?? []);
    matches = matches.filter((doc) => set.has(doc));
  }
  const wanted = query.clauses.flat().filter((term) => !term.negated);
  const asked = searchKey(query, ordering);
  return recordPage(
    {
      collection,
      selected: matches,
      rawPage: q.page,
      links: filters,
      fileOf: (doc) => detailFile(collection, String(keys[doc])),
      part: 'search index',
      // recordPage gives the bytes of each record's detail (fileOf).
      fragment: (doc, bytes) => {
        const record = searchable(collection, bytes as Uint8Array);
        const given = record.shown.get(asked);
        if (given !== undefined) return given;
        record.snippets++;
        const keptOf = (field: number): KeptField => {
          let kept = record.kept[field];
          if (kept === undefined) {
            kept = keptField(record.fields[field] as string);
            record.kept[field] = kept;
          }
          return kept;
        };
        // The item's fields in the contract's order, then the snippet.
        const fragment = withSnippet(
          record.head,
          snippetOf(record.fields, wanted, found.firstAt(doc), record.snippets > 1 ? keptOf : undefined),
        );
        if (record.shown.size >= SHOWN_KEPT) record.shown.clear();
        record.shown.set(asked, fragment);
        return fragment;
      },
    },
    site,
    readFile,
  );
}
