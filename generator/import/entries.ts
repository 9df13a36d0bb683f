// Grouping articles into diary entries, one per Julian date. Rules (docs/importing.md):
//   - a dated article belongs to the entry of its date;
//   - several articles with the same date are merged into one entry, in reading order;
//   - an article with no date (a year's opening summary) is attached to the next dated article's
//     entry, since it introduces what follows; failing that, to the previous one;
//   - an article dated outside the diary's period is set aside in the report.

import { isInPeriod } from '../core/period.ts';
import { type ArticleDate, type DateConflict, resolveArticleDate } from './article-dates.ts';
import type { Article } from './corpus.ts';

interface EntryPlan {
  /** Julian date, the entry's `date`. */
  date: string;
  /** The entry's articles in reading order, with their own date (null for an attached undated one). */
  parts: { article: Article; date: ArticleDate | null }[];
}

export interface UndatedArticle {
  articleId: string;
  file: string;
  reason: string;
  attachedTo: string | null;
  rule: string;
}

export interface Grouping {
  /** Ascending by date. */
  entries: EntryPlan[];
  /** Entry date of every placed article, by article index. */
  entryOfArticle: Map<number, string>;
  undated: UndatedArticle[];
  merged: { date: string; articleIds: string[] }[];
  multiDay: { articleId: string; date: string; covers: string[] }[];
  conflicts: DateConflict[];
  outOfPeriod: { articleId: string; file: string; date: string }[];
}

export function groupArticles(articles: readonly Article[]): Grouping {
  const resolved = articles.map((article) => ({ article, result: resolveArticleDate(article) }));
  const byDate = new Map<string, EntryPlan>();
  const entryOfArticle = new Map<number, string>();
  const undated: UndatedArticle[] = [];
  const multiDay: Grouping['multiDay'] = [];
  const conflicts: DateConflict[] = [];
  const outOfPeriod: Grouping['outOfPeriod'] = [];
  const place = (article: Article, date: ArticleDate | null, entryDate: string): void => {
    const entry = byDate.get(entryDate);
    if (entry) entry.parts.push({ article, date });
    else byDate.set(entryDate, { date: entryDate, parts: [{ article, date }] });
    entryOfArticle.set(article.index, entryDate);
  };

  // First pass: dated articles, so undated ones can look ahead and behind.
  const datedIndexes: number[] = [];
  for (const { article, result } of resolved) {
    if (result.kind !== 'dated') continue;
    const { date } = result;
    if (date.conflict) conflicts.push(date.conflict);
    if (!isInPeriod(date.julian)) {
      outOfPeriod.push({ articleId: article.id, file: article.chapter.file, date: date.julian });
      continue;
    }
    if (date.covers.length > 1) multiDay.push({ articleId: article.id, date: date.julian, covers: date.covers });
    datedIndexes.push(article.index);
    place(article, date, date.julian);
  }

  // Second pass: undated articles join the entry of the nearest dated article after them.
  for (const { article, result } of resolved) {
    if (result.kind !== 'undated') continue;
    const next = datedIndexes.find((i) => i > article.index);
    const previous = [...datedIndexes].reverse().find((i) => i < article.index);
    const target = next ?? previous;
    const attachedTo = target === undefined ? null : (entryOfArticle.get(target) as string);
    undated.push({
      articleId: article.id,
      file: article.chapter.file,
      reason: result.reason,
      attachedTo,
      rule:
        next !== undefined
          ? 'attached to the next dated article (it opens what follows)'
          : previous !== undefined
            ? 'attached to the previous dated article (no dated article follows)'
            : 'set aside: no dated article anywhere',
    });
    if (attachedTo !== null) place(article, null, attachedTo);
  }

  const entries = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
  for (const entry of entries) entry.parts.sort((a, b) => a.article.index - b.article.index);
  const merged = entries
    .filter((e) => e.parts.filter((p) => p.date !== null).length > 1)
    .map((e) => ({ date: e.date, articleIds: e.parts.map((p) => p.article.id) }));
  return { entries, entryOfArticle, undated, merged, multiDay, conflicts, outOfPeriod };
}
