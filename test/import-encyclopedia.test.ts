// The encyclopedia the importer derives from the edition's semantic marks: the normaliser, the
// alias list (its data, reviewed by hand, in generator/import/aliases.yaml), and the whole path on
// a miniature edition: which names become topics, which entries link them and how, titles, ids,
// descriptions, idempotence, and the merge with hand-written topics and the fixture. The whole
// edition is checked in test/heavy/import-corpus.test.ts.

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../generator/content/load.ts';
import { NO_FAST_PATH, parseSimpleYamlList } from '../generator/content/yaml-fast.ts';
import { Aliases, parseAliases } from '../generator/import/aliases.ts';
import { DERIVED_ID_MIN, derivedId } from '../generator/import/encyclopedia.ts';
import { displayName, isPlaceholder, normaliseName, withoutArticle } from '../generator/import/names.ts';
import type { ImportReport } from '../generator/import/report.ts';
import { importStandardEbooks } from '../generator/import/standard-ebooks.ts';
import { mergeCategories } from '../generator/import/topic-files.ts';
import { RefusedError } from '../generator/output/guard.ts';
import { writeEncyclopediaFixture } from '../scripts/fixture-encyclopedia.ts';
import { readTree } from './helpers/files.ts';
import { article, chapter, endnotes, importError, note, ref } from './helpers/imported.ts';
import { tempDir as makeTempDir } from './helpers/temp.ts';

const tempDir = () => makeTempDir('pepys-encyclopedia-');

describe('the normaliser', () => {
  it('brings together what differs only in case, a leading The, punctuation, accents, joiners and spaces', () => {
    const same = (a: string, b: string) => expect(normaliseName(a), `${a} / ${b}`).toBe(normaliseName(b));
    same('The Coffee-House', 'coffee house');
    same('Beggar’s Bush', 'Beggars’ Bush');
    same('Faber Fortunæ', 'Faber Fortunae');
    same('Love à la Mode', 'Love a la Mode');
    same('Mac\u2060beth', 'Macbeth');
    same('The  Tempest\n', 'Tempest');
    same('Ｍａｃｂｅｔｈ', 'Macbeth'); // NFKC: full-width letters
    same('Bartholomew-Fair', 'Bartholomew Fair');
    expect(normaliseName('The Maid in y<sup>e</sup> Mill'.replace(/<[^>]+>/g, ''))).toBe('maid in ye mill');
  });

  it('keeps apart what only looks alike: that takes the alias list', () => {
    const apart = (a: string, b: string) => expect(normaliseName(a)).not.toBe(normaliseName(b));
    apart('The Chances', 'The Changes');
    apart('Mackbeth', 'Macbeth');
    apart('The Villain', 'The Villaine');
    apart('A Wife for a Month', 'Wife for a Month'); // only "The" goes
  });

  it('shows a name as written, its entities decoded, invisibles gone, spaces single', () => {
    expect(displayName('Love &amp; Honour\n\t\tagain')).toBe('Love & Honour again');
    expect(displayName('1633\u2060–\u206034')).toBe('1633–34');
    expect(displayName('&#x2019;Tis Pity')).toBe('’Tis Pity');
    expect(isPlaceholder('The ⸻')).toBe(true);
    expect(isPlaceholder('The Tempest')).toBe(false);
    expect(withoutArticle('The Tempest')).toBe('Tempest');
    expect(withoutArticle('An Evening’s Love')).toBe('Evening’s Love');
    expect(withoutArticle('Theodore')).toBe('Theodore');
  });
});

