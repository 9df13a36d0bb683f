import { describe, expect, it } from 'vitest';
import { loadContent } from '../generator/content/load.ts';
import { titleFormat } from '../generator/content/locale.ts';
import { ContentError, formatProblem, type Problem } from '../generator/content/problems.ts';
import { hasTitleShape as shapeIn, type TitleFormat } from '../generator/core/titles.ts';
import { CATEGORIES_YAML, entryFile, problemsOf, smallSite, writeContent } from './helpers/content.ts';
import { checkHostileTree, cpuMsSince, expectProblem } from './helpers/validation.ts';

const hasTitleShape = (title: string) => shapeIn(title, titleFormat('en') as TitleFormat);

describe('content validation', () => {
  it('accepts the small valid site and derives both directions of each relation', async () => {
    const { model } = await loadContent(writeContent(smallSite()));
    expect(model.entries.map((e) => e.date)).toEqual(['1660-01-01', '1660-01-02', '1661-01-20']);
    expect(model.topicEntries.get(2)).toEqual(['1660-01-01', '1660-01-02']);
    expect(model.categoryTopics.get('servants')).toEqual([1]);
    expect(model.categoryAncestors.get('servants')).toEqual(['people', 'household']);
  });

  it('reports malformed YAML with its line', async () => {
    const problems = await problemsOf({
      ...smallSite(),
      'topics/3.yaml': 'id: 3\ntitle: Broken\ncategories: [servants\n',
      'entries/1660/1660-01-03.html': '---\ndate: 1660-01-03\ntopics: [1\n---\n<p>x</p>\n',
      'categories.yaml': '- slug: people\n  title: People\n- slug: [oops\n',
    });
    expect(problems.some((p) => p.file === 'categories.yaml' && p.line >= 3 && /malformed YAML/.test(p.message))).toBe(
      true,
    );
    expect(problems.some((p) => p.file === 'topics/3.yaml' && p.line >= 3 && /malformed YAML/.test(p.message))).toBe(
      true,
    );
    expect(
      problems.some(
        (p) => p.file === 'entries/1660/1660-01-03.html' && p.line >= 3 && /malformed YAML/.test(p.message),
      ),
    ).toBe(true);
  });

  it('reports bad dates, dates outside the period and duplicate dates', async () => {
    const problems = await problemsOf({
      ...smallSite(),
      'entries/a.html': entryFile('1661-02-30'),
      'entries/b.html': entryFile('1659-12-31'),
      'entries/c.html': entryFile('1669-06-01'),
      'entries/d.html': '---\ntopics: []\ndate: 1660-01-02\n---\n<p>again</p>\n',
      'entries/e.html': '---\ndate: yesterday\n---\n',
    });
    expectProblem(problems, 'entries/a.html', 2, /real calendar date/);
    expectProblem(problems, 'entries/b.html', 2, /outside the diary's period/);
    expectProblem(problems, 'entries/c.html', 2, /outside the diary's period/);
    expectProblem(problems, 'entries/d.html', 3, /duplicate date 1660-01-02, also in entries\/1660\/1660-01-02.html/);
    expectProblem(problems, 'entries/e.html', 2, /real calendar date/);
  });

  it('reports unknown topic and category references', async () => {
    const problems = await problemsOf({
      ...smallSite(),
      'entries/1660/1660-01-05.html': entryFile('1660-01-05', 'title: Thursday 5 January 1660\ntopics: [1, 99]\n'),
      'topics/3.yaml': 'id: 3\ntitle: Lost\n\ncategories: [nowhere, servants]\n',
    });
    expectProblem(problems, 'entries/1660/1660-01-05.html', 4, /unknown topic 99/);
    expectProblem(problems, 'topics/3.yaml', 4, /unknown category "nowhere"/);
    expect(problems).toHaveLength(2);
  });

  it('reports duplicate topic ids and duplicate category slugs', async () => {
    const site = smallSite();
    const problems = await problemsOf({
      ...site,
      'topics/other.yaml': 'title: Jane again\nid: 1\n',
      'categories.yaml': `${site['categories.yaml']}- slug: people\n  title: People again\n`,
    });
    expectProblem(problems, 'topics/other.yaml', 2, /duplicate topic id 1, also in topics\/1.yaml/);
    expectProblem(problems, 'categories.yaml', 9, /duplicate category slug "people", first at line 1/);
  });

  it('reports cycles and trees deeper than three levels', async () => {
    const problems = await problemsOf({
      ...smallSite(),
      'categories.yaml': [
        '- slug: a',
        '  title: A',
        '  parent: b',
        '- slug: b',
        '  title: B',
        '  parent: a',
        '- slug: people',
        '  title: People',
        '- slug: household',
        '  title: Household',
        '  parent: people',
        '- slug: servants',
        '  title: Servants',
        '  parent: household',
        '- slug: cooks',
        '  title: Cooks',
        '  parent: servants',
        '',
      ].join('\n'),
    });
    expectProblem(problems, 'categories.yaml', 1, /"a" is in a cycle: a → b → a/);
    expectProblem(problems, 'categories.yaml', 4, /"b" is in a cycle/);
    expectProblem(problems, 'categories.yaml', 15, /"cooks" is at depth 4; the tree has at most 3 levels/);
  });

  it('reports wrong field types, unknown fields and missing fields', async () => {
    const problems = await problemsOf({
      ...smallSite(),
      'topics/4.yaml': 'id: 4\ntitle: Odd\nkind: animal\nlatitude: north\ntitel: typo\n',
      'topics/5.yaml': 'title: No id\n',
      'entries/x.html': '---\ndate: 1660-02-01\nannotationCount: -1\nlastModifiedTime: 2024-01-01\n---\n',
      'entries/y.html': '<p>no front matter</p>\n',
    });
    expectProblem(problems, 'topics/4.yaml', 3, /"kind" must be one of person, place, default/);
    expectProblem(problems, 'topics/4.yaml', 4, /"latitude" must be a number/);
    expectProblem(problems, 'topics/4.yaml', 5, /unknown field "titel"/);
    expectProblem(problems, 'topics/5.yaml', 1, /missing required field "id"/);
    expectProblem(problems, 'entries/x.html', 3, /"annotationCount" must be a whole number/);
    expectProblem(problems, 'entries/x.html', 4, /"lastModifiedTime" must be a UTC timestamp/);
    expectProblem(problems, 'entries/y.html', 1, /must start with a "---" line/);
  });

  it('locates hostile keys as text, never as a regular expression (security)', async () => {
    // Once, "(a+)+c" became a pattern with catastrophic backtracking against the line of a's, and
    // "a[b" an invalid pattern that aborted the build without a location.
    const problems = await problemsOf({
      ...smallSite(),
      'topics/4.yaml': `id: 4\ntitle: Odd\n"(a+)+c": 1\nnote: ${'a'.repeat(38)}\n"a[b": 2\n'x.*': 3\n`,
    });
    expectProblem(problems, 'topics/4.yaml', 3, /unknown field "\(a\+\)\+c"/);
    expectProblem(problems, 'topics/4.yaml', 4, /unknown field "note"/);
    expectProblem(problems, 'topics/4.yaml', 5, /unknown field "a\[b"/);
    expectProblem(problems, 'topics/4.yaml', 6, /unknown field "x\.\*"/);
  });

  it('locates an empty key on its own line, not on the first', async () => {
    const problems = await problemsOf({ ...smallSite(), 'topics/4.yaml': 'id: 4\ntitle: Odd\n\n: stray [\n' });
    expectProblem(problems, 'topics/4.yaml', 4, /unknown field ""/);
  });

  it('reports 20,000 unknown keys of one file in linear time', async () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `k${i}: ${i}`).join('\n');
    const started = process.cpuUsage();
    const problems = await problemsOf({ ...smallSite(), 'topics/4.yaml': `id: 4\ntitle: Many\n${keys}\n` });
    // Not a timing assertion of speed (that belongs to benches), only a bound far above linear
    // (well under a second here) and far below quadratic (31 s before).
    expect(cpuMsSince(started)).toBeLessThan(15_000);
    expectProblem(problems, 'topics/4.yaml', 3, /unknown field "k0"/);
    expectProblem(problems, 'topics/4.yaml', 20_002, /unknown field "k19999"/);
  });

  // At a tenth of its scale (a thousand levels, a cycle of 300): the full 10,000 and 3,000, and the
  // bound on their CPU time, in test/heavy/validation-scale.test.ts.
  it('checks a hostile category tree with bounded output (security)', async () => {
    await checkHostileTree(1_000, 300);
  });

  it('reports YAML alias bombs and dangling aliases as located problems, and still the others (security)', async () => {
    const laughs = [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    ].join('\n');
    const problems = await problemsOf({
      ...smallSite(),
      'topics/4.yaml': `id: 4\ntitle: Laughs\n${laughs}\n`,
      'topics/5.yaml': 'id: 5\ntitle: Dangling\ncategories: *nowhere\n',
      'topics/6.yaml': 'id: 6\ntitle: Fine but for its kind\nkind: animal\n',
    });
    expectProblem(problems, 'topics/4.yaml', 1, /malformed YAML: .*alias/i);
    expectProblem(problems, 'topics/5.yaml', 1, /malformed YAML: .*alias/i);
    expectProblem(problems, 'topics/6.yaml', 3, /"kind" must be one of/);
  });

  it('bounds slugs before they name files, as file:line', async () => {
    const problems = await problemsOf({
      ...smallSite(),
      'categories.yaml': `${CATEGORIES_YAML}- slug: ${'a'.repeat(300)}\n  title: Long\n`,
    });
    expectProblem(problems, 'categories.yaml', 9, /slug is 300 characters long; at most 100/);
  });

  it('prints control characters of content as escapes, never raw (security)', () => {
    const problem: Problem = { file: 'topics/\u001b[2J.yaml', line: 3, message: 'unknown field "\u001b[31mred\u202e"' };
    const line = formatProblem(problem, 'content');
    expect(line).toBe('content/topics/\\u{1b}[2J.yaml:3: unknown field "\\u{1b}[31mred\\u{202e}"');
    const message = new ContentError([problem], 'content').message;
    expect([...message].filter((c) => (c.codePointAt(0) as number) < 0x20 && c !== '\n')).toEqual([]);
    expect(message).not.toContain('\u202e');
  });

  it('reports every problem of every file in one run', async () => {
    const problems = await problemsOf({
      ...smallSite(),
      'entries/a.html': entryFile('1661-02-30'),
      'entries/b.html': entryFile('1660-01-09', 'topics: [77]\n'),
      'topics/9.yaml': 'id: 9\ntitle: T\ncategories: [ghost]\n',
      'categories.yaml': '- slug: Bad Slug\n  title: X\n',
    });
    const files = new Set(problems.map((p) => p.file));
    expect(files).toEqual(
      new Set([
        'entries/a.html',
        'entries/b.html',
        'topics/9.yaml',
        'categories.yaml',
        'topics/1.yaml',
        'topics/2.yaml',
      ]),
    );
  });

  it('formats problems as file:line: reason', async () => {
    const dir = writeContent({ ...smallSite(), 'entries/a.html': entryFile('1661-02-30') });
    await expect(loadContent(dir)).rejects.toThrow(`${dir}/entries/a.html:2: "date" must be a real calendar date`);
  });

  it('reports a bad site.yaml', async () => {
    const problems = await problemsOf({ ...smallSite(), 'site.yaml': 'apiOrigin: not a url\npageSize: 0\n' });
    expectProblem(problems, 'site.yaml', 1, /apiOrigin/);
    expectProblem(problems, 'site.yaml', 2, /pageSize/);
  });

  it('publishes another diary in its own calendar, period and locale (site.yaml)', async () => {
    const base = Object.fromEntries(Object.entries(smallSite()).filter(([path]) => !path.startsWith('entries/')));
    const site =
      'title: Carnet de guerre\ncalendar: gregorian\nlocale: fr\nperiod: { start: 1914-08-01, end: 1918-11-11 }\n';
    const { model } = await loadContent(
      writeContent({
        ...base,
        'site.yaml': site,
        'entries/1914/1914-08-02.html': entryFile('1914-08-02', 'topics: [1, 2]\n'),
        'entries/1918/1918-11-11.html': entryFile('1918-11-11', 'title: lundi 11 novembre 1918\n'),
      }),
    );
    expect(model.entries.map((e) => e.title)).toEqual(['dimanche 2 août 1914', 'lundi 11 novembre 1918']);
    const problems = await problemsOf({
      ...base,
      'site.yaml': site,
      'entries/a.html': entryFile('1660-01-01'),
      'entries/b.html': entryFile('1914-08-03', 'title: Monday 3 August 1914\n'),
      'entries/c.html': entryFile('1900-02-29'),
    });
    expectProblem(
      problems,
      'entries/a.html',
      2,
      /^date 1660-01-01 is outside the diary's period \(1914-08-01 to 1918-11-11/,
    );
    expectProblem(problems, 'entries/b.html', 3, /locale \(e\.g\. "lundi 3 août 1914"\), not "Monday 3 August 1914"$/);
    expectProblem(
      problems,
      'entries/c.html',
      2,
      /1900-02-29 is not a date of the Gregorian calendar: 1900 is not a leap year/,
    );
  });

  it('refuses a date the British calendar skipped, and a bad calendar, locale or period', async () => {
    const british = 'calendar: british\nperiod: { start: 1752-01-01, end: 1752-12-31 }\n';
    const gap = await problemsOf({ ...smallSite(), 'site.yaml': british, 'entries/x.html': entryFile('1752-09-05') });
    expectProblem(gap, 'entries/x.html', 2, /1752-09-05 does not exist in the British calendar/);
    const bad = await problemsOf({
      ...smallSite(),
      'site.yaml': 'calendar: mayan\nlocale: klingon\nperiod: { start: 1914-08-01, end: 1914-01-01 }\n',
    });
    expectProblem(bad, 'site.yaml', 1, /"calendar" must be one of julian, gregorian, british, not "mayan"/);
    expectProblem(bad, 'site.yaml', 2, /"locale": "klingon" is not a locale of date-fns/);
    expectProblem(bad, 'site.yaml', 3, /"period": its start 1914-08-01 comes after its end 1914-01-01/);
    const wrongDay = await problemsOf({
      ...smallSite(),
      'site.yaml': 'calendar: gregorian\nperiod: { start: 1700-02-29, end: 1701-01-01 }\n',
    });
    expectProblem(wrongDay, 'site.yaml', 2, /"period": 1700-02-29 is not a date of the Gregorian calendar/);
  });

  it("takes a title override only in the seed's shape, and rejects any other naming file and line", async () => {
    for (const title of [
      'Sunday 1 January 1659/60',
      'Wednesday 23 May 1660',
      'Sunday 20 January 1660/61',
      'Monday 31 December 1669',
      'Friday 9 February 1699/00',
    ]) {
      expect(hasTitleShape(title), title).toBe(true);
    }
    for (const title of [
      'The King comes aboard',
      'Sunday 01 January 1660',
      'Sunday 1 Jan 1660',
      'sunday 1 January 1660',
      'Sunday 1 January 60',
      'Sunday 1 January 1659/61',
      'Sunday 1 January 1659/1660',
      'Sunday 32 January 1660',
      'Sunday 0 January 1660',
      'Sunday  1 January 1660',
      'Sunday 1 January 1660 ',
      'Someday 1 January 1660',
      'Sunday 1 January 1660\nx',
    ]) {
      expect(hasTitleShape(title), title).toBe(false);
    }
    const problems = await problemsOf({
      ...smallSite(),
      'entries/1660/1660-05-23.html': entryFile('1660-05-23', 'topics: [1]\ntitle: The King comes aboard\n'),
      'entries/1660/1660-05-24.html': entryFile('1660-05-24', 'title: Thursday 24 May 1660/62\n'),
    });
    expectProblem(
      problems,
      'entries/1660/1660-05-23.html',
      4,
      /^"title" must keep the shape of the titles in the site's locale \(e\.g\. "Wednesday 23 May 1660"\), not "The King comes aboard"$/,
    );
    expectProblem(problems, 'entries/1660/1660-05-24.html', 3, /"title" must keep the shape/);
    expect(problems).toHaveLength(2);
  });
});
