// Site configuration: content/site.yaml, then the URL variable Netlify sets during builds, then
// command-line options, each overriding the one before.

import { CALENDARS, type CalendarName } from '../core/calendar.ts';
import { type License, spdxLicense } from '../core/license.ts';
import type { SiteConfig, TitleConvention } from '../core/model.ts';
import { periodProblem } from '../core/period.ts';
import { PEPYS_TITLE } from '../core/site-index.ts';
import { DEFAULT_WEB_URLS, expandWebURL, WEB_URL_PLACEHOLDERS, type WebURLs } from '../core/urls.ts';
import { asMapping, type FieldSource, isTimestamp, problem, rejectUnknownKeys } from './fields.ts';
import { DEFAULT_LOCALE, titleFormat } from './locale.ts';
import { SLUG_PATTERN } from './parse-categories.ts';
import { ContentError, type Problem } from './problems.ts';
import { type ReadOutcome, readContentFile } from './read-file.ts';
import { parseYaml } from './yaml-text.ts';

export const SITE_FILE = 'site.yaml';

export const DEFAULT_CONFIG: SiteConfig = {
  title: PEPYS_TITLE,
  author: 'Samuel Pepys',
  apiOrigin: 'https://pepys.example.org',
  siteOrigin: 'https://www.pepysdiary.com',
  pageSize: 50,
  period: { start: '1660-01-01', end: '1669-05-31' },
  calendar: 'julian',
  license: null,
  locale: DEFAULT_LOCALE,
  titleConvention: 'seed',
  kinds: { person: ['people'], place: ['places'] },
  linkOrigins: ['https://www.pepysdiary.com'],
  webURLs: { ...DEFAULT_WEB_URLS },
  lastModifiedTime: '2026-01-01T00:00:00Z',
};

export type ConfigOverrides = Partial<SiteConfig>;

const CONVENTIONS: readonly TitleConvention[] = ['seed', 'every-year', 'single'];

/** Normalises an origin (scheme, host, optional port; no path) or explains why it is not one. */
export function parseOrigin(text: string): string | Error {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return new Error(`${JSON.stringify(text)} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return new Error(`${JSON.stringify(text)} is not an http(s) URL`);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '')
    return new Error(`${JSON.stringify(text)} must be an origin, with no path`);
  // An origin has none, and links would silently drop them: refused, the password never echoed.
  if (url.username !== '' || url.password !== '') {
    const shown = `${url.protocol}//${url.username}${url.password === '' ? '' : ':…'}@${url.host}`;
    return new Error(`${JSON.stringify(shown)} must be an origin, with no user name or password`);
  }
  return url.origin;
}

/**
 * Why links to `origin` would lead nowhere a reader can follow, or null: a placeholder (an
 * `example` name, as the sample's https://pepys.example.org, or a reserved .test/.invalid one) or
 * a loopback address (this machine only).
 */
export function placeholderOrigin(origin: string): string | null {
  let host: string;
  try {
    host = new URL(origin).hostname;
  } catch {
    return null;
  }
  if (host.split('.').includes('example') || host.endsWith('.test') || host.endsWith('.invalid'))
    return 'a placeholder';
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\./.test(host))
    return 'a loopback address (this machine only)';
  return null;
}

export function parseConvention(text: string): TitleConvention | Error {
  return CONVENTIONS.includes(text as TitleConvention)
    ? (text as TitleConvention)
    : new Error(`title convention must be one of ${CONVENTIONS.join(', ')}, not ${JSON.stringify(text)}`);
}

export interface SiteConfigRead {
  config: SiteConfig;
  /** Problems of site.yaml; each setting that has one keeps its default. */
  problems: Problem[];
  /** What was read (read-file.ts signatureAt), or null when there is no site.yaml. */
  signature: string | null;
}