describe('the alias list', () => {
  const rule = (extra: string) => `- { category: plays, spelling: Mackbeth, ${extra} }\n`;

  it('is data, each rule with its reason, and every rule of the repository’s list is well-formed', () => {
    const aliases = Aliases.load();
    expect(aliases.rules.length).toBeGreaterThan(50);
    for (const r of aliases.rules) expect(r.reason.length, r.spelling).toBeGreaterThan(10);
    // The issue's own examples.
    expect(aliases.resolve('plays', normaliseName('The Villain'), '1662-10-20')).toMatchObject({ key: 'villaine' });
    expect(aliases.resolve('plays', normaliseName('Mackbeth'), '1667-04-19')).toMatchObject({ key: 'macbeth' });
    expect(aliases.resolve('ships', normaliseName('Nazeby'), '1660-03-12')).toMatchObject({ key: 'royal charles' });
    // Never by resemblance: a name no rule names stays itself.
    expect(aliases.resolve('plays', normaliseName('The Changes'), null)).toEqual({
      kind: 'topic',
      key: 'changes',
      title: null,
      rule: null,
    });
  });

  it('tells apart one name two ships bore, by date', () => {
    const aliases = Aliases.load();
    expect(aliases.resolve('ships', 'charles', '1662-07-01')).toMatchObject({ key: 'royal charles' });
    expect(aliases.resolve('ships', 'charles', '1668-03-03')).toMatchObject({ key: 'charles 1668' });
    expect(aliases.resolve('ships', 'london', '1663-07-12')).toMatchObject({ key: 'london', rule: null });
    expect(aliases.resolve('ships', 'london', '1667-06-13')).toMatchObject({ key: 'loyal london' });
    // A ship's rule is not a play's: one title, two categories, two things.
    expect(aliases.resolve('plays', 'london', '1667-06-13')).toMatchObject({ key: 'london', rule: null });
  });

  it('refuses a rule without a reason, without a target, with a chain, or given twice', () => {
    expect(() => parseAliases(rule('means: Macbeth'))).toThrow(/needs a reason/);
    expect(() => parseAliases(rule('reason: x'))).toThrow(/either "means" or "setAside: true"/);
    expect(() => parseAliases(rule('means: MACKBETH, reason: x'))).toThrow(/means itself/);
    expect(() => parseAliases('- { category: operas, spelling: X, means: Y, reason: z }\n')).toThrow(
      /unknown category/,
    );
    expect(() => parseAliases(rule('means: Macbeth, reason: x, colour: red'))).toThrow(/unknown key "colour"/);
    const twice = parseAliases(rule('means: Macbeth, reason: x') + rule('means: Hamlet, reason: y'));
    expect(() => new Aliases(twice)).toThrow(/given twice/);
    const chain = parseAliases(
      `${rule('means: Macbeth, reason: x')}- { category: plays, spelling: Mackbethe, means: Mackbeth, reason: y }\n`,
    );
    expect(() => new Aliases(chain)).toThrow(/itself an alias/);
  });
});

// A miniature edition whose entries and notes mark names the way the edition does.
const play = (name: string) => `<i epub:type="se:name.publication.play">${name}</i>`;
const ship = (name: string) => `<i epub:type="se:name.vessel.ship">${name}</i>`;
const book = (name: string) => `<i epub:type="se:name.publication.book">${name}</i>`;

function writeMarkedEdition(dir: string): void {
  const text = path.join(dir, 'text');
  mkdirSync(text, { recursive: true });
  writeFileSync(
    path.join(text, 'chapter-1.xhtml'),
    chapter(
      1,
      'January 1659–60',
      article(
        'entry-1660-1-11',
        `<p><time datetime="1660-01-11">1st</time>. Saw ${play('Mackbeth')},${ref(2)} and went aboard ${ship('The Nazeby')}; then ${play('The ⸻')}, and read ${book('Religio Medici')}.</p>`,
      ) +
        article(
          'entry-1660-1-12',
          `<p><time datetime="1660-01-12">2nd</time>. ${play('Macbeth')} again, and the <i epub:type="se:name.publication.newspaper">Macbeth</i> newspaper; the ${ship('Royal Charles')}${ref(3)} fine.</p>`,
        ) +
        article(
          'entry-1660-1-13',
          `<p><time datetime="1660-01-13">3rd</time>. ${play('Mac\u2060beth')}, and ${play('Henry <span epub:type="z3998:roman">VIII</span>')} with ${ship('Royal Charles')}.</p>`,
        ),
    ),
  );
  writeFileSync(
    path.join(text, 'endnotes.xhtml'),
    endnotes(
      note(1, 'chapter-1.xhtml', 'On the heading.') +
        note(
          2,
          'chapter-1.xhtml',
          'A tragedy by Shakespeare, altered by <abbr epub:type="z3998:name-title">Sir W.</abbr> Davenant. It was acted often.',
        ) +
        note(
          3,
          'chapter-1.xhtml',
          `See note 2. The ${ship('Nazeby')} again; ${book('Calendar of State Papers')}; and ${play('The Tempest')}.`,
        ),
    ),
  );
}

