// The characters content may not hold, in any text of any file (site.yaml, categories.yaml, a
// topic, an entry's front matter, HTML and footnotes), each refused as a problem at its file and
// line:
// - the C0 controls but tab, line feed and carriage return, and U+FFFE and U+FFFF: XML 1.0 cannot
//   hold them, escaped or not, so one in a title or an entry made the Atom feed ill-formed (strict
//   readers reject the whole feed);
// - DEL and the C1 controls (U+007F–U+009F): XML 1.0 tolerates them but discourages them, XML 1.1
//   and HTML's parser treat them as errors, no reader shows them, and in UTF-8 text they are nearly
//   always a Windows-1252 file decoded as Latin-1 on its way in;
// - a lone surrogate (half of a UTF-16 pair), which only a YAML escape (`"\ud800"`) can write:
//   no character at all, refused as bytes that are not UTF-8 are (read-file.ts); the API sent it
//   as `\ud800` and the SQLite download as U+FFFD.

import { type FieldSource, lineOf } from './fields.ts';
import type { Problem } from './problems.ts';

/** Any candidate, including a surrogate of a well-formed pair: one quick test of a whole text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters looked for
const CANDIDATE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ud800-\udfff\ufffe\uffff]/;
/** The characters refused, a surrogate only when it is not half of a pair. */
const REFUSED =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Lines of one text reported at most: the rest are counted in one more problem. */
const MAX_LINES = 20;

/** True when `text` holds a refused character. */
function hasRefusedCharacter(text: string): boolean {
  if (!CANDIDATE.test(text)) return false;
  REFUSED.lastIndex = 0;
  return REFUSED.test(text);
}

function codePoint(c: string): string {
  return `U+${(c.charCodeAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What the character is and why it is refused (never the character itself). */
function why(c: string): string {
  const n = c.charCodeAt(0);
  if (n >= 0xd800 && n <= 0xdfff)
    return `${codePoint(c)}, a lone surrogate (half of a UTF-16 pair): no character, refused as bytes that are not UTF-8 are`;
  if (n === 0xfffe || n === 0xffff) return `${codePoint(c)}, a noncharacter: the Atom feed's XML cannot hold it`;
  if (n < 0x20) return `${codePoint(c)}, a control character: the Atom feed's XML cannot hold it`;
  return `${codePoint(c)}, a control character (DEL or C1: text decoded from Windows-1252 as Latin-1?)`;
}

/**
 * Records a problem for each line of `text` (a file's text from its line `firstLine`) that holds a
 * refused character, naming the first of them and its column; true when there was one.
 */
export function refuseCharacters(text: string, file: string, firstLine: number, problems: Problem[]): boolean {
  if (!hasRefusedCharacter(text)) return false;
  let lines = 0;
  let lastLine = -1;
  let lineStart = 0;
  let line = firstLine;
  let scanned = 0;
  REFUSED.lastIndex = 0;
  for (let m = REFUSED.exec(text); m !== null; m = REFUSED.exec(text)) {
    for (let nl = text.indexOf('\n', scanned); nl !== -1 && nl < m.index; nl = text.indexOf('\n', nl + 1)) {
      line++;
      lineStart = nl + 1;
    }
    scanned = m.index;
    if (line === lastLine) continue;
    lastLine = line;
    if (++lines > MAX_LINES) continue;
    const column = [...text.slice(lineStart, m.index)].length + 1;
    problems.push({ file, line, message: `${why(m[0])}, at column ${column}` });
  }
  if (lines > MAX_LINES)
    problems.push({ file, line: 0, message: `${lines - MAX_LINES} more lines hold characters refused as above` });
  return true;
}

/** The first refused character of a parsed value (a string, or any string in a list or mapping). */
function refusedIn(value: unknown): string | null {
  if (typeof value === 'string') {
    if (!hasRefusedCharacter(value)) return null;
    REFUSED.lastIndex = 0;
    return (REFUSED.exec(value) as RegExpExecArray)[0];
  }
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const c = (typeof key === 'string' ? refusedIn(key) : null) ?? refusedIn(item);
    if (c !== null) return c;
  }
  return null;
}

/**
 * Records a problem for each key of a parsed YAML mapping whose key or value holds a refused
 * character that its text does not (a double-quoted escape, `"\x01"` or `"\ud800"`: the only way
 * a value holds a character its text does not), at the key's line. For a text without a
 * backslash there is nothing to look for: the fast path (yaml-fast.ts) and the package alike give
 * values that are pieces of the text, which refuseCharacters has read.
 */
export function refuseEscapedCharacters(src: FieldSource): void {
  if (!src.text.includes('\\')) return;
  for (const [key, value] of Object.entries(src.data)) {
    const c = refusedIn(key) ?? refusedIn(value);
    if (c !== null)
      src.problems.push({
        file: src.file,
        line: lineOf(src, key),
        message: `${refusedIn(key) === null ? `"${key}"` : 'a key'} holds ${why(c)} (written as an escape)`,
      });
  }
}