/**
 * Reads site.yaml (absent: defaults), applies `env.URL` and the overrides. Never throws for the
 * file: its problems are returned with a configuration in which every setting they concern keeps
 * its default, so that the rest of the content can still be checked. A bad `env.URL` throws (it
 * is not content).
 */
export function readSiteConfig(
  contentDir: string,
  overrides: ConfigOverrides,
  env: Record<string, string | undefined>,
  read: ReadOutcome = readContentFile(contentDir, SITE_FILE),
): SiteConfigRead {
  const problems: Problem[] = [];
  const config: SiteConfig = { ...DEFAULT_CONFIG };
  let signature: string | null = null;
  if (!read.ok && !read.error.gone) {
    problems.push(read.error.problem);
    signature = read.error.signature;
  }
  if (read.ok) {
    const { text } = read.value;
    signature = read.value.signature;
    const before = problems.length;
    const data = asMapping(parseYaml(text, SITE_FILE, 1, problems) ?? {});
    if (data === null) {
      if (problems.length === before)
        problems.push({ file: SITE_FILE, line: 1, message: 'site.yaml must be a YAML mapping' });
    } else {
      const src: FieldSource = { file: SITE_FILE, text, firstLine: 1, data, problems };
      rejectUnknownKeys(src, Object.keys(DEFAULT_CONFIG));
      for (const key of ['apiOrigin', 'siteOrigin'] as const) {
        const v = data[key];
        if (v === undefined) continue;
        const origin = typeof v === 'string' ? parseOrigin(v) : new Error('must be a string');
        if (origin instanceof Error) problem(src, key, `"${key}": ${origin.message}`);
        else config[key] = origin;
      }
      for (const key of ['title', 'author'] as const) {
        const v = data[key];
        if (v === undefined) continue;
        if (typeof v === 'string' && v.trim() !== '' && v.length <= 200) config[key] = v.trim();
        else problem(src, key, `"${key}" must be a non-empty string of at most 200 characters`);
      }
      if (data.pageSize !== undefined) {
        if (typeof data.pageSize === 'number' && Number.isSafeInteger(data.pageSize) && data.pageSize > 0)
          config.pageSize = data.pageSize;
        else
          problem(src, 'pageSize', `"pageSize" must be a positive whole number, not ${JSON.stringify(data.pageSize)}`);
      }
      if (data.calendar !== undefined) {
        if (CALENDARS.includes(data.calendar as CalendarName)) config.calendar = data.calendar as CalendarName;
        else
          problem(
            src,
            'calendar',
            `"calendar" must be one of ${CALENDARS.join(', ')}, not ${JSON.stringify(data.calendar)}`,
          );
      }
      if (data.period !== undefined) readPeriod(src, data.period, config);
      // `license:` left empty (null) states none, as no `license` does.
      if (data.license !== undefined && data.license !== null) readLicense(src, data.license, config);
      if (data.locale !== undefined) {
        const format = typeof data.locale === 'string' ? titleFormat(data.locale) : new Error('must be a string');
        if (format instanceof Error) problem(src, 'locale', `"locale": ${format.message}`);
        else config.locale = data.locale as string;
      }
      if (data.kinds !== undefined) readKinds(src, data.kinds, config);
      if (data.linkOrigins !== undefined) {
        const list = Array.isArray(data.linkOrigins) ? data.linkOrigins : null;
        const origins = list?.map((o) => (typeof o === 'string' ? parseOrigin(o) : new Error('not a string')));
        const bad = origins?.find((o) => o instanceof Error);
        if (origins === undefined || bad !== undefined)
          problem(src, 'linkOrigins', `"linkOrigins" must be a list of origins${bad ? `: ${bad.message}` : ''}`);
        else config.linkOrigins = origins as string[];
      }
      if (data.webURLs !== undefined) readWebURLs(src, data.webURLs, config);
      if (data.titleConvention !== undefined) {
        const c = parseConvention(String(data.titleConvention));
        if (c instanceof Error) problem(src, 'titleConvention', c.message);
        else config.titleConvention = c;
      }
      if (data.lastModifiedTime !== undefined) {
        if (typeof data.lastModifiedTime === 'string' && isTimestamp(data.lastModifiedTime))
          config.lastModifiedTime = data.lastModifiedTime;
        else
          problem(src, 'lastModifiedTime', '"lastModifiedTime" must be a UTC timestamp written YYYY-MM-DDTHH:MM:SSZ');
      }
    }
  }
  if (env.URL !== undefined && env.URL !== '') {
    const origin = parseOrigin(env.URL);
    if (origin instanceof Error) throw new Error(`the URL environment variable: ${origin.message}`);
    config.apiOrigin = origin;
  }
  const merged = { ...config, ...stripUndefined(overrides) };
  // A period or a calendar given on the command line: the period must exist in the calendar (the
  // command-line tools refuse such a --period first: cli/options.ts checkPeriodOverride).
  const newCalendar = overrides.calendar !== undefined && overrides.calendar !== config.calendar;
  if (overrides.period !== undefined || newCalendar) {
    const wrong = periodProblem(merged.calendar, merged.period.start, merged.period.end);
    const what = overrides.period !== undefined ? '--period' : `"period", with --calendar ${merged.calendar}`;
    if (wrong !== null) {
      problems.push({ file: SITE_FILE, line: 1, message: `${what}: ${wrong}` });
      // Not also every entry "outside the period": the one problem is the period.
      if (overrides.period !== undefined) merged.period = config.period;
    }
  }
  return { config: merged, problems, signature };
}

