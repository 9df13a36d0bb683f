// The tail every computed list answer shares (filters.ts's filtered lists, search/answer.ts's
// searches): the page asked for out of the records selected, the detail files of its records read
// (a few at a time: read-files.ts), their items, and the list's envelope with its links.

import type { Answer, ReadFile } from './answer-types.ts';
import { errorBody, INVALID_PAGE } from './errors.ts';
import { IncompleteSite, type SitePart } from './incomplete-site.ts';
import { envelope } from './json.ts';
import { type LinkFilters, pageURL, parsePage, totalPagesFor } from './pagination.ts';
import { readFiles } from './read-files.ts';
import type { SiteIndex } from './site-index.ts';
import type { Collection } from './types.ts';
import { collectionURL } from './urls.ts';

export interface RecordPage {
  collection: Collection;
  /** The positions (or document numbers) of every record selected, in the list's order. */
  selected: readonly number[];
  /** The `page` parameter as given. */
  rawPage: string | undefined;
  /** The filters the page's links repeat. */
  links: LinkFilters;
  /** The detail file of a selected record, for an item made of it; absent when none is read. */
  fileOf?: (position: number) => string;
  /** The part of the site its files belong to, as a missing one's 503 names it. */
  part: SitePart;
  /**
   * The item of a record on the page as a result fragment (core/json.ts), from its detail file's
   * bytes when `fileOf` is given. Throws an IncompleteSite for a damaged file.
   */
  fragment: (position: number, bytes: Uint8Array | undefined) => string;
}

/** 404 for a page past the last; the page of records otherwise. */
export async function recordPage(p: RecordPage, site: SiteIndex, readFile: ReadFile): Promise<Answer> {
  const totalPages = totalPagesFor(p.selected.length, site.pageSize);
  const page = parsePage(p.rawPage, totalPages);
  if (page === null) return { kind: 'body', status: INVALID_PAGE.status, body: errorBody(INVALID_PAGE) };
  const onPage = p.selected.slice((page - 1) * site.pageSize, page * site.pageSize);
  const files = p.fileOf === undefined ? null : onPage.map(p.fileOf);
  const read = files === null ? null : await readFiles(readFile, files);
  const fragments: string[] = [];
  for (let i = 0; i < onPage.length; i++) {
    let bytes: Uint8Array | undefined;
    if (files !== null && read !== null) {
      const found = read[i] ?? null;
      if (found === null) throw new IncompleteSite(files[i] as string, 'missing', p.part);
      bytes = found;
    }
    fragments.push(p.fragment(onPage[i] as number, bytes));
  }
  const listURL = collectionURL(site.apiOrigin, p.collection);
  const body = envelope(
    {
      totalResults: p.selected.length,
      totalPages,
      nextPageURL: page < totalPages ? pageURL(listURL, p.links, page + 1) : null,
      previousPageURL: page > 1 ? pageURL(listURL, p.links, page - 1) : null,
    },
    fragments,
  );
  return { kind: 'body', status: 200, body };
}
