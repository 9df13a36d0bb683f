// The browsable HTML page: escaping (content cannot break out of the page), links (API URLs on the
// page's own origin), where a list page stands, the range form, structure for accessibility.

import { describe, expect, it } from 'vitest';
import { type HtmlViewInput, linkedJson, renderHtmlView } from '../generator/core/html-view.ts';

const API = 'https://api.test';
const JSON_HEADERS = { 'Content-Type': 'application/json', Allow: 'GET, HEAD, OPTIONS', ETag: '"0123456789abcdef"' };

function page(input: Partial<HtmlViewInput> & { data?: unknown }): string {
  const { data, ...rest } = input;
  return renderHtmlView({
    status: 200,
    json: JSON.stringify(data ?? {}, null, 2),
    jsonHeaders: JSON_HEADERS,
    path: '/api/v1',
    query: {},
    apiOrigin: API,
    ...rest,
  });
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescapeHtml = (s: string) => s.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] as string);
/** The JSON as the page shows it: the text of its Body section. */
const shown = (html: string) =>
  unescapeHtml(
    (/<h2 id="body-title">Body<\/h2><pre><code>([\s\S]*?)<\/code><\/pre>/.exec(html)?.[1] ?? '').replace(
      /<\/?a\b[^>]*>/g,
      '',
    ),
  );
/** The page without the text of its <pre> blocks: its own markup. */
const markup = (html: string) => html.replace(/<pre>[\s\S]*?<\/pre>/g, '<pre></pre>');

function envelope(
  totalResults: number,
  totalPages: number,
  results: number,
  next: string | null,
  previous: string | null,
) {
  return {
    totalResults,
    totalPages,
    nextPageURL: next,
    previousPageURL: previous,
    results: Array.from({ length: results }, (_, i) => ({
      date: `1661-01-${String((i % 28) + 1).padStart(2, '0')}`,
      apiURL: `${API}/api/v1/entries/1661-01-01`,
    })),
  };
}

