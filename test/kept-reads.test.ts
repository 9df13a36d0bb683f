// The content files a check read, kept for the build (generator/content/kept-reads.ts): each file
// given back as it was kept, once; a file larger than a buffer of them; the budget; clear().

import { describe, expect, it } from 'vitest';
import { keptReads } from '../generator/content/kept-reads.ts';
import type { FileRead } from '../generator/content/read-file.ts';

function readOf(n: number, length: number): FileRead {
  const bytes = new Uint8Array(length).map((_, i) => (i * 31 + n) % 251);
  const facts = {
    dev: 2049,
    ino: 2 ** 40 + n,
    mode: 0o100644,
    size: length,
    mtimeMs: 1764460800123.456 + n,
    ctimeMs: 1764460800999.5,
  };
  return { facts, readAt: 1764460801000 + n, bytes, digest: `digest-${n}` };
}

describe('the files a check read, kept', () => {
  it('gives each back as it was kept, once: bytes, facts, read time and hash', () => {
    const kept = keptReads();
    // Enough small files to fill more than one buffer, and one larger than a buffer.
    const reads = new Map<string, FileRead>();
    for (let n = 0; n < 600; n++) reads.set(`topics/${n}.yaml`, readOf(n, 1000 + (n % 7) * 1000));
    reads.set('entries/1660/1660-01-01.html', readOf(9999, 3 * 1024 * 1024));
    for (const [file, read] of reads) expect(kept.keep(file, read)).toBe(true);
    expect(kept.size).toBe(reads.size);
    expect(kept.keep('topics/1.yaml', readOf(1, 10))).toBe(false);
    for (const [file, read] of [...reads].reverse()) {
      expect(kept.has(file)).toBe(true);
      const back = kept.take(file);
      expect(back?.facts).toEqual(read.facts);
      expect(back?.readAt).toBe(read.readAt);
      expect(back?.digest).toBe(read.digest);
      expect(Buffer.compare(Buffer.from(back?.bytes ?? []), Buffer.from(read.bytes))).toBe(0);
      expect(kept.take(file)).toBeUndefined();
      expect(kept.has(file)).toBe(false);
    }
    expect(kept.size).toBe(0);
  });

  it('keeps no more than its budget, and nothing once cleared', () => {
    const kept = keptReads(10_000);
    let taken = 0;
    for (let n = 0; n < 20; n++) if (kept.keep(`topics/${n}.yaml`, readOf(n, 1000))) taken++;
    // 1,000 bytes and 256 for each file: 7 fit in 10,000.
    expect(taken).toBe(7);
    expect(kept.has('topics/6.yaml')).toBe(true);
    expect(kept.has('topics/7.yaml')).toBe(false);
    kept.clear();
    expect(kept.size).toBe(0);
    expect(kept.take('topics/0.yaml')).toBeUndefined();
    expect(kept.keep('topics/0.yaml', readOf(0, 1000))).toBe(true);
  });
});
