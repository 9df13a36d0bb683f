// The browsable page's search box and matches (issue 16).

import { describe, expect, it } from 'vitest';
import { renderHtmlView } from '../generator/core/html-view.ts';
import type { ListQuery } from '../generator/core/lists.ts';

const API = 'https://api.test';

function page(path: string, query: ListQuery, data: unknown = {}): string {
  return renderHtmlView({
    status: 200,
    json: JSON.stringify(data, null, 2),
    jsonHeaders: { 'Content-Type': 'application/json' },
    path,
    query,
    apiOrigin: API,
  });
}

const answer = {
  totalResults: 2,
  totalPages: 1,
  nextPageURL: null,
  previousPageURL: null,
  results: [
    {
      date: '1665-06-07',
      title: 'Wednesday 7 June 1665',
      apiURL: `${API}/api/v1/entries/1665-06-07`,
      snippet: '… the <mark>plague</mark> in Drury Lane &#60;sic&#62;',
    },
    { date: '1665-06-08', title: 'Bad <b>', apiURL: `${API}/api/v1/entries/1665-06-08`, snippet: '<img src=x>' },
  ],
};

describe('the search box', () => {
  it('is on the entries and topics lists, keeps the search, the order and the dates', () => {
    const html = page('/api/v1/entries', { search: '"so to bed"', ordering: 'relevance', start: '1665-01-01' }, answer);
    const form = /<form[^>]*role="search"[^>]*>[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
    expect(form).toContain('action="/api/v1/entries"');
    expect(form).toContain('name="search"');
    expect(form).toContain('value="&quot;so to bed&quot;"');
    expect(form).toContain('<option value="relevance" selected>');
    expect(form).toContain('<input type="hidden" name="start" value="1665-01-01">');
    expect(page('/api/v1/topics', {})).toContain('action="/api/v1/topics" role="search"');
    expect(page('/api/v1/categories', {})).not.toContain('role="search"');
    expect(page('/api/v1/entries/1665-06-07', {})).not.toContain('role="search"');
  });

  it('shows the matches with their snippets, marks kept and anything else escaped', () => {
    const html = page('/api/v1/entries', { search: 'plague' }, answer);
    expect(html).toContain(
      '<li><a href="/api/v1/entries/1665-06-07">Wednesday 7 June 1665</a><br>… the <mark>plague</mark> in Drury Lane &#60;sic&#62;</li>',
    );
    expect(html).toContain('<li><a href="/api/v1/entries/1665-06-08">Bad &lt;b&gt;</a><br>&lt;img src=x&gt;</li>');
    expect(html).toContain('· matching "plague"');
    expect(page('/api/v1/entries', {}, answer)).not.toContain('Matches</h2>');
  });

  it('keeps the search in the page links and in the .json address', () => {
    const many = {
      ...answer,
      totalResults: 120,
      totalPages: 3,
      nextPageURL: `${API}/api/v1/entries?page=2&search=plague`,
    };
    const html = page('/api/v1/entries', { search: 'plague', ordering: 'relevance' }, many);
    expect(html).toContain('href="/api/v1/entries?ordering=relevance&amp;page=3&amp;search=plague"');
    expect(html).toContain('/api/v1/entries.json?ordering=relevance&amp;search=plague');
  });
});
