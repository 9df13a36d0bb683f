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

/** What a store holds, empty: nothing allocated until a file is kept (a store a build never fills). */
function emptyStore() {
  return {
    /** Each kept file's number (its place in the arrays below). */
    index: new Map<string, number>(),
    chunks: [] as Buffer[],
    chunk: Buffer.alloc(0),
    used: 0,
    spent: 0,
    /** For each file: the buffer it is in, where, and how long. */
    where: [] as number[],
    facts: new Float64Array(0),
    digests: [] as string[],
  };
}

/** An empty store; `budget`, the most it keeps (bytes, and PER_FILE a file). */
export function keptReads(budget = BUDGET): KeptReads {
  let s = emptyStore();
  return {
    keep(file, { facts: f, readAt, bytes, digest }) {
      if (s.index.has(file) || s.spent + bytes.length + PER_FILE > budget) return false;
      s.spent += bytes.length + PER_FILE;
      if (bytes.length > CHUNK) {
        s.chunks.push(Buffer.from(bytes));
        s.where.push(s.chunks.length - 1, 0, bytes.length);
      } else {
        if (s.used + bytes.length > s.chunk.length) {
          s.chunk = Buffer.allocUnsafeSlow(CHUNK);
          s.chunks.push(s.chunk);
          s.used = 0;
        }
        s.chunk.set(bytes, s.used);
        s.where.push(s.chunks.length - 1, s.used, bytes.length);
        s.used += bytes.length;
      }
      const i = s.digests.length;
      if ((i + 1) * FACTS > s.facts.length) {
        const more = new Float64Array(Math.max(FACTS * 1024, s.facts.length * 2));
        more.set(s.facts);
        s.facts = more;
      }
      s.facts.set([f.dev, f.ino, f.mode, f.size, f.mtimeMs, f.ctimeMs, readAt], i * FACTS);
      s.digests.push(digest);
      s.index.set(file, i);
      return true;
    },
    take(file) {
      const i = s.index.get(file);
      if (i === undefined) return undefined;
      s.index.delete(file);
      const [c, at, length] = [s.where[3 * i], s.where[3 * i + 1], s.where[3 * i + 2]] as [number, number, number];
      const n = s.facts.subarray(i * FACTS, (i + 1) * FACTS);
      return {
        facts: { dev: n[0], ino: n[1], mode: n[2], size: n[3], mtimeMs: n[4], ctimeMs: n[5] } as FileRead['facts'],
        readAt: n[6] as number,
        bytes: (s.chunks[c] as Buffer).subarray(at, at + length),
        digest: s.digests[i] as string,
      };
    },
    has: (file) => s.index.has(file),
    get size() {
      return s.index.size;
    },
    clear() {
      s = emptyStore();
    },
  };
}
