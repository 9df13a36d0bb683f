// The YAML fast path returns exactly what the yaml package returns, or declines. Checked on a list
// of edge cases and on the sample content here; on every content file of the whole diary and the
// full-scale encyclopedia in test/heavy/full-diary.test.ts.

import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { NO_FAST_PATH, parseSimpleYaml, parseSimpleYamlList } from '../generator/content/yaml-fast.ts';
import { agrees, agreesOnTree, listAgrees } from './helpers/yaml-agreement.ts';

const TAKEN = [
  'id: 1\ntitle: Elizabeth Pepys\n',
  'date: 1660-01-01\ntopics: [1007, 1012]\n',
  'date: 1660-01-01\ntopics: []\n',
  'lastModifiedTime: 2026-01-01T00:00:00Z\nlastAnnotationTime: null\nannotationCount: 0\n',
  'latitude: 51.5097\nlongitude: -0.0786\nzoom: 15\n',
  'orderTitle: Pepys, Elizabeth\nkind: person\ncategories: [household, people]\n',
  'wikipediaURL: https://en.wikipedia.org/wiki/Elizabeth_Pepys#Life\n',
  'title: "Quoted: with a colon"\ntooltipText: \'single # quoted\'\n',
  'title: Foo [bar] {baz}\n',
  'a: ~\nb: true\nc: False\nd: NULL\n',
  'title: Sunday 1 January 1659/60\n',
  'title: Mr. Pepys’s “day” — with non-ASCII\n',
  'wheatleyHTML: |\n  <p>One.</p>\n\n  <p>Two.</p>\n    indented more\nid: 3\n',
  'wheatleyHTML: |\n  <p>Last key.</p>\n\n\n',
  'wheatleyHTML: |\nid: 4\n',
  'a: 1.0\nb: -0.0\nc: 0\nd: 10.50\n',
  'key:    spaced value\n',
  'a: 1\n\n\nb: 2\n',
];

const DECLINED = [
  '',
  '# only a comment\n',
  '---\nid: 1\n',
  'id: 1\nid: 2\n',
  'key:\n  nested: 1\n',
  'list:\n- a\n- b\n',
  'a: b: c\n',
  'a: b # comment\n',
  'a: trailing space \n',
  'a: 0x1F\n',
  'a: 0o17\n',
  'a: 1e3\n',
  'a: .inf\n',
  'a: 007\n',
  'a: -0\n',
  'a: +1\n',
  'a: 12345678901234567\n',
  'a: "esc\\n"\n',
  "a: 'it''s'\n",
  'a: [x, "y"]\n',
  'a: [x, [y]]\n',
  'a: [x,]\n',
  'a: [a:b]\n',
  'a: &anchor x\n',
  'a: *alias\n',
  'a: !tag x\n',
  'a: >\n  folded\n',
  'a: |-\n  strip\n',
  'a: |2\n  x\n',
  'a: |\n  no final newline',
  'a: |\n\n    more indented first\n  x\n',
  'null: 1\n',
  '__proto__: 1\n',
  'a-b: 1\n',
  '  a: 1\n',
  'a: multi\n  line\n',
  'a: {x: 1}\n',
  'a: x\r\n',
  'a: `x`\n',
  'a: @x\n',
  'a: %x\n',
  'a:\tx\n',
  'a: \tx\n',
  'a: |\n\tx\n',
  '- a\n- b\n',
  'a: b\n...\n',
];

const LISTS_TAKEN = [
  '- slug: people\n  title: People\n',
  '- slug: people\n  title: People\n- slug: household\n  title: Household\n  parent: people\n',
  '\n- slug: a\n  title: "Quoted: yes"\n\n\n- slug: b\n  title: B\n  parent: a\n',
  '- slug: x\n  title: ~\n  parent: null\n',
];
const LISTS_DECLINED = [
  '',
  '[]\n',
  '# comment\n- slug: a\n',
  '- slug: a\n  title: A',
  '- slug: a\n   title: indented more\n',
  '-\n  slug: a\n',
  '- slug: a\n  - nested\n',
  '- a\n- b\n',
  'slug: a\n',
  '- slug: a\n  slug: b\n',
  '- slug: a\r\n',
  '  - slug: a\n',
  '- slug: a\n  text: |\n    block\n',
  '- slug: a # comment\n',
  '- slug: [a, [b]]\n',
  '-  slug: a\n',
];

describe('YAML fast path', () => {
  it('takes simple lists of mappings (categories.yaml) with the line of each item, as the package gives them', () => {
    for (const text of LISTS_TAKEN) expect(listAgrees(text), JSON.stringify(text)).toBe(true);
    for (const text of LISTS_DECLINED) expect(parseSimpleYamlList(text), JSON.stringify(text)).toBe(NO_FAST_PATH);
  });

  it('takes the simple forms and agrees with the yaml package on each', () => {
    for (const text of TAKEN) expect(agrees(text), JSON.stringify(text)).toBe(true);
  });

  it('declines everything else, leaving it to the yaml package', () => {
    for (const text of DECLINED) expect(parseSimpleYaml(text), JSON.stringify(text)).toBe(NO_FAST_PATH);
  });

  it('agrees on every file of the sample content', () => {
    const [taken, total] = agreesOnTree(join(import.meta.dirname, '..', 'content'));
    expect(total).toBeGreaterThan(250);
    // Most take the fast path (each checked against the package above); the rest fall back.
    expect(taken / total).toBeGreaterThan(0.9);
  });

  it('gives values that do not hold the text they were read from alive', () => {
    // A parsed file's record lives as long as the build: a value that were a view of its file's
    // text would keep every file's text too. 1,000 texts of 20,000 characters, their values kept, the
    // texts dropped: views would keep 40 MB (two bytes a character), the values alone well under 4 MB.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const note = 'a long note, dropped once read, that makes the text two bytes a character’ '.repeat(250).trimEnd();
    const texts = Array.from(
      { length: 1000 },
      (_, i) =>
        `note: ${note}\ntitle: A title of some length, number ${i}\ncategories: [a-category-slug-${i}, another-slug-here]\n`,
    );
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept = texts.map((t) => {
      const parsed = parseSimpleYaml(t);
      if (parsed === NO_FAST_PATH) throw new Error('declined');
      return { title: parsed.title, categories: parsed.categories };
    });
    texts.length = 0;
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(kept[999]).toEqual({
      title: 'A title of some length, number 999',
      categories: ['a-category-slug-999', 'another-slug-here'],
    });
    expect(grown).toBeLessThan(4_000_000);
  });
});
