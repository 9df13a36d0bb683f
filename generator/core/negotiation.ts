// Content negotiation on Accept (RFC 9110, 12.5.1): JSON unless the client prefers text/html to
// JSON, as a browser navigating does. Each type gets the quality of the most specific media range
// that matches it; the higher quality wins. On a tie, HTML wins only when it is named more
// specifically than JSON (`text/html, */*`, as old browsers send: Django REST Framework decides
// the same way); every other tie, and anything unparsable, is JSON, the API's default.

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [media = '', ...params] = part.split(';');
    const [type = '', subtype = '', extra] = media.trim().toLowerCase().split('/');
    if (type === '' || subtype === '' || extra !== undefined) continue;
    let q = 1;
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq === -1 || p.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const value = p.slice(eq + 1).trim();
      // A malformed weight counts as 0: better to fall back to JSON than to guess.
      q = QVALUE.test(value) ? Number(value) : 0;
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

interface Match {
  /** 2: `type/subtype`, 1: `type/*`, 0: `*\/*`, -1: not acceptable at all. */
  specificity: number;
  q: number;
}

function match(ranges: readonly MediaRange[], type: string, subtype: string): Match {
  let best: Match = { specificity: -1, q: 0 };
  for (const r of ranges) {
    const specificity =
      r.type === type && r.subtype === subtype
        ? 2
        : r.type === type && r.subtype === '*'
          ? 1
          : r.type === '*' && r.subtype === '*'
            ? 0
            : -1;
    if (specificity < 0) continue;
    if (specificity > best.specificity || (specificity === best.specificity && r.q > best.q))
      best = { specificity, q: r.q };
  }
  return best;
}

/** True when `accept` prefers text/html to application/json. */
export function prefersHtml(accept: string | null): boolean {
  if (accept === null || accept.trim() === '') return false;
  const ranges = parseAccept(accept);
  const html = match(ranges, 'text', 'html');
  const json = match(ranges, 'application', 'json');
  if (html.q === 0) return false;
  return html.q > json.q || (html.q === json.q && html.specificity > json.specificity);
}
