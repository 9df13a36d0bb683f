// The Standard Ebooks importer on the whole real edition from ../shared/corpus (skipped, with a
// message, when that directory is absent; failing under CI=true). The corpus's text is never copied
// here: expectations about it are read from it at run time. The importer's rules are tested on a
// small synthetic edition in test/import-standard-ebooks.test.ts.

import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../generator/import/report.ts';
import { importStandardEbooks } from '../../generator/import/standard-ebooks.ts';
import { IMPORT_MARKER } from '../../generator/import/write.ts';
import { parseXml } from '../../generator/import/xml.ts';
import { entryParts } from '../helpers/content.ts';
import { readTree } from '../helpers/files.ts';
import { importError, noteProblems } from '../helpers/imported.ts';
import { tempDir as makeTempDir } from '../helpers/temp.ts';
import { defineEncyclopediaTests } from './import-encyclopedia-corpus.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpusDir = path.resolve(repoRoot, '../shared/corpus/standard-ebooks-pepys-diary');

const tempDir = () => makeTempDir('pepys-import-');

const haveCorpus = existsSync(path.join(corpusDir, 'text'));
if (!haveCorpus && process.env.CI === 'true') {
  it('has the corpus in CI', () => {
    expect.fail(`CI must have ../shared beside the clone: ${corpusDir} is missing`);
  });
}
if (!haveCorpus) console.warn(`import tests on the real corpus skipped: ${corpusDir} not found`);

