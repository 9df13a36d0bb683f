// The watch mode's downloads keep each collection's gzip'ed NDJSON, with the lines it was made of,
// in their memo (render-memo.ts). After an entry's edit the topics' lines are the very objects
// they were (downloads.ts `made`): their gzip, 7.7 MB of the whole diary's 20 MB of NDJSON (about
// 0.15 s of deflate on the thread that makes the database meanwhile), is then taken as it was.
// Lines are compared by identity: a line is never changed once made, and one made again is new.

import type { RenderMemo } from './render-memo.ts';

/** A collection's NDJSON lines, in order, and their gzip. */
interface Zipped {
  lines: readonly unknown[];
  gzipped: Uint8Array;
}

/** A collection's lines made so far, and whether they are all those of the last downloads. */
interface Stream<L> {
  lines: L[];
  held: boolean;
}

/** The NDJSON streams of one making of the downloads, as they go through the memo. */
interface GzipMemo<L> {
  /** The next line of stream `stream`: passed on, or held back while the stream is the last one's. */
  line(stream: number, bytes: L): void;
  /**
   * After the last line: for each stream, the gzip kept of it when its lines are the last
   * downloads', one for one; else undefined, and its held lines are passed on.
   */
  reused(): (Uint8Array | undefined)[];
  /** Keeps each stream's lines and gzip for the next downloads. */
  keep(gzipped: readonly Uint8Array[]): void;
}

/**
 * Lines of the streams `names`, given in order to `line`: each is passed on to `send`, except
 * those of a stream that has so far given the lines of the last downloads, which are held back and
 * passed on at the first that differs. Without a memo, every line is passed on at once.
 */
export function gzipMemo<L extends Uint8Array>(
  memo: RenderMemo | undefined,
  names: readonly string[],
  send: (stream: number, bytes: L) => void,
): GzipMemo<L> {
  if (memo === undefined) return { line: send, reused: () => names.map(() => undefined), keep: () => {} };
  const table = memo.table<string, Zipped>('ndjson.gz');
  const last = names.map((name) => table.last(name));
  const streams: Stream<L>[] = names.map(() => ({ lines: [], held: true }));
  const release = (i: number, s: Stream<L>) => {
    s.held = false;
    for (const bytes of s.lines) send(i, bytes);
  };
  return {
    line(i, bytes) {
      const s = streams[i] as Stream<L>;
      s.lines.push(bytes);
      if (!s.held) send(i, bytes);
      else if (last[i]?.lines[s.lines.length - 1] !== bytes) release(i, s);
    },
    reused: () =>
      streams.map((s, i) => {
        const kept = last[i];
        if (s.held && kept !== undefined && kept.lines.length === s.lines.length) return kept.gzipped;
        if (s.held) release(i, s);
        return undefined;
      }),
    keep(gzipped) {
      names.forEach((name, i) => {
        const lines = streams[i]?.lines;
        const zipped = gzipped[i];
        if (lines !== undefined && zipped !== undefined) table.set(name, { lines, gzipped: zipped });
      });
    },
  };
}
