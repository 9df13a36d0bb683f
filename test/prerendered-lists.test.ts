// Which lists the build writes out as files (core/prerendered.ts): the unfiltered lists, and each
// year and month of the period that has entries; the file count follows the content, not the
// period. An empty year's or month's list is computed by the handler, byte for byte the file it
// was: test/fixtures/pepys-sample-empty-lists.sha256 holds the files of the sample's 13 months
// without entries as a build wrote them before (at cb2e903), and each is answered as it was.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../generator/content/load.ts';
import { SITE_INDEX_FILE } from '../generator/core/files.ts';
import { handle } from '../generator/core/handler.ts';
import type { Model } from '../generator/core/model.ts';
import { prerenderedLists } from '../generator/core/prerendered.ts';
import { parseSiteIndex, type SiteIndex } from '../generator/core/site-index.ts';
import { renderSite } from '../generator/render/render-site.ts';
import { smallSite, writeContent } from './helpers/content.ts';

const CONTENT = join(import.meta.dirname, '..', 'content');
const encoder = new TextEncoder();

/** A model's files in memory (no downloads, no search index: neither depends on the lists). */
function filesOf(model: Model): Map<string, Uint8Array> {
  const rendered = renderSite(model, undefined, { withoutDownloads: true, withoutSearchIndex: true });
  return new Map(rendered.map((f) => [f.path, typeof f.body === 'string' ? encoder.encode(f.body) : f.body]));
}

function siteOf(files: ReadonlyMap<string, Uint8Array>): SiteIndex {
  const index = parseSiteIndex(new TextDecoder().decode(files.get(SITE_INDEX_FILE)));
  if (!index.ok) throw new Error(index.error);
  return index.value;
}

async function get(site: SiteIndex, files: ReadonlyMap<string, Uint8Array>, target: string) {
  const [path, query = ''] = target.split('?');
  const r = await handle({ method: 'GET', path: path as string, query, header: () => null }, site, (file) => {
    return files.get(file) ?? null;
  });
  return { status: r.status, body: r.body, etag: r.headers.ETag };
}

/** The last day of a month of the sample's years (1660-1669: their leap years are Julian and Gregorian alike). */
const monthEnd = (year: number, month: number) =>
  `${year}-${String(month).padStart(2, '0')}-${new Date(Date.UTC(year, month, 0)).getUTCDate()}`;

const hash16 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

describe('pre-rendered lists', () => {
  let model: Model;
  let files: Map<string, Uint8Array>;
  let site: SiteIndex;
  beforeAll(async () => {
    model = (await loadContent(CONTENT)).model;
    files = filesOf(model);
    site = siteOf(files);
  });

  it('are the years and months that have entries, and answer an empty month as the file it had', async () => {
    const filled = new Set(model.entries.map((e) => e.date.slice(0, 7)));
    const written = new Set(
      [...files.keys()].flatMap((path) => /^api\/v1\/entries\/months\/(\d{4}-\d{2})\//.exec(path)?.[1] ?? []),
    );
    expect(written).toEqual(filled);
    const before = readFileSync(join(import.meta.dirname, 'fixtures', 'pepys-sample-empty-lists.sha256'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(before).toHaveLength(13);
    for (const line of before) {
      const [hash, path] = line.split(' ') as [string, string];
      const month = (/months\/(\d{4}-\d{2})\//.exec(path) as RegExpExecArray)[1] as string;
      expect(filled.has(month), month).toBe(false);
      expect(files.has(path), path).toBe(false);
      const end = monthEnd(Number(month.slice(0, 4)), Number(month.slice(5, 7)));
      for (const target of [
        `/api/v1/entries?end=${end}&start=${month}-01`,
        `/api/v1/entries?start=${month}-01&end=${end}&page=1`,
      ]) {
        const r = await get(site, files, target);
        expect(r.status, target).toBe(200);
        expect(hash16(r.body), target).toBe(hash);
      }
      // Past its one page: 404, as for the file.
      expect((await get(site, files, `/api/v1/entries?end=${end}&start=${month}-01&page=2`)).status).toBe(404);
    }
  });

  it('answer every year and month of the period alike, file or computed: as the list the model selects', async () => {
    let checked = 0;
    for (let year = 1660; year <= 1669; year++) {
      const ranges: Array<[string, string]> = [[`${year}-01-01`, `${year}-12-31`]];
      for (let month = 1; month <= 12; month++) {
        const m = `${year}-${String(month).padStart(2, '0')}`;
        if (`${m}-01` <= site.period.end) ranges.push([`${m}-01`, monthEnd(year, month)]);
      }
      for (const [start, end] of ranges) {
        const dates = model.entries.map((e) => e.date).filter((d) => d >= start && d <= end);
        const pages = Math.max(1, Math.ceil(dates.length / site.pageSize));
        for (let page = 1; page <= pages; page++) {
          const r = await get(site, files, `/api/v1/entries?end=${end}&page=${page}&start=${start}`);
          expect(r.status).toBe(200);
          const body = JSON.parse(new TextDecoder().decode(r.body)) as {
            totalResults: number;
            results: Array<{ date: string }>;
          };
          expect(body.totalResults).toBe(dates.length);
          expect(body.results.map((e) => e.date)).toEqual(
            dates.slice((page - 1) * site.pageSize, page * site.pageSize),
          );
          checked++;
        }
      }
    }
    // 10 years and 113 months: 123 lists, one of them of two pages.
    expect(checked).toBe(124);
  });

  it('follow the content, not the period: 10,000 years of three entries are the files of their three months', async () => {
    const content = writeContent(smallSite());
    const short = (await loadContent(content)).model;
    const long = (await loadContent(content, { overrides: { period: { start: '0001-01-01', end: '9999-12-31' } } }))
      .model;
    const lists = (m: Model) =>
      prerenderedLists({ ...m.config, entryDates: m.entries.map((e) => e.date) }).map((l) => l.dir);
    expect(lists(long)).toEqual(lists(short));
    expect(lists(long)).toEqual([
      'api/v1/entries',
      'api/v1/entries/years/1660',
      'api/v1/entries/years/1661',
      'api/v1/entries/months/1660-01',
      'api/v1/entries/months/1661-01',
      'api/v1/categories',
      'api/v1/topics',
    ]);
    const longFiles = filesOf(long);
    expect([...longFiles.keys()].sort()).toEqual([...filesOf(short).keys()].sort());
    // An empty year of the long period is answered, not a file.
    const r = await get(siteOf(longFiles), longFiles, '/api/v1/entries?start=5000-01-01&end=5000-12-31');
    expect(r.status).toBe(200);
    expect(JSON.parse(new TextDecoder().decode(r.body))).toEqual({
      totalResults: 0,
      totalPages: 1,
      nextPageURL: null,
      previousPageURL: null,
      results: [],
    });
  });
});
