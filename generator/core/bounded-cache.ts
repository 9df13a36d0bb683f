// A map that starts over when what it holds would pass its budget: the local server's caches (a
// generation's files and answers, compressed bodies) and an edge isolate's files keep what clients
// ask again, and a client asking for ever new things cannot fill the memory.

export interface BoundedCache<V> {
  get(key: string): V | undefined;
  /**
   * Keeps `value`, counted as `size` bytes; called after a miss (a key is never set twice). A value
   * larger than the whole budget is not kept, and what is kept stays.
   */
  set(key: string, value: V, size: number): void;
}

/** A cache of at most `maxBytes` (as the sizes given say) and `maxEntries` values. */
export function boundedCache<V>(maxBytes: number, maxEntries = Number.POSITIVE_INFINITY): BoundedCache<V> {
  const map = new Map<string, V>();
  let bytes = 0;
  return {
    get: (key) => map.get(key),
    set(key, value, size) {
      // Emptying the cache for it would lose everything and keep it only until the next set.
      if (size > maxBytes) return;
      if (bytes + size > maxBytes || map.size >= maxEntries) {
        map.clear();
        bytes = 0;
      }
      map.set(key, value);
      bytes += size;
    },
  };
}

/** What an edge isolate keeps of the build's files it reads (fileKeeper's budget there). */
export const ISOLATE_KEPT_BYTES = 8 * 1024 * 1024;

/**
 * Readers that keep the bytes they read, in one budget of `maxBytes`, for a runtime that reads the
 * files of one build for its whole life (an edge isolate serves one deploy): a search reads the
 * same index shards again, and the parsed forms the core keeps by those bytes (postings, records)
 * are then found again too. Each request wraps its own way of reading (bound to that request) with
 * the one keeper; absent files are asked again. Within a request, a file being read is read once
 * however many ask for it at once (two records of a page in one pack: core/read-files.ts); a read
 * in flight is never shared between requests (workerd binds its I/O to the request that began it).
 */
export function fileKeeper(maxBytes: number) {
  const kept = boundedCache<Uint8Array>(maxBytes);
  return (read: (file: string) => Promise<Uint8Array | null>) => {
    const reading = new Map<string, Promise<Uint8Array | null>>();
    const readKept = async (file: string): Promise<Uint8Array | null> => {
      const bytes = await read(file);
      if (bytes === null || bytes.length > maxBytes) return bytes;
      // Two requests may have read it at once: the first kept is the one given from now on.
      const first = kept.get(file);
      if (first !== undefined) return first;
      kept.set(file, bytes, bytes.length);
      return bytes;
    };
    return (file: string): Promise<Uint8Array | null> => {
      const found = kept.get(file);
      if (found !== undefined) return Promise.resolve(found);
      let pending = reading.get(file);
      if (pending === undefined) {
        pending = readKept(file).finally(() => reading.delete(file));
        reading.set(file, pending);
      }
      return pending;
    };
  };
}
