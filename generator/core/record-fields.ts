// Each record of the API contract (../shared/API.md) described once, field by field, in the
// contract's order: the TypeScript types (types.ts, model.ts), the record builders (records.ts),
// the OpenAPI schemas (render/openapi-schemas.ts), the content readers (content/fields.ts
// readFields), the SQLite columns and so the NDJSON (render/downloads.ts) all follow from here.
// docs/records.md says how to add a field. Plain data: nothing here runs per record.

export type TopicKind = 'person' | 'place' | 'default';
export const TOPIC_KINDS: readonly TopicKind[] = ['person', 'place', 'default'];

/** A field's pattern: as it is, or after the API's address, or a webURL template's (core/urls.ts). */
export type PatternSpec = string | { api: string } | { webURL: 'entry' | 'category' | 'topic' };

/**
 * One field. `type` and `nullable` make its TypeScript type and its JSON Schema's `type`; the rest
 * is what the OpenAPI schema says of it, written in this key order (openapi-schemas.ts), and where
 * its value comes from.
 */
export interface FieldSpec {
  type: 'string' | 'integer' | 'number' | 'array';
  nullable?: true;
  /** A component schema: the value is one (`$ref`), or, for an array, its items are. */
  ref?: string;
  format?: 'uri';
  /** A list the value is one of, named (openapi-schemas.ts ENUMS). */
  enum?: 'topicKinds' | 'downloadNames' | 'mediaTypes';
  pattern?: PatternSpec;
  minimum?: number;
  maximum?: number;
  /** Arrays: no value twice (`uniqueItems`). */
  unique?: true;
  /** Its description in the OpenAPI document; `{ words }`: the site's words for it (openapi-schemas.ts). */
  doc?: string | { words: 'date' | 'title' };
  maxItems?: number;
  /** In the record's list item too (an item is the head of its detail, in the same order). */
  item?: true;
  /**
   * Where the builder takes it from: the model's field of the same name (absent), or computed
   * ('computed'), or from a model's list of ids or slugs (the list's name: the links are made of it).
   */
  model?: 'computed' | 'topicIds' | 'categorySlugs';
  /** Whether the record's content file gives it under its own name, read by readFields (content/fields.ts). */
  file?: true;
  /** The SQLite column is the table's primary key. */
  key?: true;
}

export type Description = Readonly<Record<string, FieldSpec>>;

/** A slug as the router accepts it (Django's slug converter; core/router.ts). */
export const ROUTE_SLUG = '[-a-zA-Z0-9_]+';

const LAST_MODIFIED = 'When the record last changed.';
const LAST_ANNOTATION = 'When the latest annotation was made.';

export const ENTRY = {
  date: { type: 'string', ref: 'Date', doc: { words: 'date' }, item: true, key: true },
  title: { type: 'string', doc: { words: 'title' }, item: true },
  entryHTML: { type: 'string', doc: 'The text of the entry, HTML.' },
  footnotesHTML: { type: 'string', doc: 'Its footnotes, HTML (may be empty).' },
  annotationCount: { type: 'integer', minimum: 0, doc: 'Annotations on the entry (0 when unknown).', file: true },
  lastAnnotationTime: { type: 'string', nullable: true, ref: 'Timestamp', doc: LAST_ANNOTATION, file: true },
  topics: {
    type: 'array',
    ref: 'TopicURL',
    unique: true,
    doc: 'The topics the entry mentions, by ascending id.',
    model: 'topicIds',
    file: true,
  },
  lastModifiedTime: { type: 'string', ref: 'Timestamp', doc: LAST_MODIFIED, item: true, file: true },
  apiURL: { type: 'string', ref: 'EntryURL', item: true, model: 'computed' },
  webURL: {
    type: 'string',
    format: 'uri',
    pattern: { webURL: 'entry' },
    doc: 'The entry on the human-readable site.',
    item: true,
    model: 'computed',
  },
} as const satisfies Description;

