// The browsable page of an answer, for clients that prefer text/html (a person in a browser): the
// same answer, with the same status, its JSON shown exactly as a JSON client gets it with every
// URL a link, where the page stands in its list (with the next and previous pages), the status
// and headers of the JSON answer, and a form to try a date range. One self-contained document:
// no script, no asset from anywhere.

import type { ListQuery } from './lists.ts';

export interface HtmlViewInput {
  status: number;
  /** The JSON body, as a JSON client gets it. */
  json: string;
  /** The headers of the JSON answer. */
  jsonHeaders: Readonly<Record<string, string>>;
  /** The request's path and query. */
  path: string;
  query: ListQuery;
}

const REASONS: Record<number, string> = { 200: 'OK', 400: 'Bad Request', 404: 'Not Found', 405: 'Method Not Allowed', 503: 'Service Unavailable' };

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

/** A link target on the page's own origin for an absolute API URL; other URLs stay as they are. */
function href(url: string): string {
  const m = /^https?:\/\/[^/]+(\/api\/.*)$/.exec(url);
  return m ? (m[1] as string) : url;
}

const URL_STRING = /"(https?:\/\/[^"\\\s]*)"/g;

/** The JSON text, escaped, with each URL string a link. */
function linkedJson(json: string): string {
  let out = '';
  let last = 0;
  for (const m of json.matchAll(URL_STRING)) {
    const url = m[1] as string;
    out += escapeText(json.slice(last, m.index)) + `"<a href="${escapeAttr(href(url))}">${escapeText(url)}</a>"`;
    last = (m.index ?? 0) + m[0].length;
  }
  return out + escapeText(json.slice(last));
}

interface Envelope {
  totalResults: number;
  totalPages: number;
  nextPageURL: string | null;
  previousPageURL: string | null;
}

function asEnvelope(data: unknown): Envelope | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  return typeof d.totalResults === 'number' && typeof d.totalPages === 'number' && Array.isArray(d.results) ? (d as unknown as Envelope) : null;
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

/** The page number a list request is on (its `page`, `last`, or 1). */
function currentPage(query: ListQuery, totalPages: number): number {
  if (query.page === undefined || query.page === '') return 1;
  if (query.page === 'last') return totalPages;
  return Number(query.page);
}

function heading(path: string, data: unknown, status: number): string {
  if (status >= 400 && typeof data === 'object' && data !== null && 'detail' in data) return `Error ${status}`;
  const parts = path.replace(/\.json$/, '').split('/').filter((p) => p !== '').slice(2);
  if (parts.length === 0) return 'Pepys diary API';
  const [collection = '', key] = parts;
  const name = collection.charAt(0).toUpperCase() + collection.slice(1);
  if (key === undefined) return name;
  const title = typeof data === 'object' && data !== null && 'title' in data ? String((data as { title: unknown }).title) : key;
  return `${name}: ${title}`;
}

function breadcrumbs(path: string): string {
  const parts = path.replace(/\.json$/, '').split('/').filter((p) => p !== '');
  const items: string[] = [];
  for (let i = 1; i < parts.length; i++) {
    const target = `/${parts.slice(0, i + 1).join('/')}`;
    const label = i === 1 ? 'API' : (parts[i] as string);
    items.push(i === parts.length - 1 ? `<li aria-current="page">${escapeText(label)}</li>` : `<li><a href="${escapeAttr(target)}">${escapeText(label)}</a></li>`);
  }
  return `<nav aria-label="Breadcrumb"><ol class="crumbs">${items.join('')}</ol></nav>`;
}

function position(envelope: Envelope, query: ListQuery): string {
  const page = currentPage(query, envelope.totalPages);
  const filters = [query.start ? `from ${query.start}` : '', query.end ? `to ${query.end}` : ''].filter((f) => f !== '').join(' ');
  const results = `${envelope.totalResults.toLocaleString('en-GB')} result${envelope.totalResults === 1 ? '' : 's'}`;
  const links = [
    envelope.previousPageURL === null ? '' : `<a rel="prev" href="${escapeAttr(href(envelope.previousPageURL))}">← Previous page</a>`,
    envelope.nextPageURL === null ? '' : `<a rel="next" href="${escapeAttr(href(envelope.nextPageURL))}">Next page →</a>`,
  ].filter((l) => l !== '');
  return (
    `<p class="position">Page ${page} of ${envelope.totalPages} · ${results}${filters === '' ? '' : ` · entries ${escapeText(filters)}`}</p>` +
    (links.length === 0 ? '' : `<nav aria-label="Pages" class="pages">${links.join(' ')}</nav>`)
  );
}

function rangeForm(query: ListQuery): string {
  const value = (v: string | undefined) => (v === undefined ? '' : ` value="${escapeAttr(v)}"`);
  return (
    '<form class="range" method="get" action="/api/v1/entries" aria-labelledby="range-title">' +
    '<h2 id="range-title">Entries between two dates</h2>' +
    `<p><label for="start">Start</label> <input id="start" name="start" type="date"${value(query.start)}></p>` +
    `<p><label for="end">End</label> <input id="end" name="end" type="date"${value(query.end)}></p>` +
    '<p><button type="submit">Show entries</button></p></form>'
  );
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}' +
  'header,main,footer{max-width:60rem;margin:0 auto;padding:0 1rem}' +
  'a{color:#0b4f9c}a:focus,button:focus,input:focus{outline:3px solid #b35c00;outline-offset:2px}' +
  '.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.25rem}' +
  '.crumbs{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}.crumbs li+li::before{content:"/";margin-right:.5rem;color:#555}' +
  'pre{background:#f4f4f4;border:1px solid #ccc;padding:.75rem;overflow:auto;white-space:pre-wrap;word-break:break-word}' +
  '.pages a{margin-right:1rem}.range{border-top:1px solid #ccc;margin-top:1.5rem}' +
  'input,button{font:inherit;padding:.2rem .4rem}button{background:#0b4f9c;color:#fff;border:0;border-radius:3px;padding:.3rem .8rem}';

/** The browsable HTML page of a JSON answer. */
export function renderHtmlView(input: HtmlViewInput): string {
  const data = parse(input.json);
  const envelope = asEnvelope(data);
  const title = heading(input.path, data, input.status);
  const statusLine = `HTTP ${input.status} ${REASONS[input.status] ?? ''}`.trimEnd();
  const headerLines = Object.entries(input.jsonHeaders).map(([k, v]) => `${k}: ${v}`).join('\n');
  const isEntries = /^\/api\/v1\/entries(?:\.json)?$/.test(input.path) || /^\/api\/v1\/?$/.test(input.path);
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeText(title)} · ${input.status}</title><style>${STYLE}</style></head><body>` +
    '<a class="skip" href="#main">Skip to the answer</a>' +
    `<header>${breadcrumbs(input.path)}</header>` +
    `<main id="main" tabindex="-1"><h1>${escapeText(title)}</h1>` +
    (envelope === null ? '' : position(envelope, input.query)) +
    `<section aria-labelledby="answer-title"><h2 id="answer-title">Answer</h2>` +
    `<pre class="headers" aria-label="Status and headers">${escapeText(`${statusLine}\n${headerLines}`)}</pre>` +
    `<pre class="json" aria-label="JSON body"><code>${linkedJson(input.json)}</code></pre></section>` +
    (isEntries ? rangeForm(input.query) : '') +
    '</main><footer><p>JSON is the default for every client; add <code>.json</code> to a path, or ask for ' +
    '<code>Accept: application/json</code>, to get it in a browser.</p></footer></body></html>\n'
  );
}
