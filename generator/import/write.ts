// Writing an import into a content directory. The import owns `entries/` and nothing else: it
// replaces that directory whole (so entries of an earlier import cannot linger) and only creates
// `site.yaml` and `categories.yaml` when they are missing, so that the directory builds.

import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

export const DEFAULT_SITE_ORIGIN = 'https://www.pepysdiary.com';

export const DEFAULT_SITE_YAML = `apiOrigin: https://pepys.example.org
siteOrigin: ${DEFAULT_SITE_ORIGIN}
pageSize: 50
titleConvention: seed
lastModifiedTime: 2026-01-01T00:00:00Z
`;

/** The siteOrigin of an existing `site.yaml` in `outDir`, else the default one. */
export function readSiteOrigin(outDir: string): string {
  const file = path.join(outDir, 'site.yaml');
  if (!existsSync(file)) return DEFAULT_SITE_ORIGIN;
  const site: unknown = parseYaml(readFileSync(file, 'utf8'));
  const origin = site !== null && typeof site === 'object' ? (site as Record<string, unknown>).siteOrigin : undefined;
  return typeof origin === 'string' && origin !== '' ? origin.replace(/\/+$/, '') : DEFAULT_SITE_ORIGIN;
}

/**
 * Write `files` (paths relative to `entries/`) as the new `outDir/entries/`. They are written to a
 * sibling directory first and swapped in, so a failed import leaves the previous entries intact.
 */
export function replaceEntries(outDir: string, files: ReadonlyMap<string, string>): void {
  mkdirSync(outDir, { recursive: true });
  const target = path.join(outDir, 'entries');
  const staging = path.join(outDir, `.entries-import-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging);
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
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
}

/** Create the configuration files a content directory needs, when absent. Returns those written. */
export function ensureSiteFiles(outDir: string): string[] {
  const written: string[] = [];
  const defaults: [string, string][] = [
    ['site.yaml', DEFAULT_SITE_YAML],
    ['categories.yaml', '[]\n'],
  ];
  for (const [name, text] of defaults) {
    const file = path.join(outDir, name);
    if (!existsSync(file)) {
      writeFileSync(file, text);
      written.push(name);
    }
  }
  return written;
}
