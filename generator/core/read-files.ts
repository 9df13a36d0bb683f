// Several files of the built site read at once, for an answer that needs many (a search's page of
// records, a filtered page of topics: up to 50 details, each out of its pack). On a CDN each read
// is a round trip (Cloudflare's assets binding, Netlify's context.next()): one after another, a
// cold isolate's page waited for 50 of them; a few at a time, for about 50 / READS_AT_ONCE.

import type { ReadFile } from './answer-types.ts';

/**
 * Reads at once, at most. Small: Cloudflare queues a request's subrequests past six open at once,
 * and Netlify's origin is asked once a read.
 */
export const READS_AT_ONCE = 6;

/**
 * Bytes a file of the build read whole may have at most: a larger one reads as missing (the
 * handler's 503) before its bytes are read, so that a file grown by damage (a pack of 1.5 GB)
 * costs nothing but a look at its size. Every runtime reads a record by its range where it can
 * (core/packs.ts readPacked), else its pack whole. The complete diary's largest such file is its
 * site index, 262 KiB (a pack: 127 KiB); Cloudflare deploys no file over 25 MiB. The downloads,
 * larger, are read only by the local server (server/site.ts), which bounds them apart.
 */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The bytes of each file, in the order given (null where there is none), read `limit` at a time.
 * A read that answers at once (a file the runtime keeps) is taken as it comes, with no turn of the
 * event loop: a warm page of 50 records waits for nothing.
 */
export async function readFiles(
  readFile: ReadFile,
  files: readonly string[],
  limit = READS_AT_ONCE,
): Promise<Array<Uint8Array | null>> {
  const found: Array<Uint8Array | null> = new Array(files.length).fill(null);
  let next = 0;
  let waiting: Promise<Uint8Array | null> | null = null;
  while (next < files.length && waiting === null) {
    const bytes = readFile(files[next] as string);
    if (bytes instanceof Promise) waiting = bytes;
    else found[next] = bytes;
    next++;
  }
  if (waiting === null) return found;
  // Each reader takes the next file not yet asked for; the bytes land at the file's place, so the
  // order the reads end in changes nothing.
  const reader = async (): Promise<void> => {
    while (next < files.length) {
      const i = next++;
      found[i] = await readFile(files[i] as string);
    }
  };
  // As many readers as files left, up to the limit: the first once the read that waits is done.
  const count = Math.min(limit, files.length - next + 1);
  const at = next - 1;
  const first = waiting.then((bytes) => {
    found[at] = bytes;
  });
  const readers: Array<Promise<void>> = [first.then(reader)];
  for (let r = 1; r < count; r++) readers.push(reader());
  await Promise.all(readers);
  return found;
}
