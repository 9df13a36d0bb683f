// Writing an import into a content directory. The import owns `entries/`: it replaces that
// directory whole (so entries of an earlier import cannot linger) and creates `site.yaml` when it
// is missing, so that the directory builds. (Its encyclopedia, `topics/standard-ebooks/` and a
// block of `categories.yaml`, is written by topic-files.ts.)
//
// Since it replaces `entries/` whole, it first makes sure the directory is a content directory
// (or new, or empty): never the edition itself, a build's output, `/`, the working directory, a
// home directory, or a directory holding other things; and that its `entries/`, if any, is one an
// import wrote (it holds the marker `.pepys-import`) or empty, never entries written by hand. A killed import leaves
// `.entries-import-<pid>` (the new entries, being written) or `.entries-old-<pid>` (the previous
// ones, being removed); the next import sweeps those whose process is gone, putting the previous
// entries back if the process died between its two renames.

import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, type Stats, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_CONFIG, loadSiteConfig } from '../content/config.ts';
import { fail, ok, type Result } from '../core/result.ts';
import type { WebSite } from '../core/urls.ts';
import { CONTENT_NAMES, checkApart, checkNotPrecious, hasMarker, MARKER_FILE } from '../output/guard.ts';
import { isAlive } from '../output/trash.ts';

/**
 * The licence of what the import writes: the Standard Ebooks edition dedicates its markup and
 * notes to the public domain (CC0 1.0), and Pepys's text is in it (the corpus's LICENSE.md).
 */
const EDITION_LICENSE = {
  name: "CC0 1.0 Universal (the Standard Ebooks edition's markup and notes; the diary's text is in the public domain)",
  url: 'https://creativecommons.org/publicdomain/zero/1.0/',
};

/** The site.yaml an import creates when there is none: the generator's own defaults, and the edition's licence. */
const DEFAULT_SITE_YAML = `${Object.entries({ ...DEFAULT_CONFIG, license: EDITION_LICENSE })
  .map(([key, value]) => `${key}: ${flowYaml(value)}`)
  .join('\n')}\n`;

/** A default's value in YAML's flow style: lists as [a, b], mappings as { k: v }. */
function flowYaml(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(flowYaml).join(', ')}]`;
  if (typeof value === 'object' && value !== null)
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${k}: ${flowYaml(v)}`)
      .join(', ')} }`;
  const text = String(value);
  // Plain where YAML allows it (every default but the webURLs templates, whose braces are flow syntax).
  return typeof value === 'string' && /[{}[\],#&*!|>'"%@`]/.test(text) ? `'${text.replaceAll("'", "''")}'` : text;
}

/** The siteOrigin and webURLs of the content directory's `site.yaml` (validated as a build does), else the defaults. */
export function readWebSite(contentDir: string): WebSite {
  const { siteOrigin, webURLs } = loadSiteConfig(contentDir, {}, {});
  return { siteOrigin, webURLs };
}

/**
 * Whether the import may write into `contentDir`: it does not exist, or it is an empty directory
 * or a content directory (it holds entries/, topics/, site.yaml or categories.yaml), and it is
 * apart from the edition and from every place a build also refuses.
 */
export function checkContentTarget(
  contentDir: string,
  editionDir: string,
  label = `--out ${contentDir}`,
): Result<void, string> {
  const precious = checkNotPrecious(contentDir, label);
  if (!precious.ok) return precious;
  const apart = checkApart(contentDir, label, editionDir, 'the edition');
  if (!apart.ok) return apart;
  let s: Stats;
  try {
    s = statSync(contentDir);
  } catch {
    return ok(undefined);
  }
  if (!s.isDirectory()) return fail(`${label} is not a directory`);
  if (hasMarker(contentDir))
    return fail(`${label} is a build's output (it has ${MARKER_FILE}), not a content directory`);
  const entries = path.join(contentDir, 'entries');
  if (existsSync(entries) && !statSync(entries).isDirectory()) return fail(`${label}: ${entries} is not a directory`);
  if (existsSync(entries) && !isImported(entries)) {
    return fail(
      `${label}: ${entries} holds entries this importer did not write (no ${IMPORT_MARKER} in it), and an import replaces entries/ whole; ` +
        'import into another directory, or move those entries away yourself',
    );
  }
  if (CONTENT_NAMES.some((name) => existsSync(path.join(contentDir, name)))) return ok(undefined);
  if (readdirSync(contentDir).length > 0) {
    return fail(
      `${label} is not a content directory (it is not empty and has no ${CONTENT_NAMES.join(', ')}); ` +
        'the import replaces entries/ in a content directory: give a new or empty directory, or a content directory',
    );
  }
  return ok(undefined);
}

