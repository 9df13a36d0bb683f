// The Standard Ebooks importer: rules on a small synthetic edition (always runs), and the whole
// real edition from ../shared/corpus (skipped, with a message, when that directory is absent).
// The corpus's text is never copied here: expectations about it are read from it at run time.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { gregorianToJulian } from '../generator/import/old-style.ts';
import { dedent } from '../generator/import/render.ts';
import type { ImportReport } from '../generator/import/report.ts';
import { importStandardEbooks } from '../generator/import/standard-ebooks.ts';
import { parseXml } from '../generator/import/xml.ts';
import { readTree } from './helpers/files.ts';
import { tempDir as makeTempDir } from './helpers/temp.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = path.resolve(repoRoot, '../shared/corpus/standard-ebooks-pepys-diary');
const FOOTNOTES = '\n<!-- footnotes -->\n';

const tempDir = () => makeTempDir('pepys-import-');


function splitEntry(text: string): { front: string; body: string; footnotes: string } {
  const close = text.indexOf('\n---\n', 3);
  const rest = text.slice(close + 5);
  const marker = rest.indexOf(FOOTNOTES);
  return {
    front: text.slice(0, close),
    body: marker === -1 ? rest : rest.slice(0, marker),
    footnotes: marker === -1 ? '' : rest.slice(marker + FOOTNOTES.length),
  };
}

