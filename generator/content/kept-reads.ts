// The content files a build's check read (fingerprint.ts buildFingerprint), kept for the build to
// parse rather than read again (load.ts readContent). Kept compactly: the bytes of all the files
// in a few large buffers, their facts in one array of numbers, so that a file costs about its
// bytes and 250 more. An object and a buffer a file cost ≈700 bytes each: at thirty times
// the encyclopedia (300,000 files), a check that found nothing to do held 215 MiB more than one
// that kept nothing, and 110 MiB more kept this way. Past a budget the files are no longer kept:
// the build reads those itself.

import type { FileRead } from './read-file.ts';

/** Bytes of one buffer of kept files (a larger file gets a buffer of its own). */
const CHUNK = 1 << 20;
/**
 * The most kept: the files' bytes and PER_FILE for each (about what a file's place, facts and hash
 * cost here). The whole diary with its encyclopedia (13,853 files, 10 MB) is kept whole; with
 * thirty times its topics (52 MB), the entries and about a fifth of the topics, and the build reads
 * the rest.
 */
const BUDGET = 32 * 1024 * 1024;
const PER_FILE = 256;
/** Numbers kept a file: its stat facts (read-file.ts StatFacts) and when it was read. */
const FACTS = 7;

export interface KeptReads {
  /** Keeps what was read of `file`, unless the budget is spent (false then). */
  keep(file: string, read: FileRead): boolean;
  /** What was read of `file`, taken out; undefined when it was not kept. */
  take(file: string): FileRead | undefined;
  has(file: string): boolean;
  readonly size: number;
  /** Lets go of everything kept. */
  clear(): void;
}

/** An empty store; `budget`, the most it keeps (bytes, and PER_FILE a file). */
export function keptReads(budget = BUDGET): KeptReads {
  /** Each kept file's number (its place in the arrays below). */
  let index = new Map<string, number>();
  let chunks: Buffer[] = [];
  let chunk = Buffer.alloc(0);
  let used = 0;
  let spent = 0;
  /** For each file: the buffer it is in, where, and how long. */
  let where: number[] = [];
  let facts = new Float64Array(FACTS * 1024);
  let digests: string[] = [];

  return {
    keep(file, { facts: f, readAt, bytes, digest }) {
      if (index.has(file) || spent + bytes.length + PER_FILE > budget) return false;
      spent += bytes.length + PER_FILE;
      if (bytes.length > CHUNK) {
        chunks.push(Buffer.from(bytes));
        where.push(chunks.length - 1, 0, bytes.length);
      } else {
        if (used + bytes.length > chunk.length) {
          chunk = Buffer.allocUnsafeSlow(CHUNK);
          chunks.push(chunk);
          used = 0;
        }
        chunk.set(bytes, used);
        where.push(chunks.length - 1, used, bytes.length);
        used += bytes.length;
      }
      const i = digests.length;
      if ((i + 1) * FACTS > facts.length) {
        const more = new Float64Array(facts.length * 2);
        more.set(facts);
        facts = more;
      }
      facts.set([f.dev, f.ino, f.mode, f.size, f.mtimeMs, f.ctimeMs, readAt], i * FACTS);
      digests.push(digest);
      index.set(file, i);
      return true;
    },
    take(file) {
      const i = index.get(file);
      if (i === undefined) return undefined;
      index.delete(file);
      const [c, at, length] = [where[3 * i], where[3 * i + 1], where[3 * i + 2]] as [number, number, number];
      const n = facts.subarray(i * FACTS, (i + 1) * FACTS);
      return {
        facts: { dev: n[0], ino: n[1], mode: n[2], size: n[3], mtimeMs: n[4], ctimeMs: n[5] } as FileRead['facts'],
        readAt: n[6] as number,
        bytes: (chunks[c] as Buffer).subarray(at, at + length),
        digest: digests[i] as string,
      };
    },
    has: (file) => index.has(file),
    get size() {
      return index.size;
    },
    clear() {
      index = new Map();
      chunks = [];
      chunk = Buffer.alloc(0);
      used = 0;
      spent = 0;
      where = [];
      facts = new Float64Array(FACTS * 1024);
      digests = [];
    },
  };
}
