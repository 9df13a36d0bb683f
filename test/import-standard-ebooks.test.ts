// The Standard Ebooks importer: its rules on a small synthetic edition, what it refuses, and how it
// fails. The whole real edition is tested in test/heavy/import-corpus.test.ts.

import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, readSiteConfig } from '../generator/content/config.ts';
import { gregorianToJulian } from '../generator/import/old-style.ts';
import { dedent } from '../generator/import/render.ts';
import type { ImportReport } from '../generator/import/report.ts';
import { importStandardEbooks } from '../generator/import/standard-ebooks.ts';
import { IMPORT_MARKER, sweepImportLeftovers } from '../generator/import/write.ts';
import { parseXml } from '../generator/import/xml.ts';
import { MARKER_FILE, RefusedError } from '../generator/output/guard.ts';
import { runCli, UNPRIVILEGED } from './helpers/cli.ts';
import { entryParts } from './helpers/content.ts';
import { readTree } from './helpers/files.ts';
import { article, chapter, importError, NS, note, noteProblems, ref } from './helpers/imported.ts';
import { snapshot } from './helpers/snapshot.ts';
import { tempDir as makeTempDir } from './helpers/temp.ts';

const tempDir = () => makeTempDir('pepys-import-');

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

  it('names the file of 200,000 nested elements instead of overflowing the stack (security)', () => {
    const deep = `<body>\n${'<div>'.repeat(200_000)}x${'</div>'.repeat(200_000)}</body>`;
    expect(() => parseXml(deep, 'chapter-1.xhtml')).toThrow(
      /^chapter-1\.xhtml:2: elements nested more than 1000 deep$/,
    );
  });
});

