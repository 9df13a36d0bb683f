// The comparison with Hugo (issue 18): the same records, as the bench converts them, built by
// Hugo 0.111 (Debian's package) into JSON. Each entry, category and topic becomes a content file
// of HTML (no Markdown to render) with its fields as front matter, and every page and every
// section is written as JSON through two templates: a record's fields and its HTML, a section's
// list paginated 50 a page. That is less than a build of this project writes (no search index, no
// downloads, no feeds, no year and month lists), so the comparison favours Hugo.
//
// Used by bench/rebuild.ts when `hugo` is on the PATH; it says so when it is not.

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadContent } from '../generator/content/load.ts';

/** `hugo version`'s first line, or null when there is no `hugo` on the PATH. */
export function hugoVersion(): string | null {
  const r = spawnSync('hugo', ['version'], { encoding: 'utf8' });
  if (r.error !== undefined || r.status !== 0) return null;
  return r.stdout.trim().split('\n')[0] ?? null;
}

const CONFIG = `baseURL = "https://pepys.example.org/"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
paginate = 50
[outputs]
  home = ["json"]
  page = ["json"]
  section = ["json"]
`;

// A record: its fields (front matter) and its HTML, as a JSON object.
const SINGLE = `{{- dict "title" .Title "params" .Params "html" .Content "url" .Permalink | jsonify (dict "indent" "  ") -}}
`;

// A section: one page of its records' titles and links, with the pager's figures.
const LIST = `{{- $pager := .Paginate .Pages -}}
{{- $results := slice -}}
{{- range $pager.Pages -}}{{- $results = $results | append (dict "title" .Title "url" .Permalink) -}}{{- end -}}
{{- dict "totalResults" $pager.TotalNumberOfElements "page" $pager.PageNumber "totalPages" $pager.TotalPages "results" $results | jsonify (dict "indent" "  ") -}}
`;

/** A content file of Hugo: JSON front matter, then the HTML. */
function page(front: Record<string, unknown>, html: string): string {
  return `${JSON.stringify(front, null, 2)}\n${html}\n`;
}

/** Writes the Hugo project of the content in `contentDir` into `siteDir`; its number of records. */
export async function writeHugoSite(contentDir: string, siteDir: string): Promise<number> {
  const { model } = await loadContent(contentDir, { env: {} });
  const dirs = ['layouts/_default', 'content/entries', 'content/categories', 'content/topics'];
  for (const d of dirs) mkdirSync(join(siteDir, d), { recursive: true });
  writeFileSync(join(siteDir, 'hugo.toml'), CONFIG);
  writeFileSync(join(siteDir, 'layouts/_default/single.json'), SINGLE);
  writeFileSync(join(siteDir, 'layouts/_default/list.json'), LIST);
  for (const section of ['entries', 'categories', 'topics'])
    writeFileSync(join(siteDir, 'content', section, '_index.html'), page({ title: section }, ''));
  // Ordered as the API orders them: by date, by slug, by id (weight, ascending).
  model.entries.forEach((e, i) => {
    const front = {
      title: e.title,
      date: e.date,
      weight: i + 1,
      annotationCount: e.annotationCount,
      topics: e.topicIds,
      lastmod: e.lastModifiedTime,
    };
    writeFileSync(join(siteDir, 'content/entries', `${e.date}.html`), page(front, e.entryHTML + e.footnotesHTML));
  });
  model.categories.forEach((c, i) => {
    const front = { title: c.title, weight: i + 1, parent: c.parent, topics: model.categoryTopics.get(c.slug) ?? [] };
    writeFileSync(join(siteDir, 'content/categories', `${c.slug}.html`), page(front, ''));
  });
  model.topics.forEach((t, i) => {
    const front = {
      title: t.title,
      weight: i + 1,
      orderTitle: t.orderTitle,
      kind: t.kind,
      tooltip: t.tooltipText,
      categorySlugs: t.categorySlugs,
      entries: model.topicEntries.get(t.id) ?? [],
      lastmod: t.lastModifiedTime,
    };
    writeFileSync(join(siteDir, 'content/topics', `${t.id}.html`), page(front, t.wheatleyHTML));
  });
  return model.entries.length + model.categories.length + model.topics.length;
}