export const CATEGORY = {
  slug: { type: 'string', pattern: ROUTE_SLUG, item: true, key: true },
  title: { type: 'string', doc: 'The category’s name.', item: true },
  topicCount: { type: 'integer', minimum: 0, doc: 'The number of its topics.', item: true, model: 'computed' },
  depth: {
    type: 'integer',
    minimum: 1,
    maximum: 3,
    doc: '1 for a top-level category.',
    item: true,
    model: 'computed',
  },
  parents: {
    type: 'array',
    ref: 'CategoryURL',
    unique: true,
    doc: 'Every ancestor, top-level first.',
    maxItems: 2,
    item: true,
    model: 'computed',
  },
  children: {
    type: 'array',
    ref: 'CategoryURL',
    unique: true,
    doc: 'The direct children, by title then slug.',
    item: true,
    model: 'computed',
  },
  topics: {
    type: 'array',
    ref: 'TopicURL',
    unique: true,
    doc: 'Its topics, by ascending id (topicCount of them).',
    model: 'computed',
  },
  apiURL: { type: 'string', ref: 'CategoryURL', item: true, model: 'computed' },
  webURL: {
    type: 'string',
    format: 'uri',
    pattern: { webURL: 'category' },
    doc: 'The category on the human-readable site.',
    item: true,
    model: 'computed',
  },
} as const satisfies Description;

const OF_A_PLACE = 'Of a place.';

export const TOPIC = {
  id: { type: 'integer', minimum: 1, item: true, key: true },
  title: { type: 'string', doc: 'The topic’s name.', item: true },
  orderTitle: { type: 'string', doc: 'The title to sort by (e.g. surname first).', item: true },
  wheatleyHTML: { type: 'string', doc: 'The note of Wheatley’s edition, HTML (may be empty).' },
  tooltipText: { type: 'string', doc: 'A one-line summary (may be empty).', file: true },
  wikipediaURL: { type: 'string', nullable: true, doc: 'Its Wikipedia article.', file: true },
  thumbnailURL: { type: 'string', nullable: true, doc: 'A picture of it.', file: true },
  annotationCount: { type: 'integer', minimum: 0, doc: 'Annotations on the topic (0 when unknown).', file: true },
  lastAnnotationTime: { type: 'string', nullable: true, ref: 'Timestamp', doc: LAST_ANNOTATION, file: true },
  kind: { type: 'string', enum: 'topicKinds', item: true },
  latitude: { type: 'number', nullable: true, doc: OF_A_PLACE, file: true },
  longitude: { type: 'number', nullable: true, doc: OF_A_PLACE, file: true },
  zoom: { type: 'number', nullable: true, doc: 'The map zoom level that shows the place.', file: true },
  shape: { type: 'string', doc: 'The outline of a place on a map (may be empty).', file: true },
  categories: {
    type: 'array',
    ref: 'CategoryURL',
    unique: true,
    doc: 'Its categories, by slug.',
    model: 'categorySlugs',
    file: true,
  },
  entries: {
    type: 'array',
    ref: 'EntryURL',
    unique: true,
    doc: 'The entries that mention it, by ascending date.',
    model: 'computed',
  },
  lastModifiedTime: { type: 'string', ref: 'Timestamp', doc: LAST_MODIFIED, item: true, file: true },
  apiURL: { type: 'string', ref: 'TopicURL', item: true, model: 'computed' },
  webURL: {
    type: 'string',
    format: 'uri',
    pattern: { webURL: 'topic' },
    doc: 'The topic on the human-readable site.',
    item: true,
    model: 'computed',
  },
} as const satisfies Description;

/**
 * The keys a content file may give, in the order its "unknown field" problem lists them: the
 * description's fields the file gives (`file`), and those its reader reads itself (parse-*.ts).
 */
export const ENTRY_FILE_KEYS = [
  'date',
  'title',
  'topics',
  'annotationCount',
  'lastAnnotationTime',
  'lastModifiedTime',
] as const satisfies ReadonlyArray<keyof typeof ENTRY>;
export const TOPIC_FILE_KEYS = [
  'id',
  'title',
  'orderTitle',
  'kind',
  'categories',
  'wheatleyHTML',
  'tooltipText',
  'wikipediaURL',
  'thumbnailURL',
  'annotationCount',
  'lastAnnotationTime',
  'latitude',
  'longitude',
  'zoom',
  'shape',
  'lastModifiedTime',
] as const satisfies ReadonlyArray<keyof typeof TOPIC>;

