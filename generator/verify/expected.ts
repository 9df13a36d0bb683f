// The answers a whole mirror must give, determined locally: a built output (given, or built now
// from content into a temporary directory) read through the core's own handler, so that what is
// expected is exactly what a correct mirror on any runtime answers, headers included.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigOverrides } from '../content/config.ts';
import { ContentError } from '../content/problems.ts';
import type { ReadFile } from '../core/answer-types.ts';
import { messageOf } from '../core/errors.ts';
import { DOWNLOAD_FILES, SCHEMA_FILE, SITE_INDEX_FILE } from '../core/files.ts';
import { isPackFile, packText, unpack } from '../core/packs.ts';
import { fail, ok, type Result } from '../core/result.ts';
import { loadSiteIndex, type SiteIndex } from '../core/site-index.ts';
import { auditTree, MANIFEST_FILE, readManifest } from '../output/manifest.ts';
import { isDirectory, isFile } from '../paths.ts';

export interface ExpectedSite {
  /** The site index, its API origin set to the one the mirror's bodies must link to. */
  index: SiteIndex;
  /** The output's files, every API URL in them pointing at that origin. */
  read: ReadFile;
  /** Whether the output has the OpenAPI document (/api/v1/schema). */
  hasSchema: boolean;
  /** The API origin the output was built for. */
  builtOrigin: string;
  /** Removes what was made to determine the answers (a temporary build); idempotent. */
  dispose: () => void;
}

const encoder = new TextEncoder();
const BINARY_FILES: ReadonlySet<string> = new Set(DOWNLOAD_FILES);
const decoder = new TextDecoder();

const ALNUM = /[A-Za-z0-9]/;
const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|]/;
const escapeRegex = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
/** A backslash as JSON writes it: what escapes a character of a regular expression in a JSON string. */
const ESCAPE = '\\\\';

/**
 * Matches `text` as written plainly or as a regular expression in a JSON string, whichever of its
 * punctuation is escaped (`http:\\/\\/a\\.test` or `http://a\\.test` alike).
 */
function tolerantPattern(text: string): RegExp {
  let source = '';
  for (const ch of text) source += ALNUM.test(ch) ? ch : `(?:${escapeRegex(ESCAPE)})?${escapeRegex(ch)}`;
  return new RegExp(source, 'g');
}

/**
 * Rewrites the built origin to `to` where it is the API's: every JSON string that is the origin,
 * and every occurrence of `<origin>/api/`, also where it is written as a regular expression (the
 * OpenAPI document's URL patterns: the new origin is escaped as the old one was). Only those: a
 * site origin that happens to equal the API origin keeps its `webURL`s (they never contain
 * `/api/`).
 */
export function originMapper(from: string, to: string): (bytes: Uint8Array) => Uint8Array {
  if (from === to) return (bytes) => bytes;
  const prefix = tolerantPattern(`${from}/api/`);
  const punctuation = new Set([...`${from}/api/`].filter((ch) => !ALNUM.test(ch)));
  const rewrite = (match: string): string => {
    // Which punctuation the match escapes: the new origin is written the same way.
    const escaped = new Set<string>();
    for (let i = match.indexOf(ESCAPE); i !== -1; i = match.indexOf(ESCAPE, i + ESCAPE.length + 1))
      escaped.add(match[i + ESCAPE.length] as string);
    let out = '';
    for (const ch of `${to}/api/`) {
      const escapeIt =
        !ALNUM.test(ch) && (escaped.has(ch) || (escaped.size > 0 && !punctuation.has(ch) && REGEX_SPECIAL.test(ch)));
      out += escapeIt ? ESCAPE + ch : ch;
    }
    return out;
  };
  return (bytes) => {
    const text = decoder.decode(bytes);
    const mapped = text.replace(prefix, rewrite).split(`"${from}"`).join(`"${to}"`);
    return mapped === text ? bytes : encoder.encode(mapped);
  };
}

/**
 * A pack (core/packs.ts) whose records are mapped each: its table of contents made again for the
 * mapped bodies (other lengths, other digests). A pack that is not one is left as it is: the
 * handler reads it as such.
 */
function mapPack(bytes: Uint8Array, map: (bytes: Uint8Array) => Uint8Array): Uint8Array {
  const records = unpack(bytes);
  if (records === null) return bytes;
  return encoder.encode(packText([...records].map(([key, body]) => [key, decoder.decode(map(body))] as const)));
}

