// Which diary day an article belongs to. The edition gives three witnesses for an article's date:
//   - the `datetime` of its first <time> (Gregorian, machine-readable, hand-entered),
//   - its `id` (`entry-1661-11-24`, Gregorian, unpadded; a range `entry-A/B` for multi-day text),
//   - the day printed in that <time> ("14th", "Jan. 1st (Lord’s day)"), which is Pepys's own
//     (Julian) day of the month, i.e. the text itself.
// The printed day is the authority on the day of the month because it *is* the diary's text; the
// datetime is normally right and is the only full date, so it wins unless it disagrees with both
// the id and the printed day while the id agrees with the printed day (then the datetime is a typo).

import { isIsoDate } from '../core/dates.ts';
import type { Article } from './corpus.ts';
import { daysBetween, gregorianToJulian, padLooseDate } from './old-style.ts';
import { descendants, getAttr, textContent, type XElement } from './xml.ts';

export interface ArticleDate {
  /** The Gregorian date the article is filed under (the edition's convention). */
  gregorian: string;
  /** The diary's (Julian) date: the entry the article belongs to. */
  julian: string;
  /** Every Julian day the article's text covers, ascending (one for ordinary articles). */
  covers: string[];
  /** The <time> whose datetime gives the date (its datetime is corrected when the id wins). */
  time: XElement;
  /** Set when the witnesses disagreed: what they said and which won. */
  conflict?: DateConflict;
}

export interface DateConflict {
  articleId: string;
  file: string;
  datetime: string;
  idDate: string;
  printed: string;
  chosen: 'id' | 'datetime';
  reason: string;
}

export type DateResult = { kind: 'dated'; date: ArticleDate } | { kind: 'undated'; reason: string };

/** `entry-1661-7-18/1661-7-23` → ['1661-07-18', '1661-07-23']; null when the id holds no date. */
function idDates(id: string): { start: string; end: string } | null {
  const m = /^entry-(\d{4}-\d{1,2}-\d{1,2})(?:\/(\d{4}-\d{1,2}-\d{1,2}))?$/.exec(id);
  if (!m) return null;
  const start = padLooseDate(m[1] as string);
  const end = m[2] === undefined ? start : padLooseDate(m[2]);
  return start && end && start <= end ? { start, end } : null;
}

/** The day of the month printed in a <time>, e.g. 14 from "14th" or 1 from "Jan. 1st (Lord’s day)". */
function printedDay(time: XElement): number | null {
  const m = /(\d{1,2})(?:st|nd|rd|th)\b/.exec(textContent(time));
  return m ? Number(m[1]) : null;
}

function isConvertible(gregorian: string): boolean {
  try {
    gregorianToJulian(gregorian);
    return true;
  } catch {
    return false;
  }
}

const dayOfMonth = (iso: string): number => Number(iso.slice(8, 10));

export function resolveArticleDate(article: Article): DateResult {
  const times = [...descendants(article.element)].filter(
    (e) => e.name === 'time' && getAttr(e, 'datetime') !== undefined,
  );
  const first = times[0];
  if (first === undefined) return { kind: 'undated', reason: 'no <time datetime> in the article' };
  const datetime = getAttr(first, 'datetime') as string;
  if (!isIsoDate(datetime) || !isConvertible(datetime)) {
    return { kind: 'undated', reason: `first <time> has datetime="${datetime}", not a date of the diary's century` };
  }

  const id = idDates(article.id);
  // An id outside the convertible span is no witness at all.
  const fromId = id !== null && isConvertible(id.start) && isConvertible(id.end) ? id : null;
  const printed = printedDay(first);
  let gregorian = datetime;
  let conflict: DateConflict | undefined;
  if (fromId !== null && fromId.start !== datetime) {
    const idAgrees = printed !== null && dayOfMonth(gregorianToJulian(fromId.start)) === printed;
    const datetimeAgrees = printed !== null && dayOfMonth(gregorianToJulian(datetime)) === printed;
    const chosen = idAgrees && !datetimeAgrees ? 'id' : 'datetime';
    if (chosen === 'id') gregorian = fromId.start;
    conflict = {
      articleId: article.id,
      file: article.chapter.file,
      datetime,
      idDate: fromId.start,
      printed: textContent(first),
      chosen,
      reason:
        chosen === 'id'
          ? `the printed day (${printed}) and the id agree; datetime ${datetime} is a typo`
          : datetimeAgrees
            ? `the printed day (${printed}) agrees with the datetime`
            : 'the printed day settles nothing; the datetime is kept',
    };
  }

  // The days the text covers: every dated <time> in it (multi-day articles print one per day)
  // and the id's range; the entry is filed under the first.
  const covered = new Set<string>([gregorian]);
  for (const t of times.slice(1)) {
    const d = getAttr(t, 'datetime') as string;
    if (isIsoDate(d) && isConvertible(d)) covered.add(d);
  }
  if (fromId !== null && fromId.end !== fromId.start && gregorian === fromId.start) {
    for (const d of daysBetween(fromId.start, fromId.end)) covered.add(d);
  }
  const covers = [...covered].sort().map(gregorianToJulian);
  const julian = gregorianToJulian(gregorian);
  return { kind: 'dated', date: { gregorian, julian, covers, time: first, ...(conflict ? { conflict } : {}) } };
}
