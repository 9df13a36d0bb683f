// Site configuration: content/site.yaml, then the URL variable Netlify sets during builds, then
// command-line options, each overriding the one before.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SiteConfig, TitleConvention } from '../core/model.ts';
import { asMapping, type FieldSource, isTimestamp, problem, rejectUnknownKeys } from './fields.ts';
import { ContentError, type Problem } from './problems.ts';
import { parseYaml } from './yaml-text.ts';

export const SITE_FILE = 'site.yaml';

export const DEFAULT_CONFIG: SiteConfig = {
  apiOrigin: 'https://pepys.example.org',
  siteOrigin: 'https://www.pepysdiary.com',
  pageSize: 50,
  titleConvention: 'seed',
  lastModifiedTime: '2026-01-01T00:00:00Z',
};

export type ConfigOverrides = Partial<SiteConfig>;

const CONVENTIONS: readonly TitleConvention[] = ['seed', 'every-year'];

/** Normalises an origin (scheme, host, optional port; no path) or explains why it is not one. */
export function parseOrigin(text: string): string | Error {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return new Error(`${JSON.stringify(text)} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return new Error(`${JSON.stringify(text)} is not an http(s) URL`);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') return new Error(`${JSON.stringify(text)} must be an origin, with no path`);
  return url.origin;
}

export function parseConvention(text: string): TitleConvention | Error {
  return CONVENTIONS.includes(text as TitleConvention)
    ? (text as TitleConvention)
    : new Error(`title convention must be one of ${CONVENTIONS.join(', ')}, not ${JSON.stringify(text)}`);
}

/** Reads site.yaml (absent: defaults), applies `env.URL` and the overrides, validates all. */
export function loadSiteConfig(contentDir: string, overrides: ConfigOverrides, env: Record<string, string | undefined>): SiteConfig {
  const problems: Problem[] = [];
  const config: SiteConfig = { ...DEFAULT_CONFIG };
  let text: string | null = null;
  try {
    text = readFileSync(join(contentDir, SITE_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (text !== null) {
    const data = asMapping(parseYaml(text, SITE_FILE, 1, problems) ?? {});
    if (data === null) problems.push({ file: SITE_FILE, line: 1, message: 'site.yaml must be a YAML mapping' });
    else {
      const src: FieldSource = { file: SITE_FILE, text, firstLine: 1, data, problems };
      rejectUnknownKeys(src, Object.keys(DEFAULT_CONFIG));
      for (const key of ['apiOrigin', 'siteOrigin'] as const) {
        const v = data[key];
        if (v === undefined) continue;
        const origin = typeof v === 'string' ? parseOrigin(v) : new Error('must be a string');
        if (origin instanceof Error) problem(src, key, `"${key}": ${origin.message}`);
        else config[key] = origin;
      }
      if (data.pageSize !== undefined) {
        if (typeof data.pageSize === 'number' && Number.isSafeInteger(data.pageSize) && data.pageSize > 0) config.pageSize = data.pageSize;
        else problem(src, 'pageSize', `"pageSize" must be a positive whole number, not ${JSON.stringify(data.pageSize)}`);
      }
      if (data.titleConvention !== undefined) {
        const c = parseConvention(String(data.titleConvention));
        if (c instanceof Error) problem(src, 'titleConvention', c.message);
        else config.titleConvention = c;
      }
      if (data.lastModifiedTime !== undefined) {
        if (typeof data.lastModifiedTime === 'string' && isTimestamp(data.lastModifiedTime)) config.lastModifiedTime = data.lastModifiedTime;
        else problem(src, 'lastModifiedTime', '"lastModifiedTime" must be a UTC timestamp written YYYY-MM-DDTHH:MM:SSZ');
      }
    }
  }
  if (problems.length > 0) throw new ContentError(problems, contentDir);
  if (env.URL !== undefined && env.URL !== '') {
    const origin = parseOrigin(env.URL);
    if (origin instanceof Error) throw new Error(`the URL environment variable: ${origin.message}`);
    config.apiOrigin = origin;
  }
  return { ...config, ...stripUndefined(overrides) };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
