// The import report: what was read, what was written, and every decision the rules of
// docs/importing.md made, with the specifics, so that nothing is silently lost. It holds no times
// or absolute paths, so the JSON form is as reproducible as the entries.

import type { DateConflict } from './article-dates.ts';
import type { EncyclopediaReport } from './encyclopedia.ts';
import type { UndatedArticle } from './entries.ts';
import type { LinkLog } from './links.ts';

export interface ImportReport {
  source: 'standard-ebooks';
  chaptersRead: number;
  articlesRead: number;
  entriesWritten: number;
  /** How entriesWritten follows from articlesRead, as arithmetic. */
  entryArithmetic: string;
  period: {
    first: string;
    last: string;
    days: number;
    daysWithEntry: number;
    /** Days with no entry whose text is inside a multi-day entry. */
    daysCoveredByMultiDayEntries: string[];
    /** Days with no entry and no text at all in the edition. */
    daysWithoutText: string[];
  };
  dates: {
    undatedArticles: UndatedArticle[];
    mergedDates: { date: string; articleIds: string[] }[];
    multiDayArticles: { articleId: string; date: string; covers: string[] }[];
    idDatetimeConflicts: DateConflict[];
    outOfPeriod: { articleId: string; file: string; date: string }[];
  };
  notes: {
    inEndnotes: number;
    referencesInArticles: number;
    attached: number;
    repeatedReferences: { noteId: string; date: string; home: string }[];
    missingNotes: { noteId: string; date: string }[];
    setAside: { noteId: string; reason: string }[];
  };
  links: LinkLog;
  imagesReplacedByText: { date: string; src: string }[];
  /** The topics the edition's marks make (encyclopedia.ts). */
  encyclopedia: EncyclopediaReport;
  siteFilesCreated: string[];
  /** Every article of the edition and the entry it went to (null: set aside, see above). */
  articleEntries: Record<string, string | null>;
}

function list<T>(title: string, items: readonly T[], line: (item: T) => string): string[] {
  if (items.length === 0) return [`${title}: none`];
  return [`${title}: ${items.length}`, ...items.map((item) => `  - ${line(item)}`)];
}

/** Group reasons so that 47 identical reasons print as one line with their ids. */
function groupedByReason(items: readonly { noteId: string; reason: string }[]): string[] {
  const groups = new Map<string, string[]>();
  for (const { noteId, reason } of items) {
    groups.set(reason, [...(groups.get(reason) ?? []), noteId]);
  }
  return [...groups].map(([reason, ids]) => `${reason}: ${ids.join(', ')}`);
}

