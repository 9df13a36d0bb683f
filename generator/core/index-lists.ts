// The site index's two long lists, written short (issue 34: an isolate reads and parses the index
// before its first answer, whatever it is asked, and it counts in the bytes an answer reads).
//
// - The entries: an entry whose title is the one its date gives (core/titles.ts, by the rules the
//   index states once) and whose lastModifiedTime is the commonest one (stated once) is its date
//   alone; any other is [date, title, time], as every entry was. The whole diary's 215 KB of
//   entries become 44 KB.
// - The topic ids, ascending: runs of consecutive ids, [first, count, first, count, …]. The whole
//   diary's full-scale encyclopedia, 10,000 ids from 1 and 436 others, is 6 KB instead of 53 KB.
//
// Pure, and free of anything Node-only: the edge runtimes load the index through it.

import type { TitleConvention } from './model.ts';
import { entryTitle, type TitleFormat, type TitlePart, type TitleRules } from './titles.ts';
import type { IsoDate, Timestamp } from './types.ts';

/** An entry of the index: its date alone, or [date, title, lastModifiedTime]. */
export type IndexEntry = IsoDate | [IsoDate, string, Timestamp];

/** How the titles of the entries written as their date alone are made (with the index's calendar and period). */
export interface IndexTitles {
  convention: TitleConvention;
  format: TitleFormat;
}

/** The entries as the index writes them, with what their short form leaves out. */
export function indexEntries(
  entries: ReadonlyArray<{ date: IsoDate; title: string; lastModifiedTime: Timestamp }>,
  rules: TitleRules,
): { entryTime?: Timestamp; titles?: IndexTitles; entries: IndexEntry[] } {
  // The commonest time, the smallest of those as common: the same entries, the same index.
  const counts = new Map<Timestamp, number>();
  for (const e of entries) counts.set(e.lastModifiedTime, (counts.get(e.lastModifiedTime) ?? 0) + 1);
  let entryTime: Timestamp | undefined;
  for (const [time, n] of counts) {
    const best = entryTime === undefined ? 0 : (counts.get(entryTime) as number);
    if (n > best || (n === best && time < (entryTime as Timestamp))) entryTime = time;
  }
  if (entryTime === undefined) return { entries: [] };
  return {
    entryTime,
    titles: { convention: rules.convention, format: rules.format },
    entries: entries.map((e) =>
      e.lastModifiedTime === entryTime && e.title === entryTitle(e.date, rules)
        ? e.date
        : [e.date, e.title, e.lastModifiedTime],
    ),
  };
}

/** An entry of the index whole: its title made, if need be, by `rules`; its time `entryTime`. */
export function entryOfIndex(
  e: IndexEntry,
  rules: TitleRules | null,
  entryTime: Timestamp | undefined,
): { date: IsoDate; title: string; lastModifiedTime: Timestamp } {
  if (typeof e !== 'string') return { date: e[0], title: e[1], lastModifiedTime: e[2] };
  // defect() has checked that an index with a short entry states both.
  return { date: e, title: entryTitle(e, rules as TitleRules), lastModifiedTime: entryTime as Timestamp };
}

const FIELDS: ReadonlySet<string> = new Set([
  'weekday',
  'day',
  'day2',
  'dayOrdinal',
  'month',
  'monthNumber',
  'monthNumber2',
  'year',
] satisfies Array<Extract<TitlePart, { field: string }>['field']>);

const strings = (v: unknown, n: number): boolean =>
  Array.isArray(v) && v.length === n && v.every((s) => typeof s === 'string');

/** True when `v` is an IndexTitles. */
export function isIndexTitles(v: unknown): v is IndexTitles {
  if (typeof v !== 'object' || v === null) return false;
  const { convention, format } = v as Partial<IndexTitles>;
  if (convention !== 'seed' && convention !== 'every-year' && convention !== 'single') return false;
  if (typeof format !== 'object' || format === null) return false;
  if (!strings(format.weekdays, 7) || !strings(format.months, 12) || !strings(format.ordinals, 32)) return false;
  return (
    Array.isArray(format.parts) &&
    format.parts.every(
      (p: unknown) =>
        typeof p === 'object' &&
        p !== null &&
        (typeof (p as { literal?: unknown }).literal === 'string' || FIELDS.has((p as { field?: string }).field ?? '')),
    )
  );
}

/** Ascending ids as runs of consecutive ones: [first, count, first, count, …]. */
export function idRuns(ids: readonly number[]): number[] {
  const runs: number[] = [];
  for (const id of ids) {
    const last = runs.length - 2;
    const count = runs[last + 1] as number;
    if (last >= 0 && (runs[last] as number) + count === id) runs[last + 1] = count + 1;
    else runs.push(id, 1);
  }
  return runs;
}

/**
 * True when `runs` are ascending runs of whole numbers (idRuns). Checked run by run, the ids not
 * made: an isolate's first request loads the index, by V8's interpreter.
 */
export function areIdRuns(runs: unknown): runs is number[] {
  if (!Array.isArray(runs) || runs.length % 2 !== 0) return false;
  let next = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < runs.length; i += 2) {
    const first: unknown = runs[i];
    const count: unknown = runs[i + 1];
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(count) || (count as number) < 1) return false;
    if ((first as number) < next || !Number.isSafeInteger((first as number) + (count as number))) return false;
    next = (first as number) + (count as number);
  }
  return true;
}

/** The ids of runs (idRuns), or null when they are not ascending runs of whole numbers. */
export function idsOfRuns(runs: unknown): number[] | null {
  if (!areIdRuns(runs)) return null;
  const ids: number[] = [];
  for (let i = 0; i < runs.length; i += 2)
    for (let k = 0; k < (runs[i + 1] as number); k++) ids.push((runs[i] as number) + k);
  return ids;
}