/** The file an import writes into every entries/ it makes: it may replace that one, no other. */
export const IMPORT_MARKER = '.pepys-import';
const IMPORT_MARKER_TEXT =
  'These entries were written by npm run import (pepys-static-api); the next import replaces this directory whole.\n' +
  'Entries written by hand belong in another content directory.\n';

/** Whether an entries/ directory was written by an import, or is empty. */
function isImported(entries: string): boolean {
  return existsSync(path.join(entries, IMPORT_MARKER)) || readdirSync(entries).length === 0;
}

const LEFTOVER = /^\.entries-(import|old)-(\d+)$/;

/** Puts back or removes what imports that are no longer running left in `contentDir`. */
export function sweepImportLeftovers(contentDir: string): void {
  const entries = path.join(contentDir, 'entries');
  const dead = readdirSync(contentDir)
    .map((name) => ({ name, m: LEFTOVER.exec(name) }))
    .filter((x): x is { name: string; m: RegExpExecArray } => x.m !== null && !isAlive(Number(x.m[2])));
  if (!existsSync(entries)) {
    const old = dead.find((x) => x.m[1] === 'old');
    if (old !== undefined) {
      renameSync(path.join(contentDir, old.name), entries);
      dead.splice(dead.indexOf(old), 1);
    }
  }
  for (const { name } of dead) rmSync(path.join(contentDir, name), { recursive: true, force: true });
}

/**
 * Write `files` (paths relative to `entries/`) as the new `contentDir/entries/`. They are written
 * to a sibling directory first and swapped in, so a failed import leaves the previous entries
 * intact.
 */
export function replaceEntries(contentDir: string, files: ReadonlyMap<string, string>): void {
  mkdirSync(contentDir, { recursive: true });
  sweepImportLeftovers(contentDir);
  const target = path.join(contentDir, 'entries');
  const staging = path.join(contentDir, `.entries-import-${process.pid}`);
  const old = path.join(contentDir, `.entries-old-${process.pid}`);
  replaceDirectory(staging, target, old, () => {
    writeFileSync(path.join(staging, IMPORT_MARKER), IMPORT_MARKER_TEXT);
    const made = new Set<string>();
    for (const [relative, text] of files) {
      const file = path.join(staging, relative);
      const dir = path.dirname(file);
      if (!made.has(dir)) {
        mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      writeFileSync(file, text);
    }
  });
}

/**
 * Makes `target` anew: `fill` writes it into the new, empty directory `staging`, which is then
 * swapped in (swapInDirectory); if `fill` fails, `staging` is removed and `target` left as it was.
 */
export function replaceDirectory(staging: string, target: string, old: string, fill: () => void): void {
  rmSync(staging, { recursive: true, force: true });
  try {
    mkdirSync(staging);
    fill();
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  swapInDirectory(staging, target, old);
}

/**
 * Puts a complete `staging` directory in `target`'s place: the directory there (if any) is moved
 * to `old` first and removed only once the new one is in, or put back if that fails; on a failure
 * `staging` is removed and the error thrown.
 */
function swapInDirectory(staging: string, target: string, old: string): void {
  let hadOld = true;
  try {
    renameSync(target, old);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      rmSync(staging, { recursive: true, force: true });
      throw err;
    }
    hadOld = false;
  }
  try {
    renameSync(staging, target);
  } catch (err) {
    if (hadOld) renameSync(old, target);
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  if (hadOld) rmSync(old, { recursive: true, force: true });
}

/** Create `site.yaml` when absent (categories.yaml is the encyclopedia's: topic-files.ts). Returns those written. */
export function ensureSiteFiles(contentDir: string): string[] {
  const written: string[] = [];
  const defaults: [string, string][] = [['site.yaml', DEFAULT_SITE_YAML]];
  for (const [name, text] of defaults) {
    const file = path.join(contentDir, name);
    if (!existsSync(file)) {
      writeFileSync(file, text);
      written.push(name);
    }
  }
  return written;
}
