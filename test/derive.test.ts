// What the build derives that the reference service derives (issue 17): the topics an entry's
// links mention, a topic's kind from its categories, a person's sorting title. The expected
// sorting titles are the reference's documented behaviour, case by case.

import { describe, expect, it } from 'vitest';
import { derivedKind, kindsByCategory, personOrderTitle, topicLinks } from '../generator/content/derive.ts';
import { loadContent } from '../generator/content/load.ts';
import { CATEGORIES_YAML, entryFile, problemsOf, smallSite, writeContent } from './helpers/content.ts';

describe('personOrderTitle', () => {
  it('puts the surname first, keeping titles, particles and remarks where the reference does', () => {
    const cases: Array<[string, string]> = [
      ['Mr Bob Ferris', 'Ferris, Mr Bob'],
      ['Thomas Agar', 'Agar, Thomas'],
      ['Sidney Smythe (1st Lord Smythe)', 'Smythe, Sidney (1st Lord Smythe)'],
      ['Capt. Henry Terne', 'Terne, Capt. Henry'],
      ['Mr Hazard', 'Hazard, Mr'],
      ['Johann Heinrich Alstead', 'Alstead, Johann Heinrich'],
      ["Monsieur d'Esquier", "Esquier, Monsieur d'"],
      ['Peter de la Roche', 'Roche, Peter de la'],
      ['Jan de Witt (Grand Pensionary of Holland)', 'Witt, Jan de (Grand Pensionary of Holland)'],
      ['Catherine of Braganza (Queen)', 'Braganza, Catherine of (Queen)'],
      ['Maj.-Gen. Ald. Sir Richard Browne', 'Browne, Maj.-Gen. Ald. Sir Richard'],
      ['Abdallah al-Ghailan ("Guiland", "Gayland")', 'Ghailan, Abdallah al- ("Guiland", "Gayland")'],
      ["Mr Butler (Mons. L'impertinent)", "Butler, Mr (Mons. L'impertinent)"],
    ];
    for (const [title, order] of cases) expect(personOrderTitle(title), title).toBe(order);
  });

  it('leaves alone one word, a name with a comma, a regnal number and an epithet', () => {
    for (const title of [
      'Shelston',
      "Mary (c, Pepys' chambermaid)",
      "Godefroy, Comte d'Estrades",
      'Mary I of England',
      'Philip IV (King of Spain, 1621-1665)',
      'Ivan the Terrible',
    ])
      expect(personOrderTitle(title), title).toBe(title);
  });
});

describe('topicLinks', () => {
  const origins = ['https://site.test', 'https://www.pepysdiary.com'];
  it('finds links to topic pages on the given origins and relative ones, with their offsets', () => {
    const html =
      '<p><a href="https://www.pepysdiary.com/encyclopedia/123/">A</a> <a href=\'/encyclopedia/7\'>B</a> ' +
      '<a href="https://site.test/encyclopedia/8/#note">C</a> <a href="https://elsewhere.test/encyclopedia/9/">D</a> ' +
      '<a href="https://site.test/encyclopedia/10/comments/">E</a> <a href="https://site.test/diary/1660/01/01/">F</a></p>';
    const found = topicLinks(html, origins);
    expect(found.map((l) => l.id)).toEqual([123, 7, 8]);
    expect(html.slice(found[0]?.at, (found[0]?.at ?? 0) + 5)).toBe('href=');
  });
});

describe('kinds from categories', () => {
  const tree = [
    { slug: 'people', parent: null },
    { slug: 'household', parent: 'people' },
    { slug: 'servants', parent: 'household' },
    { slug: 'places', parent: null },
    { slug: 'streets', parent: 'places' },
    { slug: 'food', parent: null },
  ];
  it('gives the named categories and everything below them their kind', () => {
    const by = kindsByCategory(tree, { person: ['people'], place: ['places'] });
    expect(Object.fromEntries(by)).toEqual({
      people: 'person',
      household: 'person',
      servants: 'person',
      places: 'place',
      streets: 'place',
    });
    expect(derivedKind(['food', 'streets'], by)).toBe('place');
    expect(derivedKind(['food'], by)).toBe('default');
  });
});

describe('the model', () => {
  it('adds the topics an entry links to, both ways, and derives kinds and sorting titles where files are silent', async () => {
    const { model } = await loadContent(
      writeContent({
        ...smallSite(),
        'site.yaml': 'siteOrigin: https://site.test\n',
        'categories.yaml': CATEGORIES_YAML,
        'topics/3.yaml': 'id: 3\ntitle: Mr Will Hewer\ncategories: [servants]\n',
        'topics/4.yaml':
          'id: 4\ntitle: Mr Tom Edwards\norderTitle: Edwards, Tom\nkind: default\ncategories: [servants]\n',
        'entries/1661/1661-01-20.html': entryFile(
          '1661-01-20',
          'topics: [2]\n',
          '<p>With <a href="https://site.test/encyclopedia/3/">Will</a>.</p>\n<!-- footnotes -->\n<p><a href="https://www.pepysdiary.com/encyclopedia/1/">Jane</a></p>',
        ),
      }),
    );
    expect(model.entries.find((e) => e.date === '1661-01-20')?.topicIds).toEqual([1, 2, 3]);
    expect(model.topicEntries.get(3)).toEqual(['1661-01-20']);
    const topic = (id: number) => model.topics.find((t) => t.id === id);
    expect([topic(3)?.kind, topic(3)?.orderTitle]).toEqual(['person', 'Hewer, Mr Will']);
    // What a file says wins.
    expect([topic(4)?.kind, topic(4)?.orderTitle]).toEqual(['default', 'Edwards, Tom']);
    expect([topic(1)?.kind, topic(2)?.kind]).toEqual(['person', 'place']);
  });

  it('reports a link to a topic that does not exist, naming the file and line', async () => {
    const problems = await problemsOf({
      ...smallSite(),
      'entries/1661/1661-01-20.html': entryFile(
        '1661-01-20',
        '',
        '<p>One.</p>\n<p><a href="/encyclopedia/404/">gone</a></p>',
      ),
    });
    expect(problems).toEqual([
      {
        file: 'entries/1661/1661-01-20.html',
        line: 5,
        message: 'a link to the page of topic 404, which does not exist',
      },
    ]);
  });
});
