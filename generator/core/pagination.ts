// Page numbers and page links of the list envelope.

export function totalPagesFor(totalResults: number, pageSize: number): number {
  return Math.max(1, Math.ceil(totalResults / pageSize));
}

const DIGITS = /^[0-9]+$/;

/**
 * The page a request asks for, or null when it names no page of this list. Absent or empty
 * means 1, `last` the last page, digits (leading zeros tolerated) a page from 1 to totalPages.
 */
export function parsePage(raw: string | undefined, totalPages: number): number | null {
  if (raw === undefined || raw === '') return 1;
  if (raw === 'last') return totalPages;
  if (!DIGITS.test(raw)) return null;
  const page = Number(raw);
  return page >= 1 && page <= totalPages ? page : null;
}

/**
 * The filters a list echoes in its links; only non-empty values are present. Every parameter a
 * list takes besides `page` belongs here (the date range; search and the record filters add
 * theirs), so that links repeat them all, in alphabetical order.
 */
export interface LinkFilters {
  category?: string;
  day?: string;
  end?: string;
  kind?: string;
  ordering?: string;
  search?: string;
  start?: string;
  topic?: string;
}

/** Address of one page: parameters in alphabetical order, no `page` on page 1. */
export function pageURL(listURL: string, filters: LinkFilters, page: number): string {
  const params: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(filters)) if (value !== undefined) params.push([name, value]);
  if (page !== 1) params.push(['page', String(page)]);
  if (params.length === 0) return listURL;
  params.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `${listURL}?${params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
}