/** Problems with an entry's note wiring: every reference has its note here, and back. */
function noteProblems(file: string, text: string): string[] {
  const { body, footnotes } = splitEntry(text);
  const problems: string[] = [];
  const refs = [...body.matchAll(/<a href="#(note-\d+)"( id="noteref-(\d+)")?/g)];
  const notes = new Set([...footnotes.matchAll(/<li id="(note-\d+)"/g)].map((m) => m[1]));
  const refIds = new Set(refs.filter((m) => m[2]).map((m) => `note-${m[3]}`));
  for (const m of refs) if (!notes.has(m[1] as string)) problems.push(`${file}: ${m[1]} referenced but not in the footnotes`);
  for (const note of notes) if (!refIds.has(note as string)) problems.push(`${file}: ${note} printed but never referenced`);
  for (const m of footnotes.matchAll(/href="#noteref-(\d+)"/g)) {
    if (!body.includes(`id="noteref-${m[1]}"`)) problems.push(`${file}: backlink to missing noteref-${m[1]}`);
  }
  const ids = [...text.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
  if (new Set(ids).size !== ids.length) problems.push(`${file}: duplicate ids`);
  return problems;
}

describe('calendar and text helpers', () => {
  it('converts the edition’s Gregorian dates to the diary’s Julian ones', () => {
    expect(gregorianToJulian('1660-01-11')).toBe('1660-01-01');
    expect(gregorianToJulian('1660-03-10')).toBe('1660-02-29'); // both calendars leap in 1660
    expect(gregorianToJulian('1669-06-10')).toBe('1669-05-31');
    expect(() => gregorianToJulian('1750-01-01')).toThrow();
  });

  it('dedents a fragment without touching its content', () => {
    expect(dedent('\n\t\t\t<p>a\n\t\t\t\t<b>b</b></p>\n\t\t')).toBe('<p>a\n\t<b>b</b></p>');
  });

  it('rejects malformed XHTML instead of guessing', () => {
    expect(() => parseXml('<p><i>x</p></i>', 'x.xhtml')).toThrow(/x\.xhtml:1/);
  });
});

// A miniature edition with every quirk the rules cover, in the edition's own markup.
const NS = 'xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en-GB"';
const ref = (n: number): string => `<a href="endnotes.xhtml#note-${n}" id="noteref-${n}" epub:type="noteref">${n}</a>`;
const article = (id: string, inner: string): string =>
  `\t\t\t<article id="${id}" epub:type="z3998:diary-entry">\n\t\t\t\t${inner}\n\t\t\t</article>\n`;
const chapter = (n: number, title: string, articles: string): string =>
  `<?xml version="1.0" encoding="utf-8"?>\n<html ${NS}>\n\t<head><title>${title}</title></head>\n\t<body epub:type="bodymatter">\n` +
  `\t\t<section id="chapter-${n}" epub:type="chapter">\n\t\t\t<h2 epub:type="title">${title}${n === 1 ? ref(1) : ''}</h2>\n` +
  `${articles}\t\t</section>\n\t</body>\n</html>\n`;
const note = (n: number, backTo: string, inner: string): string =>
  `\t\t\t\t<li id="note-${n}">\n\t\t\t\t\t<p>${inner} <a href="${backTo}#noteref-${n}" epub:type="backlink">↩</a></p>\n\t\t\t\t</li>\n`;

function writeMiniEdition(dir: string): void {
  const text = path.join(dir, 'text');
  mkdirSync(text, { recursive: true });
  writeFileSync(path.join(text, 'chapter-1.xhtml'), chapter(1, 'January 1659–60',
    article('entry-1', `<p>Preface.${ref(2)}</p>`) +
    article('entry-1660-1-11', `<p><time datetime="1660-01-11"><abbr epub:type="z3998:name-title">Jan.</abbr> 1st</time>. First day.${ref(3)} <i xml:lang="la">sic</i></p>`) +
    article('entry-1660-1-12', `<p><time datetime="1660-01-12">2nd</time>. Second.${ref(4)} Again${ref(3).replace(' id="noteref-3"', '')}.<!-- a comment --></p>`) +
    article('entry-1660-1-12', `<p><time datetime="1660-01-12">2nd</time>. Second, more.<br/><span epub:type="z3998:roman">IV</span></p>`)));
  writeFileSync(path.join(text, 'chapter-2.xhtml'), chapter(2, 'February',
    article('entry-1660-2-24', `<p><time datetime="1660-02-14">14th</time>. Mistyped datetime.${ref(5)}</p>`) +
    article('entry-1660-2-25/1660-2-27', `<p><time datetime="1660-02-25">15th</time>, <time datetime="1660-02-26">16th</time>, <time datetime="1660-02-27">17th</time>. Three days.</p><table><tr><td/></tr></table>`)));
  writeFileSync(path.join(text, 'endnotes.xhtml'),
    `<?xml version="1.0" encoding="utf-8"?>\n<html ${NS}>\n\t<body>\n\t\t<section id="endnotes" epub:type="endnotes">\n\t\t\t<ol>\n` +
    note(1, 'chapter-1.xhtml', 'On the heading.') +
    note(2, 'chapter-1.xhtml', 'On the preface.') +
    note(3, 'chapter-1.xhtml', 'On the first day; see <a href="#note-5">note 5</a> and <a href="#note-1">note 1</a>.') +
    note(4, 'chapter-1.xhtml', 'Second day; see <a href="chapter-2.xhtml#entry-1660-2-25/1660-2-27">the 15th</a>.') +
    note(5, 'chapter-2.xhtml', 'Mistyped.<ol><li>nested item</li></ol><figure><img alt="A picture." src="../images/x.svg"/></figure>') +
    note(6, 'introduction.xhtml', 'Introduction only.') +
    `\t\t\t</ol>\n\t\t</section>\n\t</body>\n</html>\n`);
}

describe('importer rules (synthetic edition)', () => {
  let out: string;
  let report: ImportReport;
  let files: Map<string, string>;
  beforeAll(() => {
    const edition = tempDir();
    writeMiniEdition(edition);
    out = tempDir();
    report = importStandardEbooks(edition, out);
    files = readTree(out);
  });

  it('writes one entry per Julian date and the default site files', () => {
    expect([...files.keys()]).toEqual([
      'categories.yaml',
      'entries/1660/1660-01-01.html',
      'entries/1660/1660-01-02.html',
      'entries/1660/1660-02-14.html',
      'entries/1660/1660-02-15.html',
      'site.yaml',
    ]);
    expect(files.get('categories.yaml')).toBe('[]\n');
    expect(report.entriesWritten).toBe(4);
    expect(report.entryArithmetic).toBe('6 articles − 0 set aside − 1 undated attached to the next entry − 1 sharing a date with an earlier article = 4');
  });

  it('attaches the undated article to the next entry and merges shared dates in reading order', () => {
    const first = files.get('entries/1660/1660-01-01.html') as string;
    expect(first.startsWith('---\ndate: 1660-01-01\ntopics: []\n---\n<p>Preface.')).toBe(true);
    expect(first.indexOf('Preface.')).toBeLessThan(first.indexOf('First day.'));
    const second = splitEntry(files.get('entries/1660/1660-01-02.html') as string).body;
    expect(second.indexOf('Second.')).toBeLessThan(second.indexOf('Second, more.'));
    expect(report.dates.mergedDates).toEqual([{ date: '1660-01-02', articleIds: ['entry-1660-1-12', 'entry-1660-1-12'] }]);
  });

  it('lets the id win over a mistyped datetime when the printed day agrees with it', () => {
    expect(report.dates.idDatetimeConflicts).toMatchObject([{ articleId: 'entry-1660-2-24', chosen: 'id' }]);
    expect(files.get('entries/1660/1660-02-14.html')).toContain('<time datetime="1660-02-24">14th</time>');
  });

  it('files a multi-day article under its first day', () => {
    expect(report.dates.multiDayArticles).toEqual([
      { articleId: 'entry-1660-2-25/1660-2-27', date: '1660-02-15', covers: ['1660-02-15', '1660-02-16', '1660-02-17'] },
    ]);
    expect(report.period.daysCoveredByMultiDayEntries).toEqual(['1660-02-16', '1660-02-17']);
  });

  it('cleans EPUB markup and keeps the rest faithfully', () => {
    const text = [...files.values()].join('\n');
    expect(text).not.toMatch(/epub:|xmlns|\.xhtml|<!-- a comment/);
    expect(text).toContain('<abbr>Jan.</abbr> 1st');
    expect(text).toContain('<i lang="la">sic</i>');
    expect(text).toContain('<br/><span>IV</span>');
    expect(text).toContain('<td></td>');
  });

  it('wires notes into entries: first reference, backlinks, cross-links, set-aside notes', () => {
    for (const [file, text] of files) if (file.endsWith('.html')) expect(noteProblems(file, text)).toEqual([]);
    const first = files.get('entries/1660/1660-01-01.html') as string;
    expect(splitEntry(first).footnotes).toMatch(/<li id="note-2" value="2">[\s\S]*<li id="note-3" value="3">/);
    // note 5 lives in another entry; note 1 (heading) is in none: linked absolutely, unwrapped.
    expect(first).toContain('<a href="https://www.pepysdiary.com/diary/1660/02/14/#note-5">note 5</a>');
    expect(first).toContain(' and note 1.');
    const second = files.get('entries/1660/1660-01-02.html') as string;
    expect(second).toContain('Again<a href="https://www.pepysdiary.com/diary/1660/01/01/#note-3">3</a>');
    expect(second).toContain('<a href="https://www.pepysdiary.com/diary/1660/02/15/">the 15th</a>');
    expect(files.get('entries/1660/1660-02-14.html')).toContain('<ol><li>nested item</li></ol><figure><p>A picture.</p></figure>');
    expect(report.notes.repeatedReferences).toEqual([{ noteId: 'note-3', date: '1660-01-02', home: '1660-01-01' }]);
    expect(report.notes.setAside.map((n) => n.noteId)).toEqual(['note-1', 'note-6']);
    expect(report.notes.setAside[0]?.reason).toMatch(/heading of chapter-1\.xhtml/);
    expect(report.notes.setAside[1]?.reason).toMatch(/introduction\.xhtml/);
  });

  it('replaces only entries/ on a re-run, identically, and keeps other content', () => {
    writeFileSync(path.join(out, 'site.yaml'), 'siteOrigin: https://example.com\n');
    mkdirSync(path.join(out, 'topics'));
    writeFileSync(path.join(out, 'topics', '1.yaml'), 'id: 1\ntitle: T\n');
    writeFileSync(path.join(out, 'entries', '1660', 'stale.html'), 'stale');
    const edition = tempDir();
    writeMiniEdition(edition);
    importStandardEbooks(edition, out);
    const again = readTree(out);
    expect(again.has('entries/1660/stale.html')).toBe(false);
    expect(again.get('topics/1.yaml')).toBe('id: 1\ntitle: T\n');
    expect(again.get('site.yaml')).toBe('siteOrigin: https://example.com\n');
    // The configured site origin is used for links between entries.
    expect(again.get('entries/1660/1660-01-01.html')).toContain('https://example.com/diary/1660/02/14/#note-5');
  });
});

const haveCorpus = existsSync(path.join(corpusDir, 'text'));
if (!haveCorpus) console.warn(`import tests on the real corpus skipped: ${corpusDir} not found`);

describe.skipIf(!haveCorpus)(`importer on the real corpus (${path.relative(repoRoot, corpusDir)})`, () => {
  let out: string;
  let report: ImportReport;
  let files: Map<string, string>;
  beforeAll(() => {
    out = tempDir();
    report = importStandardEbooks(corpusDir, out);
    files = new Map([...readTree(path.join(out, 'entries'))]);
  }, 30_000);

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
      [...readFileSync(path.join(corpusDir, 'text', f), 'utf8').matchAll(/<article id="([^"]*)"/g)].map((m) => `${f}#${m[1]}`));
    expect(Object.keys(report.articleEntries).sort()).toEqual(articleIds.sort());
    expect(report.articlesRead).toBe(articleIds.length);
    const placed = new Set(Object.values(report.articleEntries));
    expect(placed.size).toBe(report.entriesWritten);

    const endnotes = readFileSync(path.join(corpusDir, 'text', 'endnotes.xhtml'), 'utf8');
    const noteCount = [...endnotes.matchAll(/<li id="note-\d+">/g)].length;
    expect(report.notes.attached + report.notes.setAside.length).toBe(noteCount);
    let printed = 0;
    for (const text of files.values()) printed += [...splitEntry(text).footnotes.matchAll(/<li id="note-\d+"/g)].length;
    expect(printed).toBe(report.notes.attached);
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
    const body = plain(splitEntry(entry).body);
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
      const { body, footnotes } = splitEntry(text);
      try {
        parseXml(`<root>${body}${footnotes}</root>`, file);
      } catch (error) {
        problems.push(String(error));
      }
    }
    expect(problems).toEqual([]);
  });

  it('writes byte-identical files on a second run', () => {
    importStandardEbooks(corpusDir, out);
    const again = readTree(path.join(out, 'entries'));
    expect(again.size).toBe(files.size);
    for (const [file, text] of files) if (again.get(file) !== text) expect.fail(`${file} differs on the second run`);
  }, 30_000);
});
