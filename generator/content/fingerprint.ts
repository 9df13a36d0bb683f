// What a build is made from, as one SHA-256: the bytes of every content file it reads (and the
// problems of the listing), the options that change the output (the configuration's overrides,
// `URL` from the environment), and the generator itself (its source files, its package.json and
// lock file, the versions of its dependencies as installed, the Node that runs it). A build
// records it in the tree it writes (output/manifest.ts); a later build whose fingerprint is the
// same, over a tree that is still as written, has nothing to do. Content hashes, never
// modification times: a file touched without a change is the same, one changed within the same
// second is not.

import * as nodeCrypto from 'node:crypto';
import { createHash, type Hash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lstatOrNull } from '../paths.ts';
import { type ConfigOverrides, SITE_FILE } from './config.ts';
import { type ContentRead, listContent } from './discover.ts';
import type { Problem } from './problems.ts';
import { type FileRead, MAX_FILE_BYTES, type ReadOutcome } from './read-file.ts';
import { readRegular } from './read-regular.mjs';

/** What a content directory is read with besides its files (defined where the fingerprint hashes it). */
export interface LoadOptions {
  overrides?: ConfigOverrides;
  env?: Record<string, string | undefined>;
}

const CATEGORIES_FILE = 'categories.yaml';
/** The packages whose code makes output bytes (package.json's dependencies). */
const DEPENDENCIES = ['@orama/stemmers', 'date-fns', 'entities', 'feedsmith', 'sql.js', 'yaml'];

/** What a file gives a fingerprint: its bytes, or why there are none (absent when no failure is named). */
export interface Input {
  bytes: Uint8Array | null;
  failure?: string;
}

/** A file's bytes as their hash (InputsHash.file gives it), for bytes known to be those hashed before. */
interface HashedInput {
  digest: string;
}

/**
 * A file read now: its bytes, absent, or what stopped it. Read as the build reads content
 * (read-regular.mjs): a FIFO or a device in its place is a failure, never waited on nor read.
 */
function readInput(path: string, keep?: (read: Omit<FileRead, 'digest'>) => void): Input {
  const read = readRegular(path, MAX_FILE_BYTES);
  if (read.bytes !== null) {
    // The stats as they are (they have StatFacts' numbers): the store copies what it keeps.
    keep?.({ facts: read.stats, readAt: read.readAt, bytes: read.bytes });
    return { bytes: read.bytes };
  }
  if (read.stats !== null) return { bytes: null, failure: read.stats.isFile() ? 'too large' : 'not a regular file' };
  const code = (read.error as NodeJS.ErrnoException | null)?.code ?? String(read.error);
  if (code !== 'ENOENT') return { bytes: null, failure: `unreadable ${code}` };
  // A link to nothing is not a file gone: the build refuses it (read-file.ts), so it must change
  // the fingerprint, or a build over the last output would find nothing to do.
  return lstatOrNull(path)?.isSymbolicLink() === true
    ? { bytes: null, failure: 'dangling symbolic link' }
    : { bytes: null };
}

/** A labelled file into a hash: the same framing for the generator's files and the content's. */
function hashInput(h: Hash, label: string, input: Input): void {
  h.update(`\0${label}\0`);
  if (input.bytes !== null) h.update(input.bytes);
  else h.update(`\0${input.failure ?? 'absent'}`);
}

function addFile(h: Hash, label: string, path: string): void {
  hashInput(h, label, readInput(path));
}

function walkFiles(dir: string, out: string[]): void {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, d.name);
    if (d.isDirectory()) walkFiles(path, out);
    else if (d.isFile()) out.push(path);
  }
}

let generatorPrint: string | null = null;

/** The generator's own fingerprint (computed once a process: its files do not change under it). */
export function generatorFingerprint(): string {
  if (generatorPrint !== null) return generatorPrint;
  const h = createHash('sha256');
  h.update(`node ${process.version}\n`);
  // generator/ in a checkout, dist/generator/ in the package's build.
  const root = fileURLToPath(new URL('..', import.meta.url));
  const files: string[] = [];
  walkFiles(root, files);
  for (const f of files.sort()) addFile(h, f.slice(root.length), f);
  const pkg = ['../../package.json', '../../../package.json']
    .map((p) => fileURLToPath(new URL(p, import.meta.url)))
    .find((p) => existsSync(p));
  if (pkg !== undefined) {
    addFile(h, 'package.json', pkg);
    const lock = join(dirname(pkg), 'package-lock.json');
    if (existsSync(lock)) addFile(h, 'package-lock.json', lock);
  }
  for (const dep of DEPENDENCIES) {
    // The nearest node_modules that holds it, as Node's resolution finds it.
    for (let dir = root; ; dir = dirname(dir)) {
      const manifest = join(dir, 'node_modules', dep, 'package.json');
      if (existsSync(manifest)) {
        addFile(h, dep, manifest);
        break;
      }
      if (dirname(dir) === dir) break;
    }
  }
  generatorPrint = h.digest('hex');
  return generatorPrint;
}

