// The Standard Ebooks import, end to end: read the edition, decide each article's entry and each
// note's entry, clean the markup, render the entry files and account for everything in a report.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PERIOD_END, PERIOD_START } from '../core/period.ts';
import { topicWebURL, type WebSite } from '../core/urls.ts';
import { orRefuse } from '../output/guard.ts';
import { Aliases } from './aliases.ts';
import { type CleanHooks, cleanNodes } from './clean.ts';
import { readCorpus } from './corpus.ts';
import { type DerivedTopic, deriveEncyclopedia } from './encyclopedia.ts';
import { groupArticles } from './entries.ts';
import { entryLinkRewriter, newLinkLog } from './links.ts';
import { findMarks } from './marks.ts';
import { planNotes } from './notes.ts';
import { daysBetween } from './old-style.ts';
import { type Footnote, renderEntryFile } from './render.ts';
import type { ImportReport } from './report.ts';
import { checkEncyclopediaTarget, mergeCategories, writeEncyclopedia } from './topic-files.ts';
import { linkTopicMarks } from './topic-links.ts';
import { checkContentTarget, ensureSiteFiles, readWebSite, replaceEntries } from './write.ts';
import { serialize, setAttr } from './xml.ts';

interface ImportResult {
  /** Entry files by path relative to `entries/`, e.g. `1660/1660-01-01.html`, ascending. */
  files: Map<string, string>;
  /** The encyclopedia the edition's marks make, by id. */
  topics: DerivedTopic[];
  report: ImportReport;
}

/** Read the edition in `editionDir` and compute the entry and topic files; writes nothing. */
function convertStandardEbooks(editionDir: string, site: WebSite, aliases = Aliases.load()): ImportResult {
  const { siteOrigin } = site;
  const corpus = readCorpus(editionDir);
  const grouping = groupArticles(corpus.articles);
  const notes = planNotes(corpus, grouping.entryOfArticle);
  const encyclopedia = deriveEncyclopedia(findMarks(corpus, grouping.entryOfArticle), aliases, corpus.notes);
  const link = (nodes: ReturnType<typeof cleanNodes>) =>
    linkTopicMarks(nodes, encyclopedia.linkOf, (id) => topicWebURL(site, id));

  const entryOfArticleId = new Map<string, string>();
  for (const article of corpus.articles) {
    const date = grouping.entryOfArticle.get(article.index);
    if (date !== undefined && article.id !== '' && !entryOfArticleId.has(article.id))
      entryOfArticleId.set(article.id, date);
  }

  const linkLog = newLinkLog();
  const imagesReplacedByText: ImportReport['imagesReplacedByText'] = [];
  const files = new Map<string, string>();
  for (const entry of grouping.entries) {
    const hooks: CleanHooks = {
      link: entryLinkRewriter({ siteOrigin, entryOfArticleId, noteHomes: notes.homes }, entry.date, linkLog),
      imageReplaced: (src) => imagesReplacedByText.push({ date: entry.date, src }),
    };
    const body = entry.parts.map(({ date, article }) => {
      // When the id won over a mistyped datetime, the markup is corrected to match the entry.
      // datetime stays Gregorian: HTML defines it as a proleptic Gregorian date.
      if (date?.conflict?.chosen === 'id') setAttr(date.time, 'datetime', date.gregorian);
      return serialize(link(cleanNodes(article.element.children, hooks)));
    });
    // Footnotes after the body: the body's first references set the noteref ids they link back to.
    const footnotes: Footnote[] = (notes.footnotesByEntry.get(entry.date) ?? []).map((id) => ({
      id,
      html: serialize(link(cleanNodes(corpus.notes.get(id)?.children ?? [], hooks))),
    }));
    files.set(`${entry.date.slice(0, 4)}/${entry.date}.html`, renderEntryFile(entry.date, body, footnotes));
  }

  const withEntry = new Set(grouping.entries.map((e) => e.date));
  const covered = new Set(grouping.multiDay.flatMap((m) => m.covers));
  const allDays = daysBetween(PERIOD_START, PERIOD_END);
  const articleEntries: Record<string, string | null> = {};
  for (const article of corpus.articles) {
    articleEntries[`${article.chapter.file}#${article.id}`] = grouping.entryOfArticle.get(article.index) ?? null;
  }
  const attachedUndated = grouping.undated.filter((u) => u.attachedTo !== null).length;
  // Every entry holds at least one dated article; the others in it created no entry.
  const sharingDate = grouping.entries.reduce((n, e) => n + e.parts.filter((p) => p.date !== null).length - 1, 0);
  const setAsideArticles = corpus.articles.length - grouping.entryOfArticle.size;

  const report: ImportReport = {
    source: 'standard-ebooks',
    chaptersRead: corpus.chapters.length,
    articlesRead: corpus.articles.length,
    entriesWritten: files.size,
    entryArithmetic:
      `${corpus.articles.length} articles − ${setAsideArticles} set aside − ${attachedUndated} undated attached to the ` +
      `next entry − ${sharingDate} sharing a date with an earlier article = ${files.size}`,
    period: {
      first: PERIOD_START,
      last: PERIOD_END,
      days: allDays.length,
      daysWithEntry: allDays.filter((d) => withEntry.has(d)).length,
      daysCoveredByMultiDayEntries: allDays.filter((d) => !withEntry.has(d) && covered.has(d)),
      daysWithoutText: allDays.filter((d) => !withEntry.has(d) && !covered.has(d)),
    },
    dates: {
      undatedArticles: grouping.undated,
      mergedDates: grouping.merged,
      multiDayArticles: grouping.multiDay,
      idDatetimeConflicts: grouping.conflicts,
      outOfPeriod: grouping.outOfPeriod,
    },
    notes: {
      inEndnotes: corpus.notes.size,
      referencesInArticles: notes.refsInArticles,
      attached: notes.homes.size,
      repeatedReferences: notes.repeatedRefs,
      missingNotes: notes.missingNotes,
      setAside: notes.setAside,
    },
    links: linkLog,
    imagesReplacedByText,
    encyclopedia: encyclopedia.report,
    siteFilesCreated: [],
    articleEntries,
  };
  return { files, topics: encyclopedia.topics, report };
}

/**
 * Import the edition into the content directory `contentDir` (its `entries/` is replaced).
 * Throws RefusedError, touching nothing, when `contentDir` is not a place to write entries
 * (write.ts), and EditionError naming the file when a file of the edition cannot be read whole.
 */
export function importStandardEbooks(editionDir: string, contentDir: string): ImportReport {
  orRefuse(checkContentTarget(contentDir, editionDir, contentDir));
  const { files, topics, report } = convertStandardEbooks(editionDir, readWebSite(contentDir));
  // Everything that could refuse is checked before anything is written.
  orRefuse(checkEncyclopediaTarget(contentDir, topics));
  const categoriesFile = path.join(contentDir, 'categories.yaml');
  const hadCategories = existsSync(categoriesFile);
  const categories = orRefuse(mergeCategories(hadCategories ? readFileSync(categoriesFile, 'utf8') : null, topics));
  // Topics and categories before the entries that link them (a topic an entry links must exist).
  writeEncyclopedia(contentDir, topics, categories);
  replaceEntries(contentDir, files);
  report.siteFilesCreated = [...ensureSiteFiles(contentDir), ...(hadCategories ? [] : ['categories.yaml'])].sort();
  return report;
}
