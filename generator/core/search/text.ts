// The searchable text of an HTML field: tags dropped (a block or line break becomes a space),
// in-page links (note references, a note's way back) dropped with their text, so that "Vanly"
// and its note number 71 are not read as one word "Vanly71"; what is not text (a script, a style
// sheet) dropped with its content; every character reference decoded as a browser decodes text
// (HTML5's named references, `&eacute;` as `é`, numeric ones, the few legacy names without `;`),
// and soft hyphens, which a browser shows only where it breaks a line, left out (`bless&shy;ing`
// is the word `blessing`).

// By its file, not its package name, as the stemmer is (tokenize.ts): Deno runs the edge
// function's modules as they are, without package resolution; the file imports its package's
// other files by relative paths. `entities` is the decoder of htmlparser2 and cheerio.
import { decodeHTML } from '../../../node_modules/entities/dist/esm/decode.js';

/** A script or style element with its content (one left open runs to the end, as in a browser). */
const NOT_TEXT = /<(script|style)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi;
const SOFT_HYPHEN = /\u00ad/g;

/** The text content of an HTML fragment. */
export function htmlText(html: string): string {
  const text = html
    .replace(NOT_TEXT, '')
    .replace(/<a\b[^>]*\bhref="#[^"]*"[^>]*>[^<]*<\/a>/gi, '')
    .replace(/<\/?(?:p|br|div|li|ol|ul|h[1-6]|blockquote|tr|td|th|table)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '');
  const decoded = text.includes('&') ? decodeHTML(text) : text;
  return decoded.includes('\u00ad') ? decoded.replace(SOFT_HYPHEN, '') : decoded;
}