/**
 * The answers of a built output (`npm run build`'s `public/`), for a mirror whose bodies link to
 * `apiOrigin`: files are read on demand, and the built origin mapped to `apiOrigin`.
 */
export function expectedFromBuilt(
  dir: string,
  apiOrigin: string,
  dispose: () => void = () => {},
): Result<ExpectedSite, string> {
  if (!isDirectory(dir)) return fail(`${dir} is not a directory`);
  let text: string;
  try {
    text = readFileSync(join(dir, SITE_INDEX_FILE), 'utf8');
  } catch {
    return fail(`${dir} is not a built site: it has no ${SITE_INDEX_FILE} (run npm run build, or give --content)`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return fail(`${join(dir, SITE_INDEX_FILE)} is not valid JSON (truncated or damaged): build the site again`);
  }
  const builtOrigin = (data as { apiOrigin?: unknown } | null)?.apiOrigin;
  if (typeof builtOrigin !== 'string')
    return fail(`${join(dir, SITE_INDEX_FILE)} has no "apiOrigin": build the site again`);
  // Computed ranges are rendered from the index: give it the mirror's origin.
  const index = loadSiteIndex({ ...(data as object), apiOrigin });
  if (!index.ok) return fail(`${join(dir, SITE_INDEX_FILE)} is damaged (${index.error}): build the site again`);
  const map = originMapper(builtOrigin, apiOrigin);
  const read: ReadFile = async (file) => {
    try {
      const bytes = await readFile(join(dir, file));
      // A download's bytes are compared as they are (never mapped: see checks.ts).
      if (BINARY_FILES.has(file) || builtOrigin === apiOrigin) return bytes;
      return isPackFile(file) ? mapPack(bytes, map) : map(bytes);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
      throw err;
    }
  };
  // The answers expected are read from these files: they must be what the build wrote.
  const manifest = readManifest(dir);
  if (manifest !== null) {
    const problems = auditTree(dir, manifest);
    if (problems.length > 0) {
      const shown = problems.slice(0, 3).join('; ');
      const more = problems.length > 3 ? `; and ${problems.length - 3} more` : '';
      return fail(
        `${dir} is not what its build wrote (${MANIFEST_FILE}): ${shown}${more}; build it anew (npm run build -- --full)`,
      );
    }
  }
  // Without a schema in this build, /api/v1/schema is not checked.
  const hasSchema = isFile(join(dir, SCHEMA_FILE));
  return ok({ index: index.value, read, hasSchema, builtOrigin, dispose });
}

export interface ContentSource {
  contentDir: string;
  /** The build's configuration overrides (page size, site origin, ...); the API origin is set here. */
  overrides?: ConfigOverrides;
  /**
   * An empty directory to build in, which `dispose` removes; default: a new temporary one. A
   * caller that must clean up on a signal, in the middle of the build, makes it itself.
   */
  workDir?: string;
}

/**
 * The answers of the content, built now for `apiOrigin` into a temporary directory (removed by
 * `dispose`, or at once on failure): the bytes a mirror built from it for that origin serves.
 */
export async function expectedFromContent(
  source: ContentSource,
  apiOrigin: string,
): Promise<Result<ExpectedSite, string>> {
  if (!isDirectory(source.contentDir))
    return fail(`content directory ${source.contentDir} does not exist (give --content <dir> or --built <dir>)`);
  const tmp = source.workDir ?? mkdtempSync(join(tmpdir(), 'pepys-verify-'));
  const dispose = () => rmSync(tmp, { recursive: true, force: true });
  const outDir = join(tmp, 'public');
  try {
    // Loaded here: verifying against a built output does not pay for the build's modules.
    const { build } = await import('../build.ts');
    await build({
      contentDir: source.contentDir,
      outDir,
      quiet: true,
      overrides: { ...source.overrides, apiOrigin },
      // The environment's URL (Netlify's) must not choose the origin: the mirror's does.
      env: {},
    });
  } catch (err) {
    dispose();
    if (err instanceof ContentError) return fail(`the content does not build: ${err.message}`);
    return fail(`building ${source.contentDir} failed: ${messageOf(err)}`);
  }
  const site = expectedFromBuilt(outDir, apiOrigin, dispose);
  if (!site.ok) dispose();
  return site;
}