describe('the browsable page', () => {
  it('shows content that looks like markup as text: a title with <script>, quotes, ampersands cannot break out', () => {
    const title = `</title><script>alert("x")</script> & 'quoted' "<b>"`;
    const data = {
      date: '1660-01-01',
      title,
      entryHTML: '<p onclick="evil()">Text</p><img src=x onerror=alert(1)>',
      apiURL: `${API}/api/v1/entries/1660-01-01`,
    };
    const html = page({ data, path: '/api/v1/entries/1660-01-01' });
    expect(html).not.toMatch(/<script|<img|<p onclick/i);
    expect(html).toContain(
      `<title>Entry: &lt;/title&gt;&lt;script&gt;alert("x")&lt;/script&gt; &amp; 'quoted' "&lt;b&gt;" · Pepys diary API</title>`,
    );
    expect(html).toContain('<h1>Entry: &lt;/title&gt;&lt;script&gt;');
    expect(shown(html)).toBe(JSON.stringify(data, null, 2));
  });

  it('escapes what the request brings: form values, unknown paths', () => {
    const evil = '"><script>alert(1)</script>';
    const html = renderHtmlView({
      status: 400,
      json: JSON.stringify(
        { detail: `Invalid "start" parameter: ${JSON.stringify(evil)} is not a date.`, status_code: 400 },
        null,
        2,
      ),
      jsonHeaders: JSON_HEADERS,
      path: '/api/v1/entries',
      query: { start: evil, end: "1661-01-01' onfocus='x" },
      apiOrigin: API,
    });
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).toContain('value="1661-01-01&#39; onfocus=&#39;x"');
    const unknown = renderHtmlView({
      status: 404,
      json: '{"detail": "Not found.", "status_code": 404}',
      jsonHeaders: JSON_HEADERS,
      path: '/api/v1/<svg onload=x>',
      query: {},
      apiOrigin: API,
    });
    expect(unknown).not.toContain('<svg');
  });

  it('makes every URL of the JSON a link: API URLs as paths on the page’s own origin, others as they are', () => {
    const data = {
      apiURL: `${API}/api/v1/topics/12`,
      nextPageURL: `${API}/api/v1/entries?end=1661-12-31&page=3&start=1661-01-01`,
      webURL: 'https://www.pepysdiary.com/encyclopedia/12/',
      lookalike: 'https://api.test.example.org/api/v1/topics/12',
      server: API,
      notAUrl: 'javascript:alert(1)',
      quoted: 'see "https://api.test/api/v1/topics/1"',
      html: '<a href="https://api.test/api/v1/topics/2">x</a>',
    };
    const json = JSON.stringify(data, null, 2);
    const linked = linkedJson(json, API);
    const hrefs = [...linked.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual([
      '/api/v1/topics/12',
      '/api/v1/entries?end=1661-12-31&amp;page=3&amp;start=1661-01-01',
      'https://www.pepysdiary.com/encyclopedia/12/',
      'https://api.test.example.org/api/v1/topics/12',
      '/',
    ]);
    // The text is the JSON, character for character, links or not.
    expect(unescapeHtml(linked.replace(/<\/?a\b[^>]*>/g, ''))).toBe(json);
    // Without the API's origin, nothing is rewritten.
    expect([...linkedJson(json).matchAll(/href="([^"]*)"/g)].map((m) => m[1])[0]).toBe(`${API}/api/v1/topics/12`);
  });

  it('never makes a protocol-relative link of a URL on the API origin (security)', () => {
    const json = JSON.stringify({ a: `${API}//evil.example/x`, b: `${API}/api/v1/topics/1` }, null, 2);
    const hrefs = [...linkedJson(json, API).matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual([`${API}//evil.example/x`, '/api/v1/topics/1']);
  });

  it('links a very large body without overflowing the stack, in linear time (security)', () => {
    // A 64 MB entry once answered 500 "Maximum call stack size exceeded" (a regular expression).
    const text = `<p>${'And so to bed. \\"quoted\\" '.repeat(2_200_000)}</p>`;
    const json = JSON.stringify({ entryHTML: text, apiURL: `${API}/api/v1/entries/1660-01-01` }, null, 2);
    expect(json.length).toBeGreaterThan(60_000_000);
    const linked = linkedJson(json, API);
    expect(
      linked.endsWith('"<a href="/api/v1/entries/1660-01-01">https://api.test/api/v1/entries/1660-01-01</a>"\n}'),
    ).toBe(true);
  });

  it('says where a list page stands, with the filters in force, and links to the pages around it', () => {
    const data = envelope(
      3413,
      69,
      50,
      `${API}/api/v1/entries?end=1661-12-31&page=4&start=1661-01-01`,
      `${API}/api/v1/entries?end=1661-12-31&page=2&start=1661-01-01`,
    );
    const html = page({
      data,
      path: '/api/v1/entries',
      query: { start: '1661-01-01', end: '1661-12-31', page: '003' },
    });
    expect(html).toContain(
      '<strong>Page 3 of 69</strong> · entries 101–150 of 3,413 · dates from 1661-01-01 to 1661-12-31',
    );
    expect(html).toContain('<a rel="first" href="/api/v1/entries?end=1661-12-31&amp;start=1661-01-01">');
    expect(html).toContain('<a rel="prev" href="/api/v1/entries?end=1661-12-31&amp;page=2&amp;start=1661-01-01">');
    expect(html).toContain('<a rel="next" href="/api/v1/entries?end=1661-12-31&amp;page=4&amp;start=1661-01-01">');
    expect(html).toContain('<a rel="last" href="/api/v1/entries?end=1661-12-31&amp;page=69&amp;start=1661-01-01">');

    const last = page({
      data: envelope(3413, 69, 13, null, `${API}/api/v1/entries?page=68`),
      path: '/api/v1/entries',
      query: { page: 'last' },
    });
    expect(last).toContain('<strong>Page 69 of 69</strong> · entries 3,401–3,413 of 3,413</p>');
    expect(last).not.toContain('rel="next"');
    expect(last).not.toContain('rel="last"');
    expect(last).toContain('<a rel="first" href="/api/v1/entries">');

    const empty = page({
      data: envelope(0, 1, 0, null, null),
      path: '/api/v1/entries',
      query: { start: '1662-01-01', end: '1661-01-01' },
    });
    expect(empty).toContain('<strong>Page 1 of 1</strong> · no entries · dates from 1662-01-01 to 1661-01-01');
    expect(empty).not.toMatch(/rel="(first|prev|next|last)"/);

    // Only entries are filtered: a start given to another list is not in force, and not shown.
    const topics = page({
      data: envelope(120, 3, 50, `${API}/api/v1/topics?page=2`, null),
      path: '/api/v1/topics',
      query: { start: '1661-01-01' },
    });
    expect(topics).toContain('<strong>Page 1 of 3</strong> · topics 1–50 of 120</p>');
    expect(topics).toContain('<a rel="last" href="/api/v1/topics?page=3">');
    // A detail or an error is no list page.
    expect(page({ data: { totalResults: 1, totalPages: 1, results: [] }, path: '/api/v1/topics/1' })).not.toContain(
      'class="position"',
    );
  });

  it('has a range form that works without JavaScript, on the entry lists, the root, and the 400 page', () => {
    const html = page({
      data: envelope(10, 1, 10, null, null),
      path: '/api/v1/entries',
      query: { start: '1661-01-01' },
    });
    const form = /<form[^>]*>[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
    expect(form).toMatch(/^<form method="get" action="\/api\/v1\/entries">/);
    expect(form).toContain('<label for="start">');
    expect(form).toContain('<label for="end">');
    expect(form).toContain('<input id="start" name="start" type="text"');
    expect(form).toContain('value="1661-01-01"');
    expect(form).toContain('<input id="end" name="end" type="text"');
    expect(form).toContain('<button type="submit">');
    // No client-side validation: what is typed reaches the API, which says what is wrong (400).
    expect(form).not.toMatch(/pattern=|required|type="date"/);
    expect(page({ path: '/api/v1' })).toContain('<form method="get" action="/api/v1/entries">');
    expect(page({ path: '/api/v1/entries.json' })).toContain('<form');
    expect(
      page({
        status: 400,
        data: { detail: 'Invalid "end"', status_code: 400 },
        path: '/api/v1/entries',
        query: { end: 'x' },
      }),
    ).toContain('value="x"');
    expect(page({ path: '/api/v1/entries/1660-01-01' })).not.toContain('<form');
    // The topics list has the search box only (test/search-html.test.ts), not the date range.
    expect(page({ path: '/api/v1/topics' })).not.toContain('<form method="get" action="/api/v1/entries"');
  });

  it('shows the status and headers of the JSON answer, and an error’s message', () => {
    const html = renderHtmlView({
      status: 404,
      json: '{\n  "detail": "No Entry matches the given query.",\n  "status_code": 404\n}',
      jsonHeaders: { 'Content-Type': 'application/json', Allow: 'GET, HEAD, OPTIONS' },
      path: '/api/v1/entries/1669-06-01',
      query: {},
      apiOrigin: API,
    });
    expect(html).toContain('<h1>404 Not Found</h1><p class="detail">No Entry matches the given query.</p>');
    expect(html).toContain('<pre>HTTP 404 Not Found\nContent-Type: application/json\nAllow: GET, HEAD, OPTIONS</pre>');
    expect(page({ path: '/api/v1/topics' })).toContain('ETag: "0123456789abcdef"');
  });

  it('is one accessible document: language, a skip link first, landmarks, one h1, labelled navigation, no script or asset', () => {
    const html = page({ data: envelope(120, 3, 50, `${API}/api/v1/entries?page=2`, null), path: '/api/v1/entries' });
    expect(html.startsWith('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">')).toBe(true);
    const body = markup(html).slice(markup(html).indexOf('<body>'));
    expect(body).toMatch(/^<body><a class="skip" href="#main">/);
    expect(body).toContain('<main id="main" tabindex="-1">');
    for (const landmark of [
      '<header>',
      '<main ',
      '<footer>',
      '<nav aria-label="API sections">',
      '<nav aria-label="Pages">',
    ])
      expect(body).toContain(landmark);
    expect(body.match(/<h1>/g)?.length).toBe(1);
    expect(body).toContain('<a href="/api/v1/entries" aria-current="page">Entries</a>');
    expect(markup(html)).not.toMatch(/<script|<link|<img|\ssrc=|url\(|@import/i);
    // Every link of the page's own is on its origin.
    for (const [, href] of markup(html).matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^(\/|#)/);
  });

  it('weighs a few KB besides the JSON it shows', () => {
    const data = envelope(3413, 69, 50, `${API}/api/v1/entries?page=2`, null);
    const json = JSON.stringify(data, null, 2);
    const html = page({ data, path: '/api/v1/entries' });
    // The page's own markup, and about 40 bytes of link markup for each of the 51 URLs shown.
    expect(Buffer.byteLength(markup(html))).toBeLessThan(5 * 1024);
    expect(Buffer.byteLength(html) - Buffer.byteLength(json)).toBeLessThan(5 * 1024 + 51 * 45);
  });

  it('offers the .json address of the same answer, with its recognised parameters', () => {
    expect(
      page({
        data: envelope(10, 1, 10, null, null),
        path: '/api/v1/entries',
        query: { start: '1661-01-01', page: '1' },
      }),
    ).toContain('href="/api/v1/entries.json?page=1&amp;start=1661-01-01"');
    expect(page({ path: '/api/v1/' })).toContain('href="/api/v1.json"');
    expect(
      page({ status: 404, data: { detail: 'Not found.', status_code: 404 }, path: '/api/v1/nothing' }),
    ).not.toContain('.json address');
  });
});