// A miniature edition with every quirk the rules cover, in the edition's own markup.
function writeMiniEdition(dir: string): void {
  const text = path.join(dir, 'text');
  mkdirSync(text, { recursive: true });
  writeFileSync(
    path.join(text, 'chapter-1.xhtml'),
    chapter(
      1,
      'January 1659–60',
      article('entry-1', `<p>Preface.${ref(2)}</p>`) +
        article(
          'entry-1660-1-11',
          `<p><time datetime="1660-01-11"><abbr epub:type="z3998:name-title">Jan.</abbr> 1st</time>. First day.${ref(3)} <i xml:lang="la">sic</i></p>`,
        ) +
        article(
          'entry-1660-1-12',
          `<p><time datetime="1660-01-12">2nd</time>. Second.${ref(4)} Again${ref(3).replace(' id="noteref-3"', '')}.<!-- a comment --></p>`,
        ) +
        article(
          'entry-1660-1-12',
          `<p><time datetime="1660-01-12">2nd</time>. Second, more.<br/><span epub:type="z3998:roman">IV</span></p>`,
        ),
    ),
  );
  writeFileSync(
    path.join(text, 'chapter-2.xhtml'),
    chapter(
      2,
      'February',
      article('entry-1660-2-24', `<p><time datetime="1660-02-14">14th</time>. Mistyped datetime.${ref(5)}</p>`) +
        article(
          'entry-1660-2-25/1660-2-27',
          `<p><time datetime="1660-02-25">15th</time>, <time datetime="1660-02-26">16th</time>, <time datetime="1660-02-27">17th</time>. Three days.</p><table><tr><td/></tr></table>`,
        ),
    ),
  );
  writeFileSync(
    path.join(text, 'endnotes.xhtml'),
    `<?xml version="1.0" encoding="utf-8"?>\n<html ${NS}>\n\t<body>\n\t\t<section id="endnotes" epub:type="endnotes">\n\t\t\t<ol>\n` +
      note(1, 'chapter-1.xhtml', 'On the heading.') +
      note(2, 'chapter-1.xhtml', 'On the preface.') +
      note(
        3,
        'chapter-1.xhtml',
        'On the first day; see <a href="#note-5">note 5</a> and <a href="#note-1">note 1</a>.',
      ) +
      note(4, 'chapter-1.xhtml', 'Second day; see <a href="chapter-2.xhtml#entry-1660-2-25/1660-2-27">the 15th</a>.') +
      note(
        5,
        'chapter-2.xhtml',
        'Mistyped.<ol><li>nested item</li></ol><figure><img alt="A picture." src="../images/x.svg"/></figure>',
      ) +
      note(6, 'introduction.xhtml', 'Introduction only.') +
      `\t\t\t</ol>\n\t\t</section>\n\t</body>\n</html>\n`,
  );
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
      `entries/${IMPORT_MARKER}`,
      'entries/1660/1660-01-01.html',
      'entries/1660/1660-01-02.html',
      'entries/1660/1660-02-14.html',
      'entries/1660/1660-02-15.html',
      'site.yaml',
      // The encyclopedia's directory, empty: the mini edition marks no names (test/import-encyclopedia.test.ts).
      'topics/standard-ebooks/.pepys-import',
    ]);
    expect(files.get('categories.yaml')).toBe('[]\n');
    // The site.yaml written is read back as the generator's defaults, every key (templates included),
    // and the edition's licence.
    const read = readSiteConfig(out, {}, {});
    expect(read.problems).toEqual([]);
    expect(read.config).toEqual({
      ...DEFAULT_CONFIG,
      license: {
        name: "CC0 1.0 Universal (the Standard Ebooks edition's markup and notes; the diary's text is in the public domain)",
        url: 'https://creativecommons.org/publicdomain/zero/1.0/',
      },
    });
    expect(report.entriesWritten).toBe(4);
    expect(report.entryArithmetic).toBe(
      '6 articles − 0 set aside − 1 undated attached to the next entry − 1 sharing a date with an earlier article = 4',
    );
  });

  it('attaches the undated article to the next entry and merges shared dates in reading order', () => {
    const first = files.get('entries/1660/1660-01-01.html') as string;
    expect(first.startsWith('---\ndate: 1660-01-01\ntopics: []\n---\n<p>Preface.')).toBe(true);
    expect(first.indexOf('Preface.')).toBeLessThan(first.indexOf('First day.'));
    const second = entryParts(files.get('entries/1660/1660-01-02.html') as string).body;
    expect(second.indexOf('Second.')).toBeLessThan(second.indexOf('Second, more.'));
    expect(report.dates.mergedDates).toEqual([
      { date: '1660-01-02', articleIds: ['entry-1660-1-12', 'entry-1660-1-12'] },
    ]);
  });

  it('lets the id win over a mistyped datetime when the printed day agrees with it', () => {
    expect(report.dates.idDatetimeConflicts).toMatchObject([{ articleId: 'entry-1660-2-24', chosen: 'id' }]);
    expect(files.get('entries/1660/1660-02-14.html')).toContain('<time datetime="1660-02-24">14th</time>');
  });

  it('files a multi-day article under its first day', () => {
    expect(report.dates.multiDayArticles).toEqual([
      {
        articleId: 'entry-1660-2-25/1660-2-27',
        date: '1660-02-15',
        covers: ['1660-02-15', '1660-02-16', '1660-02-17'],
      },
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
    expect(entryParts(first).footnotes).toMatch(/<li id="note-2" value="2">[\s\S]*<li id="note-3" value="3">/);
    // note 5 lives in another entry; note 1 (heading) is in none: linked absolutely, unwrapped.
    expect(first).toContain('<a href="https://www.pepysdiary.com/diary/1660/02/14/#note-5">note 5</a>');
    expect(first).toContain(' and note 1.');
    const second = files.get('entries/1660/1660-01-02.html') as string;
    expect(second).toContain('Again<a href="https://www.pepysdiary.com/diary/1660/01/01/#note-3">3</a>');
    expect(second).toContain('<a href="https://www.pepysdiary.com/diary/1660/02/15/">the 15th</a>');
    expect(files.get('entries/1660/1660-02-14.html')).toContain(
      '<ol><li>nested item</li></ol><figure><p>A picture.</p></figure>',
    );
    expect(report.notes.repeatedReferences).toEqual([{ noteId: 'note-3', date: '1660-01-02', home: '1660-01-01' }]);
    expect(report.notes.setAside.map((n) => n.noteId)).toEqual(['note-1', 'note-6']);
    expect(report.notes.setAside[0]?.reason).toMatch(/heading of chapter-1\.xhtml/);
    expect(report.notes.setAside[1]?.reason).toMatch(/introduction\.xhtml/);
  });

  it('replaces only entries/ on a re-run, identically, and keeps other content', () => {
    writeFileSync(path.join(out, 'site.yaml'), 'siteOrigin: https://example.com\n');
    mkdirSync(path.join(out, 'topics'), { recursive: true });
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

/** A content directory holding an earlier import of the mini edition; returns it and its snapshot. */
function earlierImport(): { contentDir: string; before: ReturnType<typeof snapshot> } {
  const edition = tempDir();
  writeMiniEdition(edition);
  const contentDir = tempDir();
  importStandardEbooks(edition, contentDir);
  return { contentDir, before: snapshot(contentDir) };
}

describe('the importer reads every chapter whole, or fails naming it (the earlier import untouched)', () => {
  const cases: [string, (text: string) => void, RegExp][] = [
    [
      'a zero-byte chapter',
      (text) => writeFileSync(path.join(text, 'chapter-2.xhtml'), ''),
      /chapter-2\.xhtml: the file is empty \(0 bytes\)/,
    ],
    [
      'a chapter that is not UTF-8',
      (text) => {
        const file = path.join(text, 'chapter-2.xhtml');
        writeFileSync(
          file,
          Buffer.concat([
            readFileSync(file).subarray(0, 300),
            Buffer.from([0xe9, 0x74, 0xe9]),
            readFileSync(file).subarray(300),
          ]),
        );
      },
      /chapter-2\.xhtml:\d+: not UTF-8 \(byte 300 is not part of a UTF-8 character\)/,
    ],
    [
      'a chapter cut in the middle',
      (text) => {
        const file = path.join(text, 'chapter-2.xhtml');
        writeFileSync(file, readFileSync(file).subarray(0, Math.floor(readFileSync(file).length / 2)));
      },
      /chapter-2\.xhtml:\d+: (<\w+> is never closed|stray "<" \(not a tag\))/,
    ],
    [
      'a chapter cut after its prolog',
      (text) => {
        writeFileSync(path.join(text, 'chapter-2.xhtml'), '<?xml version="1.0" encoding="utf-8"?>\n');
      },
      /chapter-2\.xhtml: not a whole XHTML document \(no single <html> root element\): truncated\?/,
    ],
    [
      'a chapter with no diary entry left in it',
      (text) => {
        writeFileSync(path.join(text, 'chapter-2.xhtml'), chapter(2, 'February', ''));
      },
      /chapter-2\.xhtml: no diary entry \(<article>\) in it/,
    ],
    [
      'a chapter that cannot be read (a directory by that name)',
      (text) => {
        const file = path.join(text, 'chapter-2.xhtml');
        rmSync(file);
        mkdirSync(file);
      },
      /chapter-2\.xhtml: cannot be read \(EISDIR\)/,
    ],
    [
      'a missing chapter between two others',
      (text) => {
        writeFileSync(path.join(text, 'chapter-3.xhtml'), readFileSync(path.join(text, 'chapter-2.xhtml')));
        rmSync(path.join(text, 'chapter-2.xhtml'));
      },
      /chapter-2\.xhtml: missing \(the chapters run from 1 with no gap\)/,
    ],
    [
      'a missing last chapter that the table of contents lists',
      (text) => {
        writeFileSync(
          path.join(text, '..', 'toc.xhtml'),
          '<a href="text/chapter-1.xhtml">1</a> <a href="text/chapter-2.xhtml#x">2</a> <a href="text/chapter-3.xhtml">3</a>',
        );
      },
      /chapter-3\.xhtml: missing \(toc\.xhtml lists it\)/,
    ],
    [
      'truncated endnotes',
      (text) => {
        const file = path.join(text, 'endnotes.xhtml');
        writeFileSync(file, readFileSync(file).subarray(0, readFileSync(file).length - 40));
      },
      /endnotes\.xhtml:\d+: <\w+> is never closed/,
    ],
  ];
  for (const [name, damage, message] of cases) {
    it(name, () => {
      const { contentDir, before } = earlierImport();
      const edition = tempDir();
      writeMiniEdition(edition);
      damage(path.join(edition, 'text'));
      const error = importError(edition, contentDir);
      expect(error?.message).toMatch(message);
      expect(error?.message).toContain(path.join(edition, 'text'));
      expect(snapshot(contentDir)).toEqual(before);
    });
  }

  it('as a command: one line naming the file, exit 1', async () => {
    const { contentDir, before } = earlierImport();
    const edition = tempDir();
    writeMiniEdition(edition);
    writeFileSync(path.join(edition, 'text', 'chapter-1.xhtml'), '');
    const r = await runCli('import', ['standard-ebooks', edition, '--out', contentDir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${path.join(edition, 'text', 'chapter-1.xhtml')}: the file is empty (0 bytes); nothing was imported\n`,
    );
    expect(snapshot(contentDir)).toEqual(before);
  });
});

describe.skipIf(UNPRIVILEGED === null)(
  'an unreadable chapter (file modes apply: an ordinary user, or root without its capabilities)',
  () => {
    it('fails naming it, exit 1', async () => {
      const { contentDir, before } = earlierImport();
      const edition = tempDir();
      writeMiniEdition(edition);
      chmodSync(path.join(edition, 'text', 'chapter-2.xhtml'), 0o000);
      const r = await runCli('import', ['standard-ebooks', edition, '--out', contentDir], { wrap: UNPRIVILEGED ?? [] });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `error: ${path.join(edition, 'text', 'chapter-2.xhtml')}: cannot be read (EACCES); nothing was imported\n`,
      );
      expect(snapshot(contentDir)).toEqual(before);
    });
  },
);

describe('the importer writes only into a content directory', () => {
  function refused(edition: string, contentDir: string, reason: RegExp, watch: string): void {
    const before = snapshot(watch);
    const error = importError(edition, contentDir);
    expect(error).toBeInstanceOf(RefusedError);
    expect(error?.message).toMatch(reason);
    expect(snapshot(watch)).toEqual(before);
  }

  it('refuses the edition, a directory inside it or containing it', () => {
    const root = tempDir();
    const edition = path.join(root, 'edition');
    writeMiniEdition(edition);
    refused(edition, edition, /is the edition itself/, root);
    refused(edition, path.join(edition, 'text'), /lies inside the edition/, root);
    refused(edition, root, /contains the edition/, root);
  });

  it("refuses a build's output, a directory of other things, hand-written entries, a file", async () => {
    const root = tempDir();
    const edition = path.join(root, 'edition');
    writeMiniEdition(edition);
    const output = path.join(root, 'public');
    mkdirSync(output);
    writeFileSync(path.join(output, MARKER_FILE), 'x');
    writeFileSync(path.join(output, 'index.json'), '{}');
    refused(edition, output, /is a build's output/, root);
    const docs = path.join(root, 'docs');
    mkdirSync(docs);
    writeFileSync(path.join(docs, 'thesis.tex'), 'years of work');
    refused(edition, docs, /is not a content directory/, root);
    const handWritten = path.join(root, 'content');
    mkdirSync(path.join(handWritten, 'entries', '1660'), { recursive: true });
    writeFileSync(
      path.join(handWritten, 'entries', '1660', '1660-01-01.html'),
      '---\ndate: 1660-01-01\n---\n<p>Mine.</p>\n',
    );
    refused(edition, handWritten, /holds entries this importer did not write/, root);
    writeFileSync(path.join(root, 'file'), 'x');
    refused(edition, path.join(root, 'file'), /is not a directory/, root);
    // As a command: exit 2 and the one line.
    const r = await runCli('import', ['standard-ebooks', edition, '--out', handWritten]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: --out .*content: .*entries holds entries this importer did not write \(no \.pepys-import in it\)[^\n]*\n$/,
    );
  });

  it('refuses /, the working directory and the home directory', () => {
    const root = tempDir();
    const edition = path.join(root, 'edition');
    writeMiniEdition(edition);
    refused(edition, '/', /is the root directory/, root);
    refused(edition, process.cwd(), /is the current directory/, root);
    const home = path.join(root, 'home');
    mkdirSync(home);
    const previous = process.env.HOME;
    process.env.HOME = home;
    try {
      refused(edition, home, /is your home directory/, root);
    } finally {
      process.env.HOME = previous;
    }
  });

  it('puts the previous entries back when an import died between its two renames, and sweeps the rest', async () => {
    const { contentDir, before } = earlierImport();
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => child.on('exit', r));
    const dead = child.pid as number;
    renameSync(path.join(contentDir, 'entries'), path.join(contentDir, `.entries-old-${dead}`));
    mkdirSync(path.join(contentDir, `.entries-import-${dead}`, '1660'), { recursive: true });
    sweepImportLeftovers(contentDir);
    expect(snapshot(contentDir)).toEqual(before);
  });
});
