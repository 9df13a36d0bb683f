// The searchable text of an HTML field: tags dropped (a block or line break becomes a space),
// in-page links (note references, a note's way back) dropped with their text, so that "Vanly"
// and its note number 71 are not read as one word "Vanly71"; character references decoded.

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

function decodeReference(whole: string, body: string): string {
  if (body.startsWith('#')) {
    const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  }
  return NAMED[body] ?? whole;
}

/** The text content of an HTML fragment. */
export function htmlText(html: string): string {
  return html
    .replace(/<a\b[^>]*\bhref="#[^"]*"[^>]*>[^<]*<\/a>/gi, '')
    .replace(/<\/?(?:p|br|div|li|ol|ul|h[1-6]|blockquote|tr|td|th|table)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);/g, decodeReference);
}
