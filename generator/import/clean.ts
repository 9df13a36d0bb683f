// Turning the edition's EPUB-flavoured XHTML into plain HTML fit for `entryHTML`/`footnotesHTML`.
// What goes: EPUB semantics (`epub:type`, `epub:prefix`), XML namespace declarations, comments
// (editorial remarks in the source) and links or images into files the API does not have.
// What changes: `xml:lang` becomes `lang` (its HTML spelling). Everything else — elements, text,
// entities, classes, ids — is kept exactly, because it is the text.

import { getAttr, type XElement, type XNode } from './xml.ts';

export interface CleanHooks {
  /**
   * Rewrite one link in place (its attributes are already cleaned) or ask for it to be unwrapped:
   * 'unwrap' replaces the <a> by its content, for links whose target the API does not have.
   */
  link(a: XElement): 'keep' | 'unwrap';
  /** Called when an image whose file is not imported is replaced by its text alternative. */
  imageReplaced(src: string): void;
}

function cleanAttributes(element: XElement): void {
  const lang = getAttr(element, 'xml:lang');
  element.attrs = element.attrs.filter((a) => !a.name.includes(':') && a.name !== 'xmlns');
  if (lang !== undefined && getAttr(element, 'lang') === undefined) element.attrs.push({ name: 'lang', value: lang });
}

/** An <img> pointing into the edition's own files: the API has no such file. */
function isLocalImage(element: XElement): boolean {
  const src = getAttr(element, 'src') ?? '';
  return element.name === 'img' && !/^(?:https?:|data:)/.test(src);
}

/** Clean `nodes` (mutating the elements) and return the new list. */
export function cleanNodes(nodes: readonly XNode[], hooks: CleanHooks, parentName = ''): XNode[] {
  const out: XNode[] = [];
  for (const node of nodes) {
    if (node.kind === 'comment') continue;
    if (node.kind === 'text') {
      out.push(node);
      continue;
    }
    if (isLocalImage(node)) {
      // Keep the picture's content as text: its alt is a full transcription (a pedigree).
      hooks.imageReplaced(getAttr(node, 'src') ?? '');
      const alt = getAttr(node, 'alt') ?? '';
      out.push({
        kind: 'element',
        name: parentName === 'figure' ? 'p' : 'span',
        attrs: [],
        children: [{ kind: 'text', text: alt }],
        offset: node.offset,
      });
      continue;
    }
    cleanAttributes(node);
    node.children = cleanNodes(node.children, hooks, node.name);
    if (node.name === 'a' && hooks.link(node) === 'unwrap') {
      out.push(...node.children);
      continue;
    }
    out.push(node);
  }
  return out;
}