/** The topic files an import wrote, parsed, by `category/title`. */
function topicsOf(dir: string): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const [file, text] of readTree(path.join(dir, 'topics', 'standard-ebooks'))) {
    if (!file.endsWith('.yaml')) continue;
    const fields: Record<string, string> = Object.fromEntries(
      text
        .trim()
        .split('\n')
        .map((line) => {
          const at = line.indexOf(': ');
          const value = line.slice(at + 2);
          return [line.slice(0, at), value.startsWith('"') ? JSON.parse(value) : value];
        }),
    );
    expect(file).toBe(`${fields.id}.yaml`);
    out.set(`${(fields.categories as string).slice(1, -1)}/${fields.title}`, fields);
  }
  return out;
}

/** A content directory whose site.yaml is written first (the import then leaves it alone). */
function contentDir(): string {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'site.yaml'), 'pageSize: 50\n');
  return dir;
}

const PAGE = 'https://www.pepysdiary.com/encyclopedia/';

describe('the encyclopedia of a miniature edition', () => {
  let edition: string;
  let out: string;
  let report: ImportReport;
  let topics: Map<string, Record<string, string>>;
  const idOf = (key: string) => Number(topics.get(key)?.id);
  const entry = (date: string) => readFileSync(path.join(out, 'entries', '1660', `${date}.html`), 'utf8');
  beforeAll(() => {
    edition = tempDir();
    writeMarkedEdition(edition);
    out = contentDir();
    report = importStandardEbooks(edition, out);
    topics = topicsOf(out);
  });

  it('makes a topic of each thing Pepys names, in its category; none of a name only in the notes or a placeholder', () => {
    expect([...topics.keys()].sort()).toEqual([
      'books/Religio Medici',
      'periodicals/Macbeth',
      'plays/Henry VIII',
      'plays/Macbeth',
      'ships/Royal Charles',
    ]);
    // A play and a newspaper of one title are two topics.
    expect(idOf('plays/Macbeth')).not.toBe(idOf('periodicals/Macbeth'));
    const aside = report.encyclopedia.setAside.map((s) => `${s.name} (${s.place}): ${s.reason}`);
    expect(aside).toContain('The ⸻ (text): a placeholder, not a name (the title is left blank in the text)');
    expect(aside.some((a) => a.startsWith('Calendar of State Papers (note): named only in the notes'))).toBe(true);
    expect(aside.some((a) => a.startsWith('The Tempest (note): named only in the notes'))).toBe(true);
  });

  it('titles a topic with Pepys’s most frequent spelling of the name, sorts it without its article', () => {
    expect(topics.get('plays/Macbeth')?.orderTitle).toBeUndefined(); // the same as the title
    expect(topics.get('ships/Royal Charles')).toMatchObject({ kind: 'default', categories: '[ships]' });
    for (const t of topics.values())
      expect(t).toMatchObject({ wikipediaURL: 'null', thumbnailURL: 'null', latitude: 'null', longitude: 'null' });
  });

  it('describes a topic by the first sentence of the note tied to its mark; a bare “See …” describes nothing', () => {
    expect(topics.get('plays/Macbeth')).toMatchObject({
      tooltipText: 'A tragedy by Shakespeare, altered by Sir W. Davenant.',
      wheatleyHTML: '<p>A tragedy by Shakespeare, altered by <abbr>Sir W.</abbr> Davenant.</p>',
    });
    expect(topics.get('ships/Royal Charles')?.tooltipText).toBeUndefined();
    expect(topics.get('ships/Royal Charles')?.wheatleyHTML).toBeUndefined();
  });

  it('derives each id from the category and the normalised name: nine digits, stable', () => {
    expect(idOf('plays/Macbeth')).toBe(derivedId('plays/macbeth'));
    expect(idOf('ships/Royal Charles')).toBe(derivedId('ships/royal charles'));
    for (const t of topics.values()) expect(Number(t.id)).toBeGreaterThanOrEqual(DERIVED_ID_MIN);
  });

  it('links each marked name in the text, and for ships and plays in the notes, changing nothing else', () => {
    const macbeth = idOf('plays/Macbeth');
    const charles = idOf('ships/Royal Charles');
    const first = entry('1660-01-01');
    expect(first).toContain(
      `Saw <a href="${PAGE}${macbeth}/"><i>Mackbeth</i></a>,<a href="#note-2" id="noteref-2">2</a>`,
    );
    expect(first).toContain(`aboard <a href="${PAGE}${charles}/"><i>The Nazeby</i></a>;`);
    expect(first).toContain('then <i>The ⸻</i>, and'); // the placeholder: no link
    // The note's ship is linked; its citation and its play named only there are not.
    expect(entry('1660-01-02')).toContain(
      `The <a href="${PAGE}${charles}/"><i>Nazeby</i></a> again; <i>Calendar of State Papers</i>; and <i>The Tempest</i>.`,
    );
    // Nested markup stays inside the link, whole.
    expect(entry('1660-01-03')).toContain(
      `<a href="${PAGE}${idOf('plays/Henry VIII')}/"><i>Henry <span>VIII</span></i></a>`,
    );
    // Take the links away and the text is the edition's, cleaned as before.
    const unlinked = first.replace(/<a href="https:\/\/www\.pepysdiary\.com\/encyclopedia\/\d+\/">(.*?)<\/a>/g, '$1');
    expect(unlinked).toContain(
      'Saw <i>Mackbeth</i>,<a href="#note-2" id="noteref-2">2</a> and went aboard <i>The Nazeby</i>;',
    );
  });

  it('builds: each entry mentions the topics it links, and each topic lists those entries', async () => {
    const { model } = await loadContent(out);
    const mentions = (date: string) => model.entries.find((e) => e.date === date)?.topicIds;
    const ids = (...keys: string[]) => keys.map(idOf).sort((a, b) => a - b);
    expect(mentions('1660-01-01')).toEqual(ids('plays/Macbeth', 'ships/Royal Charles', 'books/Religio Medici'));
    expect(mentions('1660-01-02')).toEqual(ids('plays/Macbeth', 'periodicals/Macbeth', 'ships/Royal Charles'));
    expect(model.topicEntries.get(idOf('plays/Macbeth'))).toEqual(['1660-01-01', '1660-01-02', '1660-01-03']);
    expect(model.categoryAncestors.get('plays')).toEqual(['works-and-ships']);
    const byCategory = Object.fromEntries(report.encyclopedia.categories.map((c) => [c.slug, [c.topics, c.links]]));
    expect(byCategory).toMatchObject({ plays: [2, 4], ships: [1, 4], books: [1, 1], periodicals: [1, 1] });
  });

  it('writes the same files when run again', () => {
    const before = readTree(out);
    importStandardEbooks(edition, out);
    expect(readTree(out)).toEqual(before);
  });
});

