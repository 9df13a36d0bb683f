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

/** The filters a list echoes in its links; only non-empty values are present. */
export interface LinkFilters {
  start?: string;
  end?: string;
}

/** Address of one page: parameters in alphabetical order, no `page` on page 1. */
export function pageURL(listURL: string, filters: LinkFilters, page: number): string {
  const params: string[] = [];
  if (filters.end !== undefined) params.push(`end=${encodeURIComponent(filters.end)}`);
  if (page !== 1) params.push(`page=${page}`);
  if (filters.start !== undefined) params.push(`start=${encodeURIComponent(filters.start)}`);
  return params.length === 0 ? listURL : `${listURL}?${params.join('&')}`;
}
