// A topic's description from the editor's note tied to its mark: the note's first sentence, as
// HTML (wheatleyHTML) and as text (tooltipText). A note that only points elsewhere ("See …") or is
// too short to say what the thing is describes nothing.

import { cleanNodes } from './clean.ts';
import { displayName, normaliseName } from './names.ts';
import { getAttr, serialize, textContent, type XElement, type XNode } from './xml.ts';

export interface Description {
  tooltipText: string;
  wheatleyHTML: string;
}

function cloneNode(node: XNode): XNode {
  if (node.kind !== 'element') return { ...node };
  return { ...node, attrs: node.attrs.map((a) => ({ ...a })), children: node.children.map(cloneNode) };
}

/** A sentence ends at . ! or ? (closing quotes or brackets after it) before a space or the end. */
const SENTENCE_END = /[.!?][’”)\]]*(?=\s|$)/;

/**
 * The first sentence of a note's first paragraph, as copies of its nodes. Only the paragraph's own
 * text is cut: an abbreviation's full stop is inside its `<abbr>`, and nested markup is kept whole.
 */
function firstSentence(note: XElement): XNode[] {
  const paragraph = note.children.find((c): c is XElement => c.kind === 'element' && c.name === 'p') ?? note;
  const out: XNode[] = [];
  for (const child of paragraph.children) {
    if (child.kind === 'element' && /\b(?:backlink|noteref)\b/.test(getAttr(child, 'epub:type') ?? '')) continue;
    if (child.kind === 'text') {
      const end = SENTENCE_END.exec(child.text);
      if (end !== null) {
        out.push({ kind: 'text', text: child.text.slice(0, end.index + end[0].length) });
        return out;
      }
    }
    out.push(cloneNode(child));
  }
  return out;
}

/** Words that say what kind of thing a sentence is about: a work, or a ship. */
const KIND_WORDS =
  /\b(?:comedy|tragedy|tragicomedy|tragi-comedy|play|opera|masque|droll|pastoral|poem|song|ballad|book|pamphlet|treatise|newspaper|gazette|engraving|picture|painting|ship|rate|frigate|yacht|ketch|hoy|vessel|prize|guns)\b/i;

/**
 * The description a note gives of a thing with these keys (normalised names), or null when it
 * describes something else (a captain, a letter about the ship: it names neither the thing nor
 * its kind), or nothing (a bare "See …" cross-reference, a word or two).
 */
export function describe(note: XElement, keys: readonly string[] = []): Description | null {
  const nodes = cleanNodes(firstSentence(note), { link: () => 'unwrap', imageReplaced: () => {} });
  const tooltipText = displayName(textContent({ kind: 'element', name: 'p', attrs: [], children: nodes, offset: 0 }));
  if (/^(?:see|vide|cf\b|compare)/i.test(tooltipText)) return null;
  if (tooltipText.split(' ').length < 3) return null;
  const said = ` ${normaliseName(tooltipText)} `;
  if (!KIND_WORDS.test(tooltipText) && !keys.some((k) => k !== '' && said.includes(` ${k} `))) return null;
  const html = serialize(nodes).replace(/\s+/g, ' ').trim();
  return { tooltipText, wheatleyHTML: `<p>${html}</p>` };
}