/** A category of the category file: its key and name, and its parent's slug (the model's own, of which its links are made). */
export const CATEGORY_FILE_KEYS = ['slug', 'title', 'parent'] as const satisfies ReadonlyArray<
  keyof typeof CATEGORY | 'parent'
>;

const LIST_OF = (collection: string) =>
  ({
    type: 'string',
    format: 'uri',
    pattern: { api: `/${collection}` },
    doc: `The list of ${collection}.`,
    model: 'computed',
  }) as const satisfies FieldSpec;

export const ROOT = {
  categories: LIST_OF('categories'),
  entries: LIST_OF('entries'),
  topics: LIST_OF('topics'),
} as const satisfies Description;

export const ERROR = {
  detail: { type: 'string', doc: 'What went wrong, in words.' },
  status_code: { type: 'integer', doc: 'The HTTP status of the answer.' },
} as const satisfies Description;

/** A file of the whole data, as /api/v1/downloads lists it (render/downloads.ts). */
export const DOWNLOAD = {
  name: { type: 'string', enum: 'downloadNames', doc: 'The last segment of its URL.' },
  description: { type: 'string', doc: 'What it holds, and how.' },
  url: { type: 'string', format: 'uri', pattern: { api: '/downloads/[-a-z.]+' }, doc: 'Where to get it.' },
  mediaType: { type: 'string', enum: 'mediaTypes', doc: 'Its Content-Type.' },
  bytes: { type: 'integer', minimum: 0, doc: 'Its size in bytes.' },
  sha256: { type: 'string', pattern: '[0-9a-f]{64}', doc: 'The SHA-256 of its bytes, hex.' },
} as const satisfies Description;

/** The listing of the downloads; its licence is the site's (render/openapi-schemas.ts downloadList). */
export const DOWNLOAD_LIST = {
  downloads: { type: 'array', ref: 'Download', doc: 'Each file, once.' },
} as const satisfies Description;

// The types, inferred from the descriptions.

type ValueOf<F extends FieldSpec> = F['enum'] extends 'topicKinds'
  ? TopicKind
  : F['type'] extends 'array'
    ? string[]
    : F['type'] extends 'string'
      ? string
      : number;
type Value<F extends FieldSpec> = F['nullable'] extends true ? ValueOf<F> | null : ValueOf<F>;

/** A record's detail: every field of its description, in its order. */
export type DetailOf<D extends Description> = { -readonly [K in keyof D]: Value<D[K]> };

/** A record's list item: the fields of its description marked `item`. */
export type ItemOf<D extends Description> = {
  -readonly [K in keyof D as D[K] extends { item: true } ? K : never]: Value<D[K]>;
};

/** The lists of the model that links are made of. */
interface ModelLists {
  topicIds: number[];
  categorySlugs: string[];
}

/**
 * A record of the model: the fields it keeps (not computed), a list of links as its list of ids
 * or slugs (ascending, without duplicates: content/fields.ts idList, stringList).
 */
export type ModelOf<D extends Description> = {
  -readonly [K in keyof D as D[K]['model'] extends 'computed'
    ? never
    : D[K]['model'] extends keyof ModelLists
      ? D[K]['model']
      : K]: D[K]['model'] extends keyof ModelLists ? ModelLists[D[K]['model']] : Value<D[K]>;
};

/** The names of a description's fields, in its order. */
export function fieldsOf<D extends Description>(d: D): Array<keyof D & string> {
  return Object.keys(d);
}

/** The names of a description's item fields, in its order. */
export function itemFieldsOf<D extends Description>(d: D): Array<keyof ItemOf<D> & string> {
  return fieldsOf(d).filter((k): k is keyof ItemOf<D> & string => d[k]?.item === true);
}

/** The fields of a record's model that its content file gives under their own names (`file`). */
export type FileOf<D extends Description> = ModelOf<{
  [K in keyof D as D[K] extends { file: true } ? K : never]: D[K];
}>;
