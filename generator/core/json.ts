// The contract's JSON: two-space indentation, non-ASCII kept as is (JSON.stringify does both).
// List pages are assembled from per-record fragments rendered once; the result is byte-identical
// to JSON.stringify of the whole envelope (test/json.test.ts proves it).

export function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

const ITEM_INDENT = '    ';

/**
 * A record pretty-printed as an element of the `results` array of a list envelope. Split and
 * joined, not `replaceAll`: V8 makes the latter a rope of slices of the printed record, which a
 * fragment kept (the watch mode keeps every list item's) holds as twice the text or more; the join
 * is one flat string, made in about 60 % of the time (300,000 topics' items: 0.9–1.0 s and 255 MB
 * kept, against 1.5–1.7 s and 518 MB).
 */
export function resultFragment(record: unknown): string {
  return ITEM_INDENT + pretty(record).split('\n').join(`\n${ITEM_INDENT}`);
}

export interface EnvelopeHead {
  totalResults: number;
  totalPages: number;
  nextPageURL: string | null;
  previousPageURL: string | null;
}

/** The list envelope around already rendered result fragments. */
export function envelope(head: EnvelopeHead, fragments: readonly string[]): string {
  const results = fragments.length === 0 ? '[]' : `[\n${fragments.join(',\n')}\n  ]`;
  return (
    `{\n  "totalResults": ${head.totalResults},\n  "totalPages": ${head.totalPages},\n` +
    `  "nextPageURL": ${JSON.stringify(head.nextPageURL)},\n` +
    `  "previousPageURL": ${JSON.stringify(head.previousPageURL)},\n` +
    `  "results": ${results}\n}`
  );
}