/** site.yaml's `kinds: { person: [slugs], place: [slugs] }`. */
function readKinds(src: FieldSource, value: unknown, config: SiteConfig): void {
  const kinds = asMapping(value);
  const lists = kinds === null ? null : (['person', 'place'] as const).map((k) => kinds[k] ?? []);
  const valid =
    kinds !== null &&
    lists !== null &&
    Object.keys(kinds).every((k) => k === 'person' || k === 'place') &&
    lists.every((l) => Array.isArray(l) && l.every((s) => typeof s === 'string' && SLUG_PATTERN.test(s)));
  if (!valid || lists === null) {
    problem(src, 'kinds', '"kinds" must be a mapping { person: [category slugs], place: [category slugs] }');
    return;
  }
  config.kinds = { person: lists[0] as string[], place: lists[1] as string[] };
}

/**
 * site.yaml's `webURLs: { entry, category, topic }`, each a template (core/urls.ts); a template
 * left out keeps its default. Each must begin with `{site}`, name each record (an entry by its
 * date, a category by its path or slug, a topic by its id) and use only its own placeholders.
 */
function readWebURLs(src: FieldSource, value: unknown, config: SiteConfig): void {
  const templates = asMapping(value);
  const kinds = Object.keys(WEB_URL_PLACEHOLDERS) as Array<keyof WebURLs>;
  if (templates === null || Object.keys(templates).some((k) => !kinds.includes(k as keyof WebURLs))) {
    problem(src, 'webURLs', `"webURLs" must be a mapping of templates with keys ${kinds.join(', ')}`);
    return;
  }
  const out: WebURLs = { ...config.webURLs };
  for (const kind of kinds) {
    const template = templates[kind];
    if (template === undefined) continue;
    const wrong = webURLProblem(kind, template);
    if (wrong !== null) {
      problem(src, 'webURLs', `"webURLs.${kind}": ${wrong}`);
      return;
    }
    out[kind] = template as string;
  }
  config.webURLs = out;
}

const NAMING: Readonly<Record<keyof WebURLs, readonly (readonly string[])[]>> = {
  entry: [['date'], ['yyyy', 'mm', 'dd']],
  category: [['path'], ['slug']],
  topic: [['id']],
};

