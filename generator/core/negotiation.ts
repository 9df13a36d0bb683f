// Content negotiation on Accept: JSON unless the client prefers text/html over JSON (a browser
// navigating). Quality values decide; a more specific media range overrides a less specific one.

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [media = '', ...params] = part.split(';');
    const [type = '', subtype = ''] = media.trim().toLowerCase().split('/');
    if (type === '' || subtype === '') continue;
    let q = 1;
    for (const p of params) {
      const [name, value] = p.split('=').map((s) => s.trim());
      if (name?.toLowerCase() === 'q' && value !== undefined) {
        const n = Number(value);
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** The quality the ranges give `type/subtype`: that of the most specific range matching it. */
function quality(ranges: readonly MediaRange[], type: string, subtype: string): number {
  let best = -1;
  let q = 0;
  for (const r of ranges) {
    const specificity =
      r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' && r.subtype === '*' ? 0 : -1;
    if (specificity < 0) continue;
    if (specificity > best || (specificity === best && r.q > q)) {
      best = specificity;
      q = r.q;
    }
  }
  return q;
}

/** True when `accept` prefers text/html to application/json. */
export function prefersHtml(accept: string | null): boolean {
  if (accept === null || accept === '') return false;
  const ranges = parseAccept(accept);
  return quality(ranges, 'text', 'html') > quality(ranges, 'application', 'json');
}
