// The feeds of the diary, as pepysdiary.com's readers follow it: an Atom feed (RFC 4287) and a
// JSON Feed 1.1 of the latest entries by date, newest first, each item linking the entry's page
// (webURL) and its API record (apiURL), with its text and footnotes. Written by feedsmith, a
// library made for both formats; served by the handler at FEED_PATHS (core/router.ts).

import { generateAtomFeed, generateJsonFeed } from 'feedsmith';
import { FEED_FILES } from '../core/files.ts';
import { licenseText } from '../core/license.ts';
import type { Entry, Model } from '../core/model.ts';
import { entryApiURL, entryWebURL } from '../core/urls.ts';
import type { TextFile } from '../output/file.ts';

/** How many entries a feed holds. */
export const FEED_SIZE = 50;

/** Where the feeds are served (the handler routes these paths to FEED_FILES). */
const FEED_URL_PATHS = { atom: '/api/v1/feeds/atom', json: '/api/v1/feeds/json' } as const;

/** The latest entries by date, newest first. */
function latest(model: Model): Entry[] {
  return model.entries.slice(-FEED_SIZE).reverse();
}

/** An entry's text and, after a rule, its footnotes. */
function contentOf(e: Entry): string {
  return e.footnotesHTML.trim() === '' ? e.entryHTML : `${e.entryHTML}\n<hr>\n${e.footnotesHTML}`;
}

/** The feed's own time: the latest lastModifiedTime of what it holds (the site's when empty). */
function updatedOf(model: Model, entries: readonly Entry[]): Date {
  let t = model.config.lastModifiedTime;
  for (const e of entries) if (e.lastModifiedTime > t) t = e.lastModifiedTime;
  return new Date(t);
}

function atomFeed(model: Model): string {
  const { apiOrigin, siteOrigin, title, author } = model.config;
  const entries = latest(model);
  const self = `${apiOrigin}${FEED_URL_PATHS.atom}`;
  const xml = generateAtomFeed(
    {
      id: self,
      title: { value: title },
      updated: updatedOf(model, entries),
      authors: [{ name: author }],
      // The licence of the data, in words with the URL of its text (site.yaml `license`).
      ...(model.config.license === null ? {} : { rights: { value: licenseText(model.config.license) } }),
      links: [
        { href: self, rel: 'self', type: 'application/atom+xml' },
        { href: `${siteOrigin}/`, rel: 'alternate', type: 'text/html' },
        { href: `${apiOrigin}${FEED_URL_PATHS.json}`, rel: 'alternate', type: 'application/feed+json' },
      ],
      entries: entries.map((e) => ({
        id: entryApiURL(apiOrigin, e.date),
        title: { value: e.title },
        updated: new Date(e.lastModifiedTime),
        links: [
          { href: entryWebURL(model.config, e.date), rel: 'alternate', type: 'text/html' },
          { href: entryApiURL(apiOrigin, e.date), rel: 'related', type: 'application/json' },
        ],
        content: { type: 'html', value: contentOf(e) },
      })),
    },
    { lenient: false },
  );
  return typeof xml === 'string' ? xml : String(xml);
}

function jsonFeed(model: Model): string {
  const { apiOrigin, siteOrigin, title, author } = model.config;
  const feed = generateJsonFeed({
    title,
    home_page_url: `${siteOrigin}/`,
    feed_url: `${apiOrigin}${FEED_URL_PATHS.json}`,
    authors: [{ name: author }],
    items: latest(model).map((e) => ({
      id: entryApiURL(apiOrigin, e.date),
      url: entryWebURL(model.config, e.date),
      external_url: entryApiURL(apiOrigin, e.date),
      title: e.title,
      content_html: contentOf(e),
      date_modified: new Date(e.lastModifiedTime),
    })),
  });
  return JSON.stringify(feed, null, 2);
}

export function feedFiles(model: Model): TextFile[] {
  return [
    { path: FEED_FILES.atom, body: atomFeed(model) },
    { path: FEED_FILES.json, body: jsonFeed(model) },
  ];
}
