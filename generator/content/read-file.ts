// Reading one content file without ever throwing: whatever is wrong with it (unreadable, not
// UTF-8, a dangling or looping symbolic link, a directory, FIFO, socket or device where a file
// should be) becomes a problem located at the file, and a file that vanished between listing
// and reading is simply gone. Only a regular file is ever opened, and no more of it read than
// its size (read-regular.mjs: the rule every reader of content shares): a FIFO is never waited
// on, a device never read.

import { lstatSync, readlinkSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import { lineOfByte } from '../core/byte-line.ts';
import { fail, ok, type Result } from '../core/result.ts';
import { isLink, outsideLinksAllowed, outsideProblem, outsideTarget } from './links.ts';
import type { Problem } from './problems.ts';
import { readRegular } from './read-regular.mjs';

interface FileText {
  text: string;
  /** The bytes the text was decoded from (what a build's fingerprint hashes: fingerprint.ts). */
  bytes: Uint8Array;
  /** Identity and version of what was read (see signatureAt). */
  signature: string;
}

/** Why a file gave no text: it is gone (not a problem), or a problem located at it. */
type ReadFailure = { gone: true } | { gone: false; signature: string; problem: Problem };

/** Text of a file, or why there is none. */
export type ReadOutcome = Result<FileText, ReadFailure>;

/** A content file is a few KiB; one past this is not read (a video saved under a wrong name, say). */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * A file changed less than this long before it was read may change again without its times
 * changing (file times move in clock ticks of up to ~10 ms): what is read from it is not trusted
 * to match its signature (the trouble Git calls "racy clean").
 */
const RACY_MS = 1000;

/** The facts of a file that a signature is made of (fs.Stats has them). */
export interface StatFacts {
  dev: number;
  ino: number;
  mode: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

function signatureOf(s: StatFacts): string {
  // join() makes one flat string; a template literal makes a chain of eleven pieces that lives as
  // long as the parsed file (≈0.5 KB a file: 50 MB at 100,000 topics).
  return [s.dev, s.ino, s.mode, s.size, s.mtimeMs, s.ctimeMs].join(':');
}

/** The signature recorded for what was read at `readAt`: one that never matches when the file was recent. */
function readSignature(s: StatFacts, readAt = Date.now()): string {
  const recent = readAt - Math.max(s.mtimeMs, s.ctimeMs) < RACY_MS;
  return recent ? `racy:${signatureOf(s)}` : signatureOf(s);
}

/** A content file's bytes and facts, read whole by another reader of content (discover.ts ContentRead). */
export interface FileRead {
  facts: StatFacts;
  readAt: number;
  bytes: Uint8Array;
  /** The bytes' hash, as the fingerprint takes it (fingerprint.ts). */
  digest: string;
}

/**
 * What readContentFile gives for a regular file of at most MAX_FILE_BYTES whose facts (taken just
 * after opening it, at `readAt`) and whole bytes were read elsewhere: a build's reading thread
 * (content/read-ahead.ts) reads them, and hands anything else to readContentFile.
 */
export function outcomeOfRead(file: string, facts: StatFacts, readAt: number, bytes: Uint8Array): ReadOutcome {
  const signature = readSignature(facts, readAt);
  const text = decodeUtf8(bytes, file);
  return text.ok ? ok({ text: text.value, bytes, signature }) : fail({ gone: false, signature, problem: text.error });
}

function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException | null)?.code ?? 'EUNKNOWN';
}

/**
 * What is at `path` now, in the terms a read records: the identity and version of the file it
 * leads to, or of the link that leads nowhere, or null when nothing is there. The watch mode
 * compares it with what was read to find files changed behind its back.
 */
export function signatureAt(path: string): string | null {
  try {
    return signatureOf(statSync(path));
  } catch (err) {
    try {
      const l = lstatSync(path);
      return `!${errorCode(err)}:${l.dev}:${l.ino}:${l.ctimeMs}`;
    } catch {
      return null;
    }
  }
}

/** What a thing that is not a regular file is, in words. */
function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'input/output error',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  ENAMETOOLONG: 'the name is too long',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  ENOTDIR: 'not a directory',
  EISDIR: 'illegal operation on a directory',
  ENOENT: 'no such file or directory',
};

