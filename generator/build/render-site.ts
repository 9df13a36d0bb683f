// The model to every pre-rendered answer: path → bytes. Each record's JSON is rendered once and
// its fragment reused in every list page that holds it.

import { monthEnd, pad2 } from '../core/dates.ts';
import {
  detailFile, listPageFile, monthPageFile, periodMonths, PERIOD_YEARS, ROOT_FILE, SITE_INDEX_FILE, yearPageFile,
} from '../core/files.ts';
import { pretty, resultFragment } from '../core/json.ts';
import { type PagePlan, planEntryList, planPlainList, renderPage } from '../core/lists.ts';
import type { Model } from '../core/model.ts';
import {
  categoryDetail, categoryItem, entryDetail, entryItem, type Origins, root, topicDetail, topicItem,
} from '../core/records.ts';
import { siteIndexFile } from '../core/site-index.ts';
import type { Collection, IsoDate } from '../core/types.ts';
import { collectionURL } from '../core/urls.ts';

export interface OutputFile {
  /** Relative to the output directory, `/`-separated. */
  path: string;
  body: string;
}

/** Every page of one list, planned by `plan(page)`; `file(page)` names each. */
function allPages(
  listURL: string,
  fragments: readonly string[],
  pageSize: number,
  plan: (page: number) => PagePlan,
  file: (page: number) => string,
  out: OutputFile[],
): void {
  const first = plan(1);
  for (let page = 1; page <= first.totalPages; page++) {
    const p = page === 1 ? first : plan(page);
    out.push({ path: file(page), body: renderPage(listURL, fragments, pageSize, p) });
  }
}

function planned(result: ReturnType<typeof planPlainList>): PagePlan {
  if (!result.ok) throw new Error(`internal: a pre-rendered page failed to plan: ${result.error.detail}`);
  return result.plan;
}

export function renderSite(model: Model): OutputFile[] {
  const { config } = model;
  const o: Origins = { apiOrigin: config.apiOrigin, siteOrigin: config.siteOrigin };
  const size = config.pageSize;
  const out: OutputFile[] = [{ path: ROOT_FILE, body: pretty(root(o.apiOrigin)) }];
  const url = (c: Collection) => collectionURL(o.apiOrigin, c);

  // Entries: details, then the unfiltered list, each year's and each month's list.
  const dates: IsoDate[] = model.entries.map((e) => e.date);
  const entryFragments = model.entries.map((e) => resultFragment(entryItem(o, e)));
  for (const e of model.entries) out.push({ path: detailFile('entries', e.date), body: pretty(entryDetail(o, e)) });
  allPages(url('entries'), entryFragments, size, (page) => planned(planPlainList(dates.length, size, { page: String(page) })),
    (page) => listPageFile('entries', page), out);
  for (const year of PERIOD_YEARS) {
    const range = { start: `${year}-01-01`, end: `${year}-12-31` };
    allPages(url('entries'), entryFragments, size, (page) => planned(planEntryList(dates, size, { ...range, page: String(page) })),
      (page) => yearPageFile(year, page), out);
  }
  for (const { year, month } of periodMonths()) {
    const range = { start: `${year}-${pad2(month)}-01`, end: monthEnd(year, month) };
    allPages(url('entries'), entryFragments, size, (page) => planned(planEntryList(dates, size, { ...range, page: String(page) })),
      (page) => monthPageFile(`${year}-${pad2(month)}`, page), out);
  }

  // Categories, by slug.
  const categoryFragments = model.categories.map((c) => resultFragment(categoryItem(o, model, c)));
  for (const c of model.categories) out.push({ path: detailFile('categories', c.slug), body: pretty(categoryDetail(o, model, c)) });
  allPages(url('categories'), categoryFragments, size, (page) => planned(planPlainList(model.categories.length, size, { page: String(page) })),
    (page) => listPageFile('categories', page), out);

  // Topics, by id.
  const topicFragments = model.topics.map((t) => resultFragment(topicItem(o, t)));
  for (const t of model.topics) out.push({ path: detailFile('topics', String(t.id)), body: pretty(topicDetail(o, model, t)) });
  allPages(url('topics'), topicFragments, size, (page) => planned(planPlainList(model.topics.length, size, { page: String(page) })),
    (page) => listPageFile('topics', page), out);

  out.push({ path: SITE_INDEX_FILE, body: JSON.stringify(siteIndexFile(model)) });
  return out;
}