describe('the encyclopedia beside hand-written topics and the fixture', () => {
  it('keeps a user’s topics and categories, and refuses an id or a slug it would take', () => {
    const edition = tempDir();
    writeMarkedEdition(edition);
    const out = contentDir();
    mkdirSync(path.join(out, 'topics', 'mine'), { recursive: true });
    writeFileSync(path.join(out, 'topics', 'mine', '7.yaml'), 'id: 7\ntitle: Mine\ncategories: [people]\n');
    writeFileSync(path.join(out, 'categories.yaml'), '# my tree\n- slug: people\n  title: People\n');
    importStandardEbooks(edition, out);
    const categories = readFileSync(path.join(out, 'categories.yaml'), 'utf8');
    expect(categories.startsWith('# my tree\n- slug: people\n  title: People\n')).toBe(true);
    expect(categories).toContain('title: People\n- slug: works-and-ships\n  title: Works and ships\n- slug: plays\n');
    expect(readFileSync(path.join(out, 'topics', 'mine', '7.yaml'), 'utf8')).toContain('id: 7');

    // A second import replaces its own block, and only it.
    importStandardEbooks(edition, out);
    expect(readFileSync(path.join(out, 'categories.yaml'), 'utf8')).toBe(categories);

    // A hand-written topic holding a derived id: refused, nothing written.
    const clash = derivedId('plays/macbeth');
    writeFileSync(path.join(out, 'topics', 'mine', 'x.yaml'), `id: ${clash}\ntitle: Mine too\n`);
    const error = importError(edition, out);
    expect(error).toBeInstanceOf(RefusedError);
    expect(error?.message).toMatch(new RegExp(`x\\.yaml has id ${clash}, the id the import derives for "Macbeth"`));
    rmSync(path.join(out, 'topics', 'mine', 'x.yaml'));

    // A hand-written category with one of the import's slugs: refused.
    expect(mergeCategories('- slug: plays\n  title: Mine\n', [])).toMatchObject({ ok: true });
    const topics = [
      {
        id: 1,
        identity: 'plays/x',
        category: 'plays' as const,
        title: 'X',
        orderTitle: 'X',
        description: null,
        entries: [],
      },
    ];
    expect(mergeCategories('- slug: plays\n  title: Mine\n', topics)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/already has a category "plays"/),
    });
    expect(mergeCategories('[{ slug: a, title: A }]\n', topics)).toMatchObject({ ok: false });
    expect(
      mergeCategories(
        '- slug: a\n  title: A\n- slug: works-and-ships\n  title: Works and ships\n- slug: plays\n  title: Plays\n  parent: works-and-ships\n- slug: b\n  title: B\n',
        [],
      ),
    ).toEqual({
      ok: true,
      value: '- slug: a\n  title: A\n- slug: b\n  title: B\n',
    });
  });

  it('refuses to replace a topics/standard-ebooks/ it did not write', () => {
    const edition = tempDir();
    writeMarkedEdition(edition);
    const out = contentDir();
    mkdirSync(path.join(out, 'topics', 'standard-ebooks'), { recursive: true });
    writeFileSync(path.join(out, 'topics', 'standard-ebooks', '1.yaml'), 'id: 1\ntitle: Mine\n');
    expect(importError(edition, out)?.message).toMatch(/holds topics this importer did not write/);
    expect(readTree(path.join(out, 'topics'))).toEqual(new Map([['standard-ebooks/1.yaml', 'id: 1\ntitle: Mine\n']]));
  });

  it('merges with the fixture either way round: ids apart, slugs apart, both kept', async () => {
    const edition = tempDir();
    writeMarkedEdition(edition);
    const out = contentDir();
    importStandardEbooks(edition, out);
    const derived = readTree(path.join(out, 'topics', 'standard-ebooks'));
    writeEncyclopediaFixture(out, { scale: 0.01 });
    // The fixture keeps the derived topics and categories, and its ids (1…100) are not theirs.
    expect(readTree(path.join(out, 'topics', 'standard-ebooks'))).toEqual(derived);
    const { model } = await loadContent(out);
    expect(model.topics.length).toBe(100 + derived.size - 1);
    expect(model.categories.map((c) => c.slug)).toContain('plays');
    // Both in one categories.yaml that the build's YAML fast path still reads.
    expect(parseSimpleYamlList(readFileSync(path.join(out, 'categories.yaml'), 'utf8'))).not.toBe(NO_FAST_PATH);
    // The entries mention both: the fixture's in their front matter, the derived by their links.
    const both = model.entries.filter(
      (e) => e.topicIds.some((id) => id < DERIVED_ID_MIN) && e.topicIds.some((id) => id >= DERIVED_ID_MIN),
    );
    expect(both.length).toBeGreaterThan(0);
    // An import after the fixture keeps the fixture's topics and categories.
    const before = readTree(out);
    importStandardEbooks(edition, out);
    const after = readTree(out);
    for (const [file, text] of before) if (!file.startsWith('entries/')) expect(after.get(file), file).toBe(text);
  });
});
