// The links that make an entry mention a topic (docs/content-format.md: an entry's topics are the
// topic pages its text and footnotes link to). A marked name becomes `<a href="{topic page}">`
// around the element as written: `<i>Macbeth</i>` → `<a href="…/encyclopedia/N/"><i>Macbeth</i></a>`.
// Nothing else of the text changes.

import type { XElement, XNode } from './xml.ts';

/** `nodes` with each element of `linkOf` wrapped in a link to its topic's page (elements changed in place). */
export function linkTopicMarks(
  nodes: readonly XNode[],
  linkOf: ReadonlyMap<XElement, number>,
  pageOf: (id: number) => string,
): XNode[] {
  return nodes.map((node) => {
    if (node.kind !== 'element') return node;
    const id = linkOf.get(node);
    // A mark's own marks are not linked again (encyclopedia.ts leaves them out): no link in a link.
    if (id !== undefined)
      return {
        kind: 'element',
        name: 'a',
        attrs: [{ name: 'href', value: pageOf(id) }],
        children: [node],
        offset: node.offset,
      };
    node.children = linkTopicMarks(node.children, linkOf, pageOf);
    return node;
  });
}
