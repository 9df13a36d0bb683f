// A map that starts over when what it holds would pass its budget: the local server's caches (a
// generation's files and answers, compressed bodies) keep what clients ask again, and a client
// asking for ever new things cannot fill the memory.

export interface BoundedCache<V> {
  get(key: string): V | undefined;
  /** Keeps `value`, counted as `size` bytes; called after a miss (a key is never set twice). */
  set(key: string, value: V, size: number): void;
}

/** A cache of at most `maxBytes` (as the sizes given say) and `maxEntries` values. */
export function boundedCache<V>(maxBytes: number, maxEntries = Number.POSITIVE_INFINITY): BoundedCache<V> {
  const map = new Map<string, V>();
  let bytes = 0;
  return {
    get: (key) => map.get(key),
    set(key, value, size) {
      if (bytes + size > maxBytes || map.size >= maxEntries) {
        map.clear();
        bytes = 0;
      }
      map.set(key, value);
      bytes += size;
    },
  };
}
