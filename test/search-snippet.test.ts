// Snippets and the searchable text of HTML fields.

import { describe, expect, it } from 'vitest';
import type { Fields } from '../generator/core/search/documents.ts';
import { parseSearch, type Term } from '../generator/core/search/query.ts';
import { type KeptField, keptField, snippet } from '../generator/core/search/snippet.ts';
import { htmlText } from '../generator/core/search/text.ts';

function wanted(raw: string): Term[] {
  const p = parseSearch(raw);
  if (!p.ok) throw new Error(p.error.detail);
  return p.value.clauses.flat().filter((t) => !t.negated);
}

describe('snippet', () => {
  it('marks a phrase only where its words stand in a row', () => {
    const text = 'Up and to the office, and so home, and so to bed.';
    expect(snippet(['Title', text, ''], wanted('"and so to bed"'))).toBe(
      'Up and to the office, and so home, <mark>and</mark> <mark>so</mark> <mark>to</mark> <mark>bed</mark>.',
    );
  });

  it('cuts a long text around the first match, escapes it, and marks every form of the word', () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    words[20] = 'Plagues';
    words[24] = 'a<b>&"plagued"';
    const s = snippet(['T', words.join(' '), ''], wanted('plague'));
    // Eight words before the first match, sixteen after it (a, b and plagued are three).
    expect(s).toBe(
      '… w12 w13 w14 w15 w16 w17 w18 w19 <mark>Plagues</mark> w21 w22 w23 a&#60;b&#62;&#38;&#34;<mark>plagued</mark>&#34; w25 w26 w27 w28 w29 w30 w31 w32 w33 w34 …',
    );
  });

  it('falls back to the notes, then the title, then the first words', () => {
    expect(snippet(['A lute', 'no match', 'a lute note'], wanted('lute'))).toBe('a <mark>lute</mark> note');
    expect(snippet(['A lute', 'no match', ''], wanted('lute'))).toBe('A <mark>lute</mark>');
    expect(snippet(['T', 'first words', ''], wanted('-lute'))).toBe('first words');
  });

  it('is one line: every run of white space, in the text or around it, one space', () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    words[20] = 'office';
    const cases: Array<[Fields, string]> = [
      [
        ['T', '\n\tUp\u00a0 and\r\nto  the\u2028office,\n\n and so to\t\tbed.  ', ''],
        'Up and to the <mark>office</mark>, and so to bed.',
      ],
      [
        ['T', words.join(' \n\t'), ''],
        '… w12 w13 w14 w15 w16 w17 w18 w19 <mark>office</mark> w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 w31 w32 w33 w34 w35 w36 …',
      ],
    ];
    for (const [fields, expected] of cases) {
      expect(snippet(fields, wanted('office'))).toBe(expected);
      // The same from the fields as a server keeps them, made one line before they are cut.
      const kept = fields.map(keptField);
      expect(snippet(fields, wanted('office'), undefined, (f) => kept[f] as KeptField)).toBe(expected);
    }
  });
});

describe('searchable text', () => {
  it('drops tags and in-page note links, decodes references', () => {
    const html =
      '<p><abbr>Mr.</abbr> Vanly<a href="#note-71" id="noteref-71">71</a> to me &amp; my wife&#8217;s <b>lute</b>.</p><p>Next <a href="#noteref-71">↩</a></p>';
    expect(htmlText(html).trim()).toBe('Mr. Vanly to me & my wife’s lute.  Next');
  });
});