export function formatReport(report: ImportReport): string {
  const r = report;
  const lines = [
    `chapters read: ${r.chaptersRead}`,
    `articles read: ${r.articlesRead}`,
    `entries written: ${r.entriesWritten}  (${r.entryArithmetic})`,
    `days in the period ${r.period.first} … ${r.period.last}: ${r.period.days}; with an entry: ${r.period.daysWithEntry}`,
    ...list('  days inside a multi-day entry', r.period.daysCoveredByMultiDayEntries, (d) => d),
    ...list('  days with no text in the edition', r.period.daysWithoutText, (d) => d),
    ...list(
      'undated articles',
      r.dates.undatedArticles,
      (u) => `${u.file} #${u.articleId}: ${u.reason}; ${u.rule}${u.attachedTo ? ` → ${u.attachedTo}` : ''}`,
    ),
    ...list(
      'dates shared by several dated articles (merged in reading order)',
      r.dates.mergedDates,
      (m) => `${m.date}: ${m.articleIds.join(', ')}`,
    ),
    ...list(
      'multi-day articles (filed under their first day)',
      r.dates.multiDayArticles,
      (m) => `#${m.articleId} → ${m.date}, covers ${m.covers.join(', ')}`,
    ),
    ...list(
      'ids disagreeing with their datetime',
      r.dates.idDatetimeConflicts,
      (c) =>
        `${c.file} #${c.articleId}: datetime ${c.datetime}, id ${c.idDate}, printed “${c.printed}” → ${c.chosen} wins: ${c.reason}`,
    ),
    ...list(
      'articles outside the period (set aside)',
      r.dates.outOfPeriod,
      (o) => `${o.file} #${o.articleId}: ${o.date}`,
    ),
    `notes in endnotes: ${r.notes.inEndnotes}; references in articles: ${r.notes.referencesInArticles}; notes attached: ${r.notes.attached}`,
    ...list(
      'repeated note references (linked to the first)',
      r.notes.repeatedReferences,
      (x) => `${x.noteId} in ${x.date}, printed in ${x.home}`,
    ),
    ...list('references to missing notes', r.notes.missingNotes, (x) => `${x.noteId} in ${x.date}`),
    `notes set aside: ${r.notes.setAside.length}`,
    ...groupedByReason(r.notes.setAside).map((line) => `  - ${line}`),
    `links rewritten: ${Object.entries(r.links.rewritten)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; absolute links kept: ${r.links.keptAbsolute}`,
    ...list('links unwrapped (target not imported)', r.links.unwrapped, (u) => `${u.date}: ${u.href} (${u.reason})`),
    ...list('images replaced by their text alternative', r.imagesReplacedByText, (i) => `${i.date}: ${i.src}`),
    ...encyclopediaLines(r.encyclopedia),
    ...list('site files created', r.siteFilesCreated, (f) => f),
  ];
  return `${lines.join('\n')}\n`;
}

/** The encyclopedia's part of the text report: counts, then what was set aside and why. */
function encyclopediaLines(e: EncyclopediaReport): string[] {
  const m = e.marksRead;
  const topics = e.categories.reduce((n, c) => n + c.topics, 0);
  const links = e.categories.reduce((n, c) => n + c.links, 0);
  const entryLinks = e.categories.reduce((n, c) => n + c.entryLinks, 0);
  // Names only in the notes are the editor's citations: hundreds of them, counted by kind and reason.
  const citations = e.setAside.filter((s) => s.place === 'note');
  const byReason = new Map<string, number>();
  for (const s of citations) byReason.set(s.reason, (byReason.get(s.reason) ?? 0) + s.count);
  return [
    `names marked: ${m.total} (${m.inText} in the text, ${m.inNotes} in the notes): ${Object.entries(m.bySemantic)
      .sort((a, b) => b[1].text + b[1].notes - a[1].text - a[1].notes)
      .map(([k, v]) => `${k.replace('se:name.', '')} ${v.text}+${v.notes}`)
      .join(', ')}`,
    `topics derived: ${topics}; links to them: ${links} (${entryLinks} entry–topic pairs); described by their note: ${e.described}`,
    ...e.categories.map(
      (c) =>
        `  - ${c.title}: ${c.topics} topics, ${c.links} links (${c.fromNotes} in notes), ${c.entryLinks} entry–topic pairs`,
    ),
    ...list(
      'names in the text set aside',
      e.setAside.filter((s) => s.place === 'text'),
      (s) => `“${s.name}” (${s.semantic.replace('se:name.', '')}) ×${s.count}: ${s.reason}`,
    ),
    `marks in the notes not linked: ${citations.reduce((n, s) => n + s.count, 0)}`,
    ...[...byReason].map(([reason, n]) => `  - ${n}: ${reason}`),
    ...list('names marked as more than one kind', e.twoKinds, (t) => `${t.key} (${t.kinds.join(', ')}): ${t.decision}`),
    ...list('marks left without a link', e.notLinked, (n) => `“${n.name}” in ${n.date}: ${n.reason}`),
    ...list('derived ids taken by another topic', e.idCollisions, (c) => `${c.identity}: ${c.wanted} → ${c.got}`),
  ];
}
