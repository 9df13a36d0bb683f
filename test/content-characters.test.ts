// Characters content may not hold (content/characters.ts): the C0 controls but tab, line feed and
// carriage return, DEL and the C1 controls, U+FFFE and U+FFFF, and lone surrogates. Each is a
// problem at its file and line, in the text (any file, an entry's HTML and footnotes too) or
// written as a YAML escape, by the YAML fast path and the yaml package alike. What stays allowed
// keeps the Atom feed well-formed XML.

import { parseFeed } from '@rowanmanning/feed-parser';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../generator/content/problems.ts';
import { NO_FAST_PATH, parseSimpleYaml } from '../generator/content/yaml-fast.ts';
import { parseYaml } from '../generator/content/yaml-text.ts';
import { entryFile, problemsOf, smallSite, writeContent } from './helpers/content.ts';
import { startLocalSite } from './helpers/local-server.ts';

const REFUSED = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\u000b',
  '\u000c',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u009f',
  '\ufffe',
  '\uffff',
];
const hex = (c: string) => `U+${(c.charCodeAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;

function located(problems: Problem[]): string[] {
  return problems.map((p) => `${p.file}:${p.line}: ${p.message}`);
}

describe('characters content may not hold', () => {
  it('are refused in the text of every file, at their line and column, never printed raw', async () => {
    for (const c of REFUSED) {
      const problems = await problemsOf({
        ...smallSite(),
        'site.yaml': `apiOrigin: https://api.test\ntitle: The Diary${c}\n`,
        'categories.yaml': `- slug: people\n  title: Peo${c}ple\n- slug: household\n  title: Household\n  parent: people\n- slug: servants\n  title: Servants\n  parent: household\n`,
        'topics/1.yaml': `id: 1\ntitle: Jane\nkind: person\ncategories: [servants]\ntooltipText: |\n  a maid\n  of ${c}the house\n`,
        'entries/1660/1660-01-01.html': entryFile(
          '1660-01-01',
          'topics: [1, 2]\n',
          `<p>First</p>\n<p>x${c}</p>\n<!-- footnotes -->\n<p>${c}</p>`,
        ),
      });
      const lines = located(problems);
      const what = hex(c).replace('+', '\\+');
      expect(lines, what).toEqual([
        expect.stringMatching(
          new RegExp(`^categories.yaml:2: ${what}, a (control character|noncharacter).*, at column 13$`),
        ),
        expect.stringMatching(new RegExp(`^entries/1660/1660-01-01.html:6: ${what}, .*, at column 5$`)),
        expect.stringMatching(new RegExp(`^entries/1660/1660-01-01.html:8: ${what}, .*, at column 4$`)),
        expect.stringMatching(new RegExp(`^site.yaml:2: ${what}, .*, at column 17$`)),
        expect.stringMatching(new RegExp(`^topics/1.yaml:7: ${what}, .*, at column 6$`)),
      ]);
      for (const line of lines) expect(line).not.toContain(c);
    }
  });

  it('are refused written as YAML escapes, at the key’s line, lone surrogates too', async () => {
    const problems = await problemsOf({
      ...smallSite(),
      'site.yaml': 'apiOrigin: https://api.test\nauthor: "Samuel\\x01 Pepys"\ntitle: "The Diary\\ud800"\n',
      'categories.yaml':
        '- slug: people\n  title: "Peo\\fple"\n- slug: household\n  title: Household\n  parent: people\n- slug: servants\n  title: "Servants\\U0000DFFF"\n  parent: household\n',
      'topics/1.yaml':
        'id: 1\ntitle: Jane\nkind: person\ncategories: [servants]\ntooltipText: "\\x85 a maid"\nwheatleyHTML: "<p>\\udc00</p>"\n',
      'topics/2.yaml': 'id: 2\ntitle: "Axe Yard \\ud83d\\ude00"\nkind: place\ncategories: [household]\n"\\u001b": 1\n',
    });
    expect(located(problems)).toEqual([
      'categories.yaml:2: "title" holds U+000C, a control character: the Atom feed\'s XML cannot hold it (written as an escape)',
      expect.stringMatching(
        /^categories.yaml:7: "title" holds U\+DFFF, a lone surrogate \(half of a UTF-16 pair\): no character, refused as bytes that are not UTF-8 are/,
      ),
      'site.yaml:2: "author" holds U+0001, a control character: the Atom feed\'s XML cannot hold it (written as an escape)',
      expect.stringMatching(/^site.yaml:3: "title" holds U\+D800, a lone surrogate/),
      expect.stringMatching(/^topics\/1.yaml:5: "tooltipText" holds U\+0085, a control character \(DEL or C1/),
      expect.stringMatching(/^topics\/1.yaml:6: "wheatleyHTML" holds U\+DC00, a lone surrogate/),
      // A well-formed pair is a character (the emoji); the escaped key is refused, and unknown.
      expect.stringMatching(/^topics\/2.yaml:5: a key holds U\+001B/),
      expect.stringMatching(/^topics\/2.yaml:5: unknown field/),
    ]);
  });

  it('are refused by the YAML fast path and by the yaml package alike', () => {
    // Raw in the text, which the fast path parses (a lone surrogate cannot come from UTF-8 bytes,
    // but a text given to the parser is checked whatever made it).
    for (const text of ['title: a\ud800b\n', 'title: a\u0001b\n', 'title: |\n  a\n  b\u007f\n']) {
      expect(parseSimpleYaml(text), JSON.stringify(text)).not.toBe(NO_FAST_PATH);
      const problems: Problem[] = [];
      parseYaml(text, 'x.yaml', 1, problems);
      expect(
        problems.map((p) => p.line),
        JSON.stringify(text),
      ).toEqual([text.startsWith('title: |') ? 3 : 1]);
    }
    // Escaped, or raw where the fast path declines (a flow mapping): the package parses it.
    for (const text of ['title: "a\\ud800b"\n', 'title: { x: "\\x01" }\n', 'title: { x: "a\u0001" }\n']) {
      expect(parseSimpleYaml(text), JSON.stringify(text)).toBe(NO_FAST_PATH);
      const problems: Problem[] = [];
      parseYaml(text, 'x.yaml', 1, problems);
      expect(
        problems.map((p) => p.line),
        JSON.stringify(text),
      ).toEqual([1]);
    }
  });

  it('leaves what XML allows, and the Atom feed stays well-formed with it', async () => {
    // Tab, a carriage return (escaped), markup characters, `]]>`, line and paragraph separators,
    // U+FFFD, a noncharacter XML allows, bidirectional marks, an astral character.
    const title = 'Tab\there & <b>"it\'s"</b> ]]> \u2028\u2029 \ufffd \ufdd0 \u202e\u2066 \u{1f600}';
    const html = `<p>\ttab ]]> \u00a0 \u2028 \ufffd \ufdd0 \u202e \u{1d11e}</p>`;
    const dir = writeContent({
      ...smallSite(),
      'site.yaml': `apiOrigin: https://api.test\ntitle: ${JSON.stringify(`${title}\r!`)}\n`,
      'entries/1661/1661-01-20.html': entryFile('1661-01-20', '', `${html}\n<!-- footnotes -->\n${html}`),
    });
    const site = await startLocalSite(dir);
    try {
      const res = await fetch(`${site.origin}/api/v1/feeds/atom`);
      expect(res.status).toBe(200);
      const xml = await res.text();
      // XML 1.0's Char production (§2.2): every character, and every character reference.
      const char = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;
      expect(char.test(xml)).toBe(true);
      for (const [, ref] of xml.matchAll(/&#(x[0-9a-fA-F]+|[0-9]+);/g)) {
        const n = ref?.startsWith('x') ? Number.parseInt(ref.slice(1), 16) : Number(ref);
        expect(char.test(String.fromCodePoint(n)), ref).toBe(true);
      }
      const feed = parseFeed(xml);
      expect(feed.title?.replace(/\r\n?/g, '\n')).toBe(`${title}\n!`.replace(/\r\n?/g, '\n'));
      expect(feed.items[0]?.content).toContain(html);
    } finally {
      await site.stop();
    }
  });
});