/**
 * The same inputs file by file, for a rebuild that renders only what the changed files change
 * (render/basis.ts): `setup`, a SHA-256 of the generator, the options and the listing's
 * problems; `files`, each file's own SHA-256 by its label (a content path, site.yaml,
 * categories.yaml). Two builds with the same setup whose files have the same hashes read the same
 * bytes.
 */
export interface Sources {
  setup: string;
  files: Map<string, string>;
}

/**
 * The SHA-256 of some bytes, base64url: one call where Node has crypto.hash (20.12 and later), a
 * Hash object else (a hundred thousand files: ≈30 ms against ≈100 ms).
 */
const sha256: (bytes: Uint8Array) => string =
  typeof nodeCrypto.hash === 'function'
    ? (bytes) => nodeCrypto.hash('sha256', bytes, 'base64url')
    : (bytes) => createHash('sha256').update(bytes).digest('base64url');

/** The fingerprint of a build, fed in order: the site's file, the categories', the listing's problems, each record's file. */
export interface InputsHash {
  /** Adds a file; returns what the fingerprint took of it (its bytes' hash, or why there are none). */
  file(label: string, input: Input | HashedInput): string;
  problems(problems: readonly Problem[]): void;
  digest(): string;
  /** The inputs fed so far, file by file (see Sources). */
  sources(): Sources;
}

/** A new fingerprint (see above), of the generator and the options; the content's files go in as they are read. */
export function inputsHash(options: LoadOptions): InputsHash {
  const h = createHash('sha256');
  const setup = createHash('sha256');
  const files = new Map<string, string>();
  for (const line of [
    `generator ${generatorFingerprint()}\n`,
    `overrides ${JSON.stringify(options.overrides ?? {})}\n`,
    `URL ${JSON.stringify(options.env?.URL ?? null)}\n`,
  ]) {
    h.update(line);
    setup.update(line);
  }
  return {
    file(label, input) {
      // The fingerprint is of the files' own hashes: each file's bytes are hashed once.
      const digest =
        'digest' in input ? input.digest : input.bytes !== null ? sha256(input.bytes) : `!${input.failure ?? 'absent'}`;
      h.update(`\0${label}\0${digest}`);
      files.set(label, digest);
      return digest;
    },
    problems(problems) {
      for (const p of problems) {
        const line = `\0problem\0${p.file}:${p.line}: ${p.message}`;
        h.update(line);
        setup.update(line);
      }
    },
    digest: () => h.digest('hex'),
    sources: () => ({ setup: setup.copy().digest('hex'), files }),
  };
}

/**
 * What a file read by the build (read-file.ts) gives the fingerprint; null for a record's file
 * gone since it was listed, which the build skips (as if it had not been listed). A file that
 * could not be read or decoded is a problem, and a build with a problem records nothing.
 */
export function inputOf(read: ReadOutcome): Input | null {
  if (read.ok) return { bytes: read.value.bytes };
  return read.error.gone ? null : { bytes: null, failure: `unreadable ${read.error.problem.message}` };
}

/**
 * The fingerprint of a build of `contentDir` with these options (see above), its files read
 * now: whether there is anything to do. The build records instead the fingerprint of the files
 * as it parsed them (load.ts readContent), so that a file changed after this reading cannot leave
 * an output recorded as made of what it was not made of. Given `keep`, the listing and the entry
 * and topic files read whole are put there, and the build parses those very bytes. Both hash the
 * same bytes; they differ only for a file that cannot be read, and a build that meets one records nothing.
 */
export function buildFingerprint(contentDir: string, options: LoadOptions, keep?: ContentRead): string {
  const h = inputsHash(options);
  for (const label of [SITE_FILE, CATEGORIES_FILE]) h.file(label, readInput(join(contentDir, label)));
  const listing = listContent(contentDir);
  if (keep !== undefined) keep.listing = listing;
  h.problems(listing.problems);
  const root = contentDir.endsWith(sep) ? contentDir : contentDir + sep;
  for (const file of [...listing.entryFiles, ...listing.topicFiles]) {
    let read: Omit<FileRead, 'digest'> | undefined;
    const input = readInput(root + file, keep && ((r) => (read = r)));
    // A file gone since it was listed is as if it had not been listed (as the build reads it).
    if (input.bytes === null && input.failure === undefined) continue;
    const digest = h.file(file, input);
    if (read !== undefined) keep?.files.keep(file, { ...read, digest });
  }
  return h.digest();
}