describe.skipIf(!haveCorpus)(`importer on the real corpus (${path.relative(repoRoot, corpusDir)})`, () => {
  let out: string;
  let report: ImportReport;
  let files: Map<string, string>;
  beforeAll(() => {
    out = tempDir();
    report = importStandardEbooks(corpusDir, out);
    files = new Map([...readTree(path.join(out, 'entries'))]);
    // The import's own marker: it may replace this entries/ next time, and no other.
    expect(files.delete(IMPORT_MARKER)).toBe(true);
  }, 30_000);

  defineEncyclopediaTests(corpusDir, () => ({ out, report, files }));

  it('writes about 3,410 entries, as many as the report accounts for', () => {
    expect(files.size).toBe(report.entriesWritten);
    expect(report.entriesWritten).toBeGreaterThan(3400);
    expect(report.entriesWritten).toBeLessThan(3420);
    const sharing = report.dates.mergedDates.reduce((n, m) => n + m.articleIds.length - 1, 0);
    const attached = report.dates.undatedArticles.filter((u) => u.attachedTo !== null).length;
    const setAside = Object.values(report.articleEntries).filter((d) => d === null).length;
    expect(report.articlesRead - setAside - attached - sharing).toBe(report.entriesWritten);
    const p = report.period;
    expect(p.daysWithEntry + p.daysCoveredByMultiDayEntries.length + p.daysWithoutText.length).toBe(p.days);
    expect(p.daysWithEntry).toBe(report.entriesWritten);
  });

  it('accounts for every article and every note', () => {
    const chapters = readdirSync(path.join(corpusDir, 'text')).filter((f) => /^chapter-\d+\.xhtml$/.test(f));
    const articleIds = chapters.flatMap((f) =>
      [...readFileSync(path.join(corpusDir, 'text', f), 'utf8').matchAll(/<article id="([^"]*)"/g)].map(
        (m) => `${f}#${m[1]}`,
      ),
    );
    expect(Object.keys(report.articleEntries).sort()).toEqual(articleIds.sort());
    expect(report.articlesRead).toBe(articleIds.length);
    const placed = new Set(Object.values(report.articleEntries));
    expect(placed.size).toBe(report.entriesWritten);

    const endnotes = readFileSync(path.join(corpusDir, 'text', 'endnotes.xhtml'), 'utf8');
    const noteCount = [...endnotes.matchAll(/<li id="note-\d+">/g)].length;
    expect(report.notes.attached + report.notes.setAside.length).toBe(noteCount);
    let printed = 0;
    for (const text of files.values()) printed += [...entryParts(text).footnotes.matchAll(/<li id="note-\d+"/g)].length;
    expect(printed).toBe(report.notes.attached);
  });

  it('has a report whose arithmetic holds, each figure recounted from the edition and the files', () => {
    // Entries: articles read − set aside − undated attached − sharing a date = entries written.
    const m =
      /^(\d+) articles − (\d+) set aside − (\d+) undated attached to the next entry − (\d+) sharing a date with an earlier article = (\d+)$/.exec(
        report.entryArithmetic,
      );
    expect(m, report.entryArithmetic).not.toBeNull();
    const [articles, setAside, attached, sharing, written] = (m as RegExpExecArray).slice(1).map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ];
    expect(articles - setAside - attached - sharing).toBe(written);
    expect(articles).toBe(report.articlesRead);
    expect(written).toBe(report.entriesWritten);
    expect(setAside).toBe(Object.values(report.articleEntries).filter((d) => d === null).length);
    expect(setAside).toBe(
      report.dates.outOfPeriod.length + report.dates.undatedArticles.filter((u) => u.attachedTo === null).length,
    );
    expect(attached).toBe(report.dates.undatedArticles.filter((u) => u.attachedTo !== null).length);
    const undatedIds = new Set(report.dates.undatedArticles.map((u) => u.articleId));
    expect(sharing).toBe(
      report.dates.mergedDates.reduce((n, d) => n + d.articleIds.filter((id) => !undatedIds.has(id)).length - 1, 0),
    );

    // Days: every day of the period has an entry, lies inside a multi-day entry, or has no text.
    const days: string[] = [];
    for (let t = Date.UTC(1660, 0, 1); t <= Date.UTC(1669, 4, 31); t += 86_400_000)
      days.push(new Date(t).toISOString().slice(0, 10));
    expect(report.period.days).toBe(days.length);
    const withEntry = new Set([...files.keys()].map((f) => path.basename(f, '.html')));
    expect(report.period.daysWithEntry).toBe(withEntry.size);
    const covered = new Set(report.dates.multiDayArticles.flatMap((a) => a.covers));
    expect(report.period.daysCoveredByMultiDayEntries).toEqual(days.filter((d) => !withEntry.has(d) && covered.has(d)));
    expect(report.period.daysWithoutText).toEqual(days.filter((d) => !withEntry.has(d) && !covered.has(d)));
    expect(
      report.period.daysWithEntry +
        report.period.daysCoveredByMultiDayEntries.length +
        report.period.daysWithoutText.length,
    ).toBe(days.length);

    // Notes: every endnote is attached (printed once, in one entry) or set aside, never both.
    const text = (f: string) => readFileSync(path.join(corpusDir, 'text', f), 'utf8');
    const noteIds = [...text('endnotes.xhtml').matchAll(/<li id="(note-\d+)"/g)].map((x) => x[1] as string);
    expect(report.notes.inEndnotes).toBe(noteIds.length);
    const chapters = readdirSync(path.join(corpusDir, 'text')).filter((f) => /^chapter-\d+\.xhtml$/.test(f));
    let refs = 0;
    for (const f of chapters) {
      for (const a of text(f).matchAll(/<article[\s\S]*?<\/article>/g))
        refs += [...a[0].matchAll(/href="endnotes\.xhtml#note-\d+"/g)].length;
    }
    expect(report.notes.referencesInArticles).toBe(refs);
    expect(report.notes.attached).toBe(
      refs - report.notes.repeatedReferences.length - report.notes.missingNotes.length,
    );
    const printed = [...files.values()].flatMap((t) =>
      [...entryParts(t).footnotes.matchAll(/<li id="(note-\d+)"/g)].map((x) => x[1] as string),
    );
    expect(new Set(printed).size).toBe(printed.length);
    const setAsideIds = report.notes.setAside.map((n) => n.noteId);
    expect([...printed, ...setAsideIds].sort()).toEqual([...noteIds].sort());
  });

  it('fails naming the chapter when one of the real edition is empty (it once lost 31 days silently)', () => {
    const copy = tempDir();
    cpSync(corpusDir, copy, { recursive: true });
    writeFileSync(path.join(copy, 'text', 'chapter-7.xhtml'), '');
    const contentDir = tempDir();
    expect(importError(copy, contentDir)?.message).toBe(
      `${path.join(copy, 'text', 'chapter-7.xhtml')}: the file is empty (0 bytes)`,
    );
    expect(readdirSync(contentDir)).toEqual([]);
  });

  it('starts 1660-01-01 with the edition’s first article, then Pepys’s 1 January', () => {
    const chapter1 = readFileSync(path.join(corpusDir, 'text', 'chapter-1.xhtml'), 'utf8');
    const plain = (html: string): string => html.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ');
    const firstArticle = /<article id="entry-1"[^>]*>([\s\S]*?)<\/article>/.exec(chapter1)?.[1] ?? '';
    const openingWords = plain(firstArticle).trim().slice(0, 40);
    const firstTime = plain(/<time datetime="1660-01-11">([\s\S]*?)<\/time>/.exec(chapter1)?.[1] ?? '');
    expect(openingWords.length).toBe(40);
    const entry = files.get('1660/1660-01-01.html') as string;
    expect(entry.startsWith('---\ndate: 1660-01-01\ntopics: []\n---\n')).toBe(true);
    const body = plain(entryParts(entry).body);
    expect(body.startsWith(openingWords)).toBe(true);
    expect(body).toContain(firstTime);
  });

  it('leaves no EPUB markup or links into the edition’s files', () => {
    for (const [file, text] of files) {
      expect(text, file).not.toMatch(/epub:|endnotes\.xhtml|\.xhtml[#"]|xmlns|xml:lang/);
    }
  });

  it('has every referenced note in the same file, and well-formed HTML', () => {
    const problems: string[] = [];
    for (const [file, text] of files) {
      problems.push(...noteProblems(file, text));
      const { body, footnotes } = entryParts(text);
      try {
        parseXml(`<root>${body}${footnotes}</root>`, file);
      } catch (error) {
        problems.push(String(error));
      }
    }
    expect(problems).toEqual([]);
  });

  it('writes byte-identical files on a second run, the encyclopedia too', () => {
    const before = readTree(out);
    importStandardEbooks(corpusDir, out);
    const again = readTree(path.join(out, 'entries'));
    again.delete(IMPORT_MARKER);
    expect(again.size).toBe(files.size);
    for (const [file, text] of files) if (again.get(file) !== text) expect.fail(`${file} differs on the second run`);
    const whole = readTree(out);
    expect([...whole.keys()]).toEqual([...before.keys()]);
    for (const [file, text] of before) if (whole.get(file) !== text) expect.fail(`${file} differs on the second run`);
  }, 60_000);
});
