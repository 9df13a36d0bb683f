// A small, strict parser and serializer for well-formed XHTML.
//
// The importer's input is tool-produced XHTML (Standard Ebooks), so a real HTML5 parser with error
// recovery is unnecessary; what we need is a tree we can rewrite and serialize back *without
// changing anything we did not mean to change*. Text and attribute values are therefore kept raw
// (entities stay as written, which is valid in HTML too), and any malformation is an error rather
// than something to guess about.

import { lineAt } from '../content/problems.ts';

interface XAttr {
  name: string;
  /** Raw value as written in the source (entities not decoded), without quotes. */
  value: string;
}

export interface XElement {
  kind: 'element';
  name: string;
  attrs: XAttr[];
  children: XNode[];
  /** Where the start tag began in its file, for error messages. */
  offset: number;
}

interface XText {
  kind: 'text';
  /** Raw text as written in the source (entities not decoded). */
  text: string;
}

interface XComment {
  kind: 'comment';
  text: string;
}

export type XNode = XElement | XText | XComment;

/** Elements that HTML serializes without an end tag; everything else gets `<x></x>`. */
const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

// One alternation per token kind. Tag names and attribute names may contain ':' (epub:type,
// xml:lang). Attribute values never contain '<' in well-formed XML, which keeps this unambiguous.
const TOKEN =
  /<!--([\s\S]*?)-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|<!DOCTYPE[^>]*>|<\/([A-Za-z_][\w:.-]*)\s*>|<([A-Za-z_][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|[^<]+|</g;
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

export class XmlError extends Error {}

/** How deep elements may nest. */
const MAX_DEPTH = 1_000;

/**
 * Parse a well-formed XML document into a synthetic root element named `#document` whose children
 * are the top-level nodes (prolog and doctype are dropped). Throws XmlError on any malformation.
 */
export function parseXml(source: string, fileName: string): XElement {
  const root: XElement = { kind: 'element', name: '#document', attrs: [], children: [], offset: 0 };
  const stack: XElement[] = [root];
  const fail = (offset: number, reason: string): never => {
    throw new XmlError(`${fileName}:${lineAt(source, offset)}: ${reason}`);
  };
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(source); m !== null; m = TOKEN.exec(source)) {
    const parent = stack[stack.length - 1] as XElement;
    const [token, comment, cdata, endName, startName, attrText, selfClose] = m;
    if (comment !== undefined) {
      parent.children.push({ kind: 'comment', text: comment });
    } else if (cdata !== undefined) {
      // CDATA is literal text; escape it so the raw-text invariant of XText holds.
      parent.children.push({ kind: 'text', text: escapeText(cdata) });
    } else if (endName !== undefined) {
      if (parent.name !== endName) {
        fail(m.index, `</${endName}> does not close <${parent.name}>`);
      }
      stack.pop();
    } else if (startName !== undefined) {
      const attrs: XAttr[] = [];
      ATTRIBUTE.lastIndex = 0;
      for (let a = ATTRIBUTE.exec(attrText ?? ''); a !== null; a = ATTRIBUTE.exec(attrText ?? '')) {
        const name = a[1] as string;
        if (attrs.some((x) => x.name === name)) fail(m.index, `duplicate attribute ${name}`);
        // Single-quoted values are re-quoted with double quotes on output, so escape '"'.
        attrs.push({ name, value: a[2] ?? (a[3] ?? '').replace(/"/g, '&quot;') });
      }
      const element: XElement = { kind: 'element', name: startName, attrs, children: [], offset: m.index };
      parent.children.push(element);
      if (selfClose !== '/') {
        // The walks over the tree (descendants, text, serialisation) recurse: a hostile file's
        // 200,000 nested elements would overflow their stack. No edition nests a tenth of this.
        if (stack.length > MAX_DEPTH) fail(m.index, `elements nested more than ${MAX_DEPTH} deep`);
        stack.push(element);
      }
    } else if (token === '<') {
      fail(m.index, 'stray "<" (not a tag)');
    } else if (token.startsWith('<')) {
      // Prolog (<?xml …?>) or doctype: not content.
    } else {
      parent.children.push({ kind: 'text', text: token });
    }
  }
  if (stack.length > 1) {
    const open = stack[stack.length - 1] as XElement;
    fail(open.offset, `<${open.name}> is never closed`);
  }
  return root;
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function getAttr(element: XElement, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

export function setAttr(element: XElement, name: string, value: string): void {
  const existing = element.attrs.find((a) => a.name === name);
  if (existing) existing.value = value;
  else element.attrs.push({ name, value });
}

export function removeAttr(element: XElement, name: string): void {
  element.attrs = element.attrs.filter((a) => a.name !== name);
}

/** Depth-first, document-order walk over every element below (not including) `node`. */
export function* descendants(node: XElement): Generator<XElement> {
  for (const child of node.children) {
    if (child.kind === 'element') {
      yield child;
      yield* descendants(child);
    }
  }
}

/** The raw text below a node (entities not decoded; enough for digits and words). */
export function textContent(node: XNode): string {
  if (node.kind === 'text') return node.text;
  if (node.kind === 'comment') return '';
  return node.children.map(textContent).join('');
}

/** Serialize nodes as HTML-compatible XHTML. Comments are dropped (they are editorial notes). */
export function serialize(nodes: readonly XNode[]): string {
  const out: string[] = [];
  const write = (node: XNode): void => {
    if (node.kind === 'text') {
      out.push(node.text);
      return;
    }
    if (node.kind === 'comment') return;
    out.push('<', node.name);
    for (const a of node.attrs) out.push(' ', a.name, '="', a.value, '"');
    if (VOID_ELEMENTS.has(node.name) && node.children.length === 0) {
      out.push('/>');
      return;
    }
    // A self-closed non-void element (<td/>) must be written open-and-closed for HTML parsers.
    out.push('>');
    for (const child of node.children) write(child);
    out.push('</', node.name, '>');
  };
  for (const node of nodes) write(node);
  return out.join('');
}