/** A short reason for an error of the file system: "permission denied (EACCES)". */
export function describeError(err: unknown): string {
  const code = errorCode(err);
  // Node's own message is "CODE: reason, syscall 'path'": only the reason is kept.
  const reason =
    REASONS[code] ??
    ((err as Error | null)?.message ?? String(err)).replace(/^[A-Z]+: /, '').replace(/, \w+( '.*')?$/, '');
  return `${reason} (${code})`;
}

/** The offset of the first byte that does not belong to valid UTF-8 (WHATWG rules), or -1. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i] as number;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const d = b[i + k];
      if (d === undefined || d < lo || d > hi) return i;
      lo = 0x80;
      hi = 0xbf;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * The text of a content file: decoded as UTF-8 strictly (on a bad byte, the problem names its
 * line, column and value), without a byte-order mark (the decoder drops it), with line ends made
 * `\n` whatever the editor saved: the one normalisation every content file goes through.
 */
export function decodeUtf8(bytes: Uint8Array, file: string): Result<string, Problem> {
  try {
    return ok(decoder.decode(bytes).replace(/\r\n?/g, '\n'));
  } catch {
    const at = Math.max(0, firstInvalidUtf8(bytes));
    const { line, lineStart } = lineOfByte(bytes, at);
    const column = [...new TextDecoder().decode(bytes.subarray(lineStart, at))].length + 1;
    const hex = (bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    return fail({ file, line, message: `not valid UTF-8: byte 0x${hex} at column ${column} (save the file as UTF-8)` });
  }
}

/** The failure for a path that could not be read (its stat, opening or reading it failed). */
function openFailure(path: string, file: string, err: unknown): ReadFailure {
  const code = errorCode(err);
  const problem = (message: string): ReadFailure => ({
    gone: false,
    signature: signatureAt(path) ?? '',
    problem: { file, line: 0, message },
  });
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    // Nothing there (it was removed after it was listed): gone. A link to nothing: a problem.
    let link: string | null = null;
    try {
      if (lstatSync(path).isSymbolicLink()) link = readlinkSync(path);
    } catch {
      // Gone.
    }
    return link === null
      ? { gone: true }
      : problem(`dangling symbolic link: its target ${JSON.stringify(link)} does not exist`);
  }
  if (code === 'ELOOP') return problem('symbolic link loop: following its links never reaches a file (ELOOP)');
  if (code === 'EISDIR') return problem('is a directory, not a file');
  if (code === 'ENXIO' || code === 'EOPNOTSUPP') {
    try {
      return problem(`is ${kindOf(statSync(path))}, not a regular file`);
    } catch {
      // Fall through to the generic reason.
    }
  }
  return problem(`cannot be read: ${describeError(err)}`);
}

/** Reads `file` (relative to `contentDir`, `/`-separated) as UTF-8 text. Never throws. */
export function readContentFile(contentDir: string, file: string): ReadOutcome {
  const path = join(contentDir, file);
  // The files at the top (site.yaml, categories.yaml); those below were checked when listed.
  if (!file.includes('/') && !outsideLinksAllowed() && isLink(path)) {
    const target = outsideTarget(contentDir, file);
    if (target !== null)
      return fail({ gone: false, signature: signatureAt(path) ?? '', problem: outsideProblem(file, target) });
  }
  // Only a regular file is opened, and no more of it read than its size (read-regular.mjs).
  const read = readRegular(path, MAX_FILE_BYTES);
  if (read.bytes !== null) return outcomeOfRead(file, read.stats, read.readAt, read.bytes);
  if (read.stats === null) return fail(openFailure(path, file, read.error));
  const signature = readSignature(read.stats);
  if (!read.stats.isFile()) {
    return fail({
      gone: false,
      signature,
      problem: { file, line: 0, message: `is ${kindOf(read.stats)}, not a regular file` },
    });
  }
  const size = `${(read.stats.size / 1048576).toFixed(0)} MiB`;
  return fail({
    gone: false,
    signature,
    problem: {
      file,
      line: 0,
      message: `is ${size}, more than a content file can be (${MAX_FILE_BYTES / 1048576} MiB)`,
    },
  });
}
