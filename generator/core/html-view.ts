// The browsable page of an answer, for clients that prefer text/html (a person in a browser), in
// the manner of Django REST Framework's browsable API: the same answer with the same status, its
// JSON shown exactly as a JSON client gets it with every URL a link (API URLs as paths on the
// page's own origin, so that a person exploring a mirror stays on it), where a list page stands
// (page 3 of 69, the filters in force) with links to the pages around it, the status and headers
// of the JSON answer, a form to try a date range, and on the entries and topics lists a search box
// (the matches shown with their snippets). One self-contained document: inline CSS, no
// script, nothing from any other origin; it works offline and without JavaScript. Runtime-free.

import type { CalendarName } from './calendar.ts';
import { REASON_PHRASES } from './errors.ts';
import type { License } from './license.ts';
import { entryFilters, type ListQuery } from './lists.ts';
import { type LinkFilters, pageURL } from './pagination.ts';
import { ALPHABETICAL, type FormField, PARAMETERS, type ParameterName, parametersOf } from './parameters.ts';
import { PEPYS_PERIOD, type Period } from './period.ts';
import { isBlankSearch } from './search/query.ts';
import { apiName, PEPYS_TITLE } from './site-index.ts';

export interface HtmlViewInput {
  status: number;
  /** The JSON body, as a JSON client gets it. */
  json: string;
  /** The headers of the JSON answer. */
  jsonHeaders: Readonly<Record<string, string>>;
  /** The request's path, as sent. */
  path: string;
  query: ListQuery;
  /** `{base}` of the API URLs in the body; those link to the same path on the page's origin. */
  apiOrigin?: string | undefined;
  /** The diary's period, for the date form's hint (the Pepys diary's when unknown). */
  period?: Period | undefined;
  /** The API's name (site-index.ts apiName; the Pepys diary's when unknown). */
  name?: string | undefined;
  /** The calendar of the dates in `start` and `end` (the Pepys diary's when unknown). */
  calendar?: CalendarName | undefined;
  /** The licence of the data, stated in the footer (none when null or unknown). */
  license?: License | null | undefined;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** Escaped for an attribute value (always double-quoted here). */
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
/** Escaped for text: quotes may stay (the JSON's many quotes would triple its size otherwise). */
const escText = (s: string) => s.replace(/[&<>]/g, (c) => ESCAPES[c] as string);

/**
 * A URL the page links to: one on the API's origin becomes its path on the page's own origin,
 * unless that path would begin with `//` (a protocol-relative link to another host): such a URL
 * stays absolute, on the API's origin.
 */
function linkTarget(url: string, apiOrigin: string | undefined): string {
  if (apiOrigin === undefined) return url;
  if (url === apiOrigin) return '/';
  if (!url.startsWith(`${apiOrigin}/`)) return url;
  const path = url.slice(apiOrigin.length);
  return path.startsWith('//') ? url : path;
}

const WHOLE_URL = /^https?:\/\/[^\s"<>\\]+$/;

/**
 * The JSON string tokens of a JSON text that start with `"http`: [start, end) of each, quotes
 * included. A plain scan, linear and stack-free whatever the size (a regular expression with
 * alternation over a 60 MB body overflowed the stack).
 */
function* urlTokens(json: string): Generator<[number, number]> {
  let i = json.indexOf('"');
  while (i !== -1) {
    let j = i + 1;
    for (;;) {
      const c = json.charCodeAt(j);
      if (Number.isNaN(c)) return;
      if (c === 0x5c) j += 2;
      else if (c === 0x22) break;
      else j++;
    }
    if (json.startsWith('"http', i)) yield [i, j + 1];
    i = json.indexOf('"', j + 1);
  }
}

/**
 * The JSON text, escaped for HTML, each string value that is a whole URL made a link. Only the
 * markup is added: the text a reader sees (and copies) is the JSON, character for character.
 */
export function linkedJson(json: string, apiOrigin?: string): string {
  let out = '';
  let last = 0;
  for (const [at, end] of urlTokens(json)) {
    const token = json.slice(at, end);
    let value: unknown;
    try {
      value = JSON.parse(token);
    } catch {
      continue;
    }
    if (typeof value !== 'string' || !WHOLE_URL.test(value)) continue;
    out += `${escText(json.slice(last, at))}"<a href="${esc(linkTarget(value, apiOrigin))}">${escText(token.slice(1, -1))}</a>"`;
    last = end;
  }
  return out + escText(json.slice(last));
}

interface Envelope {
  totalResults: number;
  totalPages: number;
  nextPageURL: string | null;
  previousPageURL: string | null;
  results: unknown[];
}

function asEnvelope(data: unknown): Envelope | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  const isLink = (v: unknown) => v === null || typeof v === 'string';
  return typeof d.totalResults === 'number' &&
    typeof d.totalPages === 'number' &&
    Array.isArray(d.results) &&
    isLink(d.nextPageURL) &&
    isLink(d.previousPageURL)
    ? (d as unknown as Envelope)
    : null;
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

/** 3413 → "3,413", the same on every runtime (no dependence on the ICU data a runtime has). */
function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const SINGULAR: Readonly<Record<string, string>> = { entries: 'Entry', categories: 'Category', topics: 'Topic' };

/** The API-relative parts of the path: [] for the root, [collection] or [collection, key]. */
function apiParts(path: string): string[] | null {
  const m = /^\/api\/v1(?:\.json|\/?)$/.exec(path);
  if (m !== null) return [];
  if (!path.startsWith('/api/v1/')) return null;
  return path
    .slice('/api/v1/'.length)
    .replace(/\.json$/, '')
    .split('/');
}

function heading(parts: string[] | null, data: unknown, status: number, apiTitle: string): string {
  if (status >= 400) return `${status} ${REASON_PHRASES[status] ?? 'Error'}`;
  if (parts === null) return apiTitle;
  const [collection = '', key] = parts;
  if (parts.length === 0) return apiTitle;
  if (collection === 'schema') return 'OpenAPI document';
  const name = collection.charAt(0).toUpperCase() + collection.slice(1);
  if (key === undefined) return name;
  const title =
    typeof data === 'object' && data !== null && 'title' in data ? String((data as { title: unknown }).title) : key;
  return `${SINGULAR[collection] ?? name}: ${title}`;
}

const SECTIONS: ReadonlyArray<[string, string]> = [
  ['API', '/api/v1'],
  ['Entries', '/api/v1/entries'],
  ['Categories', '/api/v1/categories'],
  ['Topics', '/api/v1/topics'],
  ['Schema', '/api/v1/schema'],
];

function sectionNav(parts: string[] | null): string {
  const current = parts === null ? null : parts.length === 0 ? '/api/v1' : `/api/v1/${parts[0] as string}`;
  const items = SECTIONS.map(
    ([label, target]) => `<li><a href="${target}"${target === current ? ' aria-current="page"' : ''}>${label}</a></li>`,
  );
  return `<nav aria-label="API sections"><ul class="bar">${items.join('')}</ul></nav>`;
}

/** The page number a list request is on (its `page`, `last`, or 1). */
function currentPage(query: ListQuery, totalPages: number): number {
  if (query.page === undefined || query.page === '') return 1;
  if (query.page === 'last') return totalPages;
  return Number(query.page);
}

function position(
  envelope: Envelope,
  path: string,
  collection: string,
  query: ListQuery,
  apiOrigin: string | undefined,
  calendar: CalendarName,
): string {
  const page = currentPage(query, envelope.totalPages);
  const shown = envelope.results.length;
  const filters: LinkFilters =
    collection === 'entries' ? ((v) => (v.ok ? v.value : {}))(entryFilters(query, calendar)) : {};
  const searching = collection !== 'categories' && !isBlankSearch(query.search);
  if (searching) {
    filters.search = query.search as string;
    if (query.ordering !== undefined && query.ordering !== '') filters.ordering = query.ordering;
  }
  const inForce = [
    filters.start === undefined ? '' : `from ${filters.start}`,
    filters.end === undefined ? '' : `to ${filters.end}`,
  ]
    .filter((f) => f !== '')
    .join(' ');
  const searched = searching ? ` · matching ${escText(JSON.stringify(filters.search))}` : '';
  let range = `no ${collection}`;
  if (shown > 0) {
    const first = page < envelope.totalPages ? (page - 1) * shown + 1 : envelope.totalResults - shown + 1;
    range = `${collection} ${thousands(first)}–${thousands(first + shown - 1)} of ${thousands(envelope.totalResults)}`;
  }
  const listPath = path.replace(/\.json$/, '');
  const link = (rel: string, label: string, target: string | null) =>
    target === null
      ? `<li><span class="off">${label}</span></li>`
      : `<li><a rel="${rel}" href="${esc(target)}">${label}</a></li>`;
  const previous = envelope.previousPageURL === null ? null : linkTarget(envelope.previousPageURL, apiOrigin);
  const next = envelope.nextPageURL === null ? null : linkTarget(envelope.nextPageURL, apiOrigin);
  return (
    `<p class="position"><strong>Page ${thousands(page)} of ${thousands(envelope.totalPages)}</strong> · ${range}` +
    `${inForce === '' ? '' : ` · dates ${escText(inForce)}`}${searched}</p>` +
    `<nav aria-label="Pages"><ul class="bar">` +
    link('first', 'First page', page > 1 ? pageURL(listPath, filters, 1) : null) +
    link('prev', '← Previous page', previous) +
    link('next', 'Next page →', next) +
    link('last', 'Last page', page < envelope.totalPages ? pageURL(listPath, filters, envelope.totalPages) : null) +
    '</ul></nav>'
  );
}

function rangeForm(query: ListQuery, period: Period): string {
  const fields = formFields('range')
    .map(({ name, form }) => {
      const v = query[name];
      return (
        `<p><label for="${name}">${form.label}</label><br>` +
        `<input id="${name}" name="${name}" type="text" size="12" autocomplete="off" spellcheck="false" aria-describedby="date-hint"` +
        `${v === undefined || v === '' ? '' : ` value="${esc(v)}"`}></p>`
      );
    })
    .join('');
  return (
    '<section aria-labelledby="range-title" class="range"><h2 id="range-title">Entries between two dates</h2>' +
    '<form method="get" action="/api/v1/entries">' +
    `<p id="date-hint">Write dates as YYYY-MM-DD (the diary runs from ${period.start} to ${period.end}); leave one empty for an open range.</p>` +
    `<div class="fields">${fields}<p><button type="submit">Show entries</button></p></div>` +
    '</form></section>'
  );
}

/** The rows of the parameter table with a field in this form, in the table's order. */
function formFields(form: FormField['form']): Array<{ name: ParameterName; form: FormField }> {
  return PARAMETERS.flatMap((p) => {
    const field: FormField | undefined = 'form' in p ? p.form : undefined;
    return field?.form === form ? [{ name: p.name, form: field }] : [];
  });
}

/** The search box of the entries or the topics list, keeping the dates in force. */
function searchForm(collection: 'entries' | 'topics', query: ListQuery): string {
  // The date range in force is kept (on the lists that take it).
  const hidden = formFields('range')
    .filter(({ name }) => parametersOf(collection).some((p) => p.name === name))
    .filter(({ name }) => query[name] !== undefined && query[name] !== '')
    .map(({ name }) => `<input type="hidden" name="${name}" value="${esc(query[name] as string)}">`)
    .join('');
  const field = (name: ParameterName, form: FormField): string => {
    const label = `<p><label for="${name}">${form.label}</label><br>`;
    if (form.input === 'words') {
      const value = query[name] ?? '';
      return `${label}<input id="${name}" name="${name}" type="search" size="32" maxlength="500" aria-describedby="search-hint"${value === '' ? '' : ` value="${esc(value)}"`}></p>`;
    }
    const relevance = query[name] === 'relevance';
    return (
      `${label}<select id="${name}" name="${name}">` +
      `<option value=""${relevance ? '' : ' selected'}>${collection === 'entries' ? 'By date' : 'By id'}</option>` +
      `<option value="relevance"${relevance ? ' selected' : ''}>Most relevant first</option></select></p>`
    );
  };
  return (
    `<section aria-labelledby="search-title" class="range"><h2 id="search-title">Search the ${collection}</h2>` +
    `<form method="get" action="/api/v1/${collection}" role="search">${hidden}` +
    '<p id="search-hint">Words are all required; "a phrase" in quotes; <code>or</code> between two words for either; <code>-word</code> to leave out.</p>' +
    `<div class="fields">${formFields('search')
      .map(({ name, form }) => field(name, form))
      .join('')}` +
    `<p><button type="submit">Search</button></p></div></form></section>`
  );
}

/** A snippet as the API writes it: escaped text and <mark> elements, nothing else. */
const SNIPPET = /^(?:[^<>]|<mark>|<\/mark>)*$/;

/** The matches of a search answer with their snippets, each linking to its record. */
function matches(envelope: Envelope, apiOrigin: string | undefined): string {
  const items = envelope.results.flatMap((r) => {
    if (typeof r !== 'object' || r === null) return [];
    const { title, apiURL, snippet } = r as { title?: unknown; apiURL?: unknown; snippet?: unknown };
    if (typeof title !== 'string' || typeof apiURL !== 'string' || typeof snippet !== 'string') return [];
    const shown = SNIPPET.test(snippet) ? snippet : escText(snippet);
    return [`<li><a href="${esc(linkTarget(apiURL, apiOrigin))}">${escText(title)}</a><br>${shown}</li>`];
  });
  return items.length === 0
    ? ''
    : `<section aria-labelledby="matches-title"><h2 id="matches-title">Matches</h2><ol class="hits">${items.join('')}</ol></section>`;
}

// Colours meet WCAG AA contrast on their backgrounds (the lowest, #595959 on #f5f5f5, is 6.4:1).
const STYLE =
  'body{font:1rem/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}' +
  'header,main,footer{max-width:64rem;margin:0 auto;padding:0 1rem}' +
  'a{color:#0b4f9c}a:focus-visible,button:focus-visible,input:focus-visible,main:focus-visible{outline:3px solid #b35c00;outline-offset:2px}' +
  '.skip{position:absolute;left:-999rem}.skip:focus{left:1rem;top:.5rem;background:#fff;padding:.25rem .5rem;z-index:1}' +
  '.bar{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1.25rem}[aria-current]{font-weight:bold}' +
  '.off{color:#595959}.detail{font-weight:bold}' +
  'pre{background:#f5f5f5;border:1px solid #bbb;padding:.75rem;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.9rem}' +
  '.range{border:1px solid #bbb;border-radius:3px;padding:0 1rem;margin:1rem 0}.range h2{font-size:1.1rem}' +
  '.fields{display:flex;flex-wrap:wrap;gap:0 1.5rem;align-items:flex-end}.fields p{margin:0 0 1rem}' +
  'input,button,select{font:inherit;padding:.2rem .4rem}input,select{border:1px solid #595959}' +
  '.hits li{margin:0 0 .75rem}mark{background:#fff3a3;color:inherit}' +
  'button{background:#0b4f9c;color:#fff;border:0;border-radius:3px;padding:.3rem .8rem;cursor:pointer}' +
  'footer{border-top:1px solid #bbb;margin-top:2rem;color:#333}';

/** The footer's line of the data's licence: a link to its text (a link, not an asset). */
function licenseLine(license: License): string {
  return `<p>The data is published under <a rel="license" href="${esc(license.url)}">${escText(license.name)}</a>.</p>`;
}

/** The browsable HTML page of a JSON answer. */
export function renderHtmlView(input: HtmlViewInput): string {
  const { status, path, query, apiOrigin } = input;
  const data = parse(input.json);
  const parts = apiParts(path);
  const collection = parts?.[0];
  const envelope = status === 200 && parts?.length === 1 ? asEnvelope(data) : null;
  const name = input.name ?? apiName(PEPYS_TITLE);
  const title = heading(parts, data, status, name);
  const detail =
    status >= 400 &&
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { detail?: unknown }).detail === 'string'
      ? `<p class="detail">${escText((data as { detail: string }).detail)}</p>`
      : '';
  const statusLine = `HTTP ${status} ${REASON_PHRASES[status] ?? ''}`.trimEnd();
  const headerLines = Object.entries(input.jsonHeaders)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  const showsForm = parts !== null && (parts.length === 0 || (parts.length === 1 && collection === 'entries'));
  const jsonPath =
    status === 200 && parts !== null
      ? parts.length === 0
        ? '/api/v1.json'
        : `${path.replace(/\.json$/, '')}.json`
      : null;
  // The same answer as JSON, for a browser: the `.json` spelling with the recognised parameters.
  const queryString = ALPHABETICAL.filter((name) => name !== 'format')
    .filter((name) => query[name] !== undefined && query[name] !== '')
    .map((name) => `${name}=${encodeURIComponent(query[name] as string)}`)
    .join('&');
  const jsonLink = jsonPath === null ? '' : `${jsonPath}${queryString === '' ? '' : `?${queryString}`}`;
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escText(title)} · ${escText(name)}</title><style>${STYLE}</style></head><body>` +
    '<a class="skip" href="#main">Skip to the answer</a>' +
    `<header>${sectionNav(parts)}</header>` +
    `<main id="main" tabindex="-1"><h1>${escText(title)}</h1>${detail}` +
    (envelope === null || collection === undefined
      ? ''
      : position(envelope, path, collection, query, apiOrigin, input.calendar ?? 'julian')) +
    (showsForm ? rangeForm(query, input.period ?? PEPYS_PERIOD) : '') +
    (parts?.length === 1 && (collection === 'entries' || collection === 'topics')
      ? searchForm(collection, query)
      : '') +
    (envelope === null || isBlankSearch(query.search) ? '' : matches(envelope, apiOrigin)) +
    `<section aria-labelledby="head-title"><h2 id="head-title">Status and headers</h2><pre>${escText(`${statusLine}\n${headerLines}`)}</pre></section>` +
    `<section aria-labelledby="body-title"><h2 id="body-title">Body</h2><pre><code>${linkedJson(input.json, apiOrigin)}</code></pre></section>` +
    '</main><footer><p>This page is for people. Every other client gets the JSON above' +
    (jsonLink === ''
      ? ''
      : `, and so does a browser at <a href="${esc(jsonLink)}">the <code>.json</code> address</a>`) +
    '. The API is described by its <a href="/api/v1/schema">OpenAPI document</a>.</p>' +
    (input.license == null ? '' : licenseLine(input.license)) +
    '</footer></body></html>\n'
  );
}
