// The packed form of the index: where each word occurs, as text. A number is written in base 32
// digits, most significant first, each digit one character of DIGITS: the first 32 characters
// for a digit that another follows, the last 32 for a number's last digit. Documents and
// positions are written as differences from the previous one, so most numbers take one character.

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < DIGITS.length; i++) VALUE[DIGITS.charCodeAt(i)] = i;

function writeNumber(n: number, out: string[]): void {
  const digits: number[] = [];
  do {
    digits.push(n % 32);
    n = Math.floor(n / 32);
  } while (n > 0);
  for (let i = digits.length - 1; i > 0; i--) out.push(DIGITS[digits[i] as number] as string);
  out.push(DIGITS[32 + (digits[0] as number)] as string);
}

/** Where a word occurs: positions (ascending) by document (ascending). */
export type Postings = Map<number, number[]>;

export function encodePostings(postings: ReadonlyArray<readonly [number, readonly number[]]>): string {
  const out: string[] = [];
  let previousDoc = -1;
  for (const [doc, positions] of postings) {
    writeNumber(doc - previousDoc - 1, out);
    previousDoc = doc;
    writeNumber(positions.length, out);
    let previous = -1;
    for (const p of positions) {
      writeNumber(p - previous - 1, out);
      previous = p;
    }
  }
  return out.join('');
}

/** The postings of encodePostings's text; null when the text is not such a one. */
export function decodePostings(text: string): Postings | null {
  const postings: Postings = new Map();
  let i = 0;
  const next = (): number => {
    let n = 0;
    while (i < text.length) {
      const v = VALUE[text.charCodeAt(i++)] ?? -1;
      if (v < 0) return -1;
      if (v >= 32) return n * 32 + (v - 32);
      n = n * 32 + v;
    }
    return -1;
  };
  let doc = -1;
  while (i < text.length) {
    const gap = next();
    const count = next();
    if (gap < 0 || count < 0) return null;
    doc += gap + 1;
    const positions: number[] = new Array(count);
    let p = -1;
    for (let k = 0; k < count; k++) {
      const d = next();
      if (d < 0) return null;
      p += d + 1;
      positions[k] = p;
    }
    postings.set(doc, positions);
  }
  return postings;
}

/** The shard (0 to shards - 1) that holds a word: FNV-1a of its UTF-16 code units. */
export function shardOf(term: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    h ^= term.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shards;
}

/** A shard's text: one line a word, `word<TAB>postings`, in ascending order of word. */
export function encodeShard(entries: ReadonlyArray<readonly [string, string]>): string {
  return entries.map(([term, postings]) => `${term}\t${postings}\n`).join('');
}

/** The encoded postings of one word of a shard's text, or '' when the shard does not hold it. */
export function findInShard(shard: string, term: string): string {
  const key = `${term}\t`;
  const at = shard.startsWith(key) ? 0 : shard.indexOf(`\n${key}`);
  if (at === -1) return '';
  const start = (at === 0 && shard.startsWith(key) ? 0 : at + 1) + key.length;
  const end = shard.indexOf('\n', start);
  return shard.slice(start, end === -1 ? shard.length : end);
}