/** What is wrong with one webURLs template, or null. */
export function webURLProblem(kind: keyof WebURLs, template: unknown): string | null {
  if (typeof template !== 'string') return 'must be a string';
  const allowed = WEB_URL_PLACEHOLDERS[kind];
  const used = [...template.matchAll(/\{([^}]*)\}/g)].map((m) => m[1] as string);
  const unknown = used.find((p) => !allowed.includes(p));
  if (unknown !== undefined)
    return `{${unknown}} is not a placeholder of a ${kind}'s page (${allowed.map((p) => `{${p}}`).join(', ')})`;
  if (!template.startsWith('{site}')) return 'must begin with {site}, the siteOrigin';
  if (!NAMING[kind].some((names) => names.every((n) => used.includes(n))))
    return `must name the ${kind} with ${NAMING[kind].map((ns) => ns.map((n) => `{${n}}`).join('')).join(' or ')}`;
  // A sample expansion must be a URL of the site, with nothing a URL would have to escape.
  const sample = expandWebURL(template, {
    site: 'https://example.org',
    date: '1660-01-01',
    yyyy: '1660',
    mm: '01',
    dd: '01',
    path: 'a/b',
    slug: 'b',
    id: '1',
  });
  let url: URL | null = null;
  try {
    url = new URL(sample);
  } catch {}
  if (url === null || url.origin !== 'https://example.org' || url.href !== sample || !sample.slice(19).startsWith('/'))
    return `must be {site} and a path of URL characters (e.g. {site}/diary/{date}/), not ${JSON.stringify(template)}`;
  return null;
}

/** site.yaml's `period: { start: YYYY-MM-DD, end: YYYY-MM-DD }`, dates of the site's calendar. */
function readPeriod(src: FieldSource, value: unknown, config: SiteConfig): void {
  const period = asMapping(value);
  const start = period?.start;
  const end = period?.end;
  if (period === null || typeof start !== 'string' || typeof end !== 'string' || Object.keys(period).length !== 2) {
    problem(src, 'period', '"period" must be a mapping of two dates: { start: YYYY-MM-DD, end: YYYY-MM-DD }');
    return;
  }
  // The calendar is read first: its dates are the ones that exist.
  const wrong = periodProblem(config.calendar, start, end);
  if (wrong !== null) problem(src, 'period', `"period": ${wrong}`);
  else config.period = { start, end };
}

/**
 * site.yaml's `license`: an SPDX licence id (`license: CC0-1.0`), or a name and the URL of its
 * text (`license: { name: …, url: https://… }`).
 */
function readLicense(src: FieldSource, value: unknown, config: SiteConfig): void {
  const wrong = (why: string) =>
    problem(src, 'license', `"license" must be an SPDX licence id (e.g. CC0-1.0) or { name, url }: ${why}`);
  if (typeof value === 'string') {
    const license = spdxLicense(value.trim());
    if (license === null) wrong(`${JSON.stringify(value)} is not an SPDX id (letters, digits, dots and hyphens)`);
    else config.license = license;
    return;
  }
  const given = asMapping(value);
  if (given === null || Object.keys(given).some((k) => k !== 'name' && k !== 'url')) {
    wrong('not a string, nor a mapping of name and url');
    return;
  }
  const { name, url } = given;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 200) {
    wrong('its name must be a non-empty string of at most 200 characters');
    return;
  }
  const href = typeof url === 'string' ? httpURL(url) : null;
  if (href === null) wrong(`its url must be an absolute http(s) URL, not ${JSON.stringify(url)}`);
  else config.license = { name: name.trim(), url: href } satisfies License;
}

/** An http(s) URL, normalised (`https://a.org` → `https://a.org/`), or null. */
function httpURL(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** readSiteConfig for callers that want the configuration only: throws ContentError on a problem. */
export function loadSiteConfig(
  contentDir: string,
  overrides: ConfigOverrides,
  env: Record<string, string | undefined>,
): SiteConfig {
  const { config, problems } = readSiteConfig(contentDir, overrides, env);
  if (problems.length > 0) throw new ContentError(problems, contentDir);
  return config;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
