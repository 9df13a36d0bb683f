// What a build is made from, as one SHA-256: the bytes of every content file it reads (and the
// problems of the listing), the options that change the output (the configuration's overrides,
// `URL` from the environment), and the generator itself (its source files, its package.json and
// lock file, the versions of its dependencies as installed, the Node that runs it). A build
// records it in the tree it writes (output/manifest.ts); a later build whose fingerprint is the
// same, over a tree that is still as written, has nothing to do. Content hashes, never
// modification times: a file touched without a change is the same, one changed within the same
// second is not.

import { createHash, type Hash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type ConfigOverrides, SITE_FILE } from './config.ts';
import { listContent } from './discover.ts';
import { fileDigest, type Input, inputDigest, readInput } from './file-digest.mjs';
import type { Problem } from './problems.ts';
import { READ_AHEAD_MIN_FILES } from './read-ahead.ts';
import { MAX_FILE_BYTES, type ReadOutcome } from './read-file.ts';

/** What a content directory is read with besides its files (defined where the fingerprint hashes it). */
export interface LoadOptions {
  overrides?: ConfigOverrides;
  env?: Record<string, string | undefined>;
}

const CATEGORIES_FILE = 'categories.yaml';
/** The packages whose code makes output bytes (package.json's dependencies). */
const DEPENDENCIES = ['@orama/stemmers', 'date-fns', 'entities', 'feedsmith', 'sql.js', 'yaml'];

/** A labelled file into a hash: the same framing for the generator's files and the content's. */
function hashInput(h: Hash, label: string, input: Input): void {
  h.update(`\0${label}\0`);
  if (input.bytes !== null) h.update(input.bytes);
  else h.update(`\0${input.failure ?? 'absent'}`);
}

function addFile(h: Hash, label: string, path: string): void {
  hashInput(h, label, readInput(path, MAX_FILE_BYTES));
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

/** The fingerprint of a build, fed in order: the site's file, the categories', the listing's problems, each record's file. */
export interface InputsHash {
  file(label: string, input: Input): void;
  /** A file whose digest is made already (file-digest.mjs inputDigest). */
  digested(label: string, digest: string): void;
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
    // The fingerprint is of the files' own hashes: each file's bytes are hashed once.
    file(label, input) {
      this.digested(label, inputDigest(input));
    },
    digested(label, digest) {
      h.update(`\0${label}\0${digest}`);
      files.set(label, digest);
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
 * A hint for a caller that would rather start on a build early: `onNewer` is called, once, as
 * soon as a content file is found modified after `since` (the last build's record).
 */
export interface NewerHint {
  since: number;
  onNewer: () => void;
}

/**
 * The fingerprint of a build of `contentDir` with these options (see above), its files read
 * now: whether there is anything to do. The build records instead the fingerprint of the files
 * as it read and parsed them (load.ts readContent), so that a file changed between the two
 * readings cannot leave an output recorded as made of what it was not made of. Both hash the same
 * bytes; they differ only for a file that cannot be read, and a build that meets one records nothing.
 * Many files are read and hashed on a thread of their own (digest-worker.mjs), this one free
 * meanwhile; a few, here. `hint` (above) is told of a file newer than the last build early on.
 */
export async function contentFingerprint(contentDir: string, options: LoadOptions, hint?: NewerHint): Promise<string> {
  let told = false;
  const newer = (): void => {
    if (told) return;
    told = true;
    hint?.onNewer();
  };
  const h = inputsHash(options);
  for (const label of [SITE_FILE, CATEGORIES_FILE]) {
    const path = join(contentDir, label);
    if (hint !== undefined && (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) > hint.since) newer();
    h.file(label, readInput(path, MAX_FILE_BYTES));
  }
  const listing = listContent(contentDir);
  h.problems(listing.problems);
  const root = contentDir.endsWith(sep) ? contentDir : contentDir + sep;
  const files = [...listing.entryFiles, ...listing.topicFiles];
  const digests =
    files.length < READ_AHEAD_MIN_FILES
      ? files.map((file) => fileDigest(root + file, MAX_FILE_BYTES))
      : await digestsInThread(root, files, hint === undefined ? null : hint.since, newer);
  // A file gone since it was listed is as if it had not been listed (as the build reads it).
  files.forEach((file, i) => {
    const digest = digests[i];
    if (digest !== null && digest !== undefined) h.digested(file, digest);
  });
  return h.digest();
}

/**
 * Each file's digest (file-digest.mjs fileDigest), made on a thread of its own; `newer` is called
 * when the thread finds a file modified after `since` (null: it does not look).
 */
function digestsInThread(
  root: string,
  files: string[],
  since: number | null,
  newer: () => void,
): Promise<(string | null)[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./digest-worker.mjs', import.meta.url), {
      workerData: { root, files, maxBytes: MAX_FILE_BYTES, since },
    });
    worker.on('message', (message: 'newer' | (string | null)[]) => {
      if (message === 'newer') newer();
      else resolve(message);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the thread hashing ${root} stopped (exit code ${code})`)));
  });
}
