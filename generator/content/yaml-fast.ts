// A fast path for the YAML that content files actually use: a top-level mapping of `key: value`
// lines whose values are plain scalars, simple quoted strings, one-line flow lists of plain
// scalars, or `|` literal blocks. For such text it returns exactly what the `yaml` package's
// parse() returns (YAML 1.2, core schema); for anything else, anything it is not sure of, it
// returns NO_FAST_PATH and the caller uses the `yaml` package. It never reports errors: malformed
// text always falls back, so that the package's located messages are what users see.
//
// Why: the package costs ~60–90 µs per small document (measured on 10,000 topic files), which
// is most of a cold build's parse time; this path takes a few µs. test/yaml-fast.test.ts compares
// both on every file of the benchmark's workload and on a list of edge cases.

export const NO_FAST_PATH = Symbol('no fast path');

const KEY = /^([A-Za-z_][A-Za-z0-9_]*):(?: (.*))?$/;
/** Words the core schema reads as null or booleans: not plain keys. */
const SPECIAL_KEYS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', '__proto__']);
const INT = /^(?:0|-?[1-9][0-9]{0,14})$/;
const DECIMAL = /^-?[0-9]{1,15}\.[0-9]{1,15}$/;
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}Z)?$/;
/** Characters that may start a YAML indicator, a number or a special value. */
const FIRST_UNSAFE = /^[-?:,[\]{}#&*!|>'"%@`0-9+.~]/;
const NULLS = new Set(['~', 'null', 'Null', 'NULL']);
const BOOLS = new Map([
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);

type Scalar = string | number | boolean | null;

/**
 * The value itself, never a view of the text it was read from: V8 keeps a substring of 13
 * characters or more as a view that holds its whole source alive, and a parsed file's record
 * lives as long as the build (at 300,000 topics, every file's text held again that way). A
 * one-character prefix makes a new string (of the value alone) to cut it from.
 */
function own<T extends Scalar>(v: T): T {
  return (typeof v === 'string' && v.length >= 13 ? ` ${v}`.slice(1) : v) as T;
}
const NO: typeof NO_FAST_PATH = NO_FAST_PATH;

/** A plain scalar (already trimmed) in block or flow context, resolved by the core schema. */
function plain(text: string, flow: boolean): Scalar | typeof NO {
  if (text === '') return NO;
  if (text.includes(': ') || text.endsWith(':') || text.includes(' #') || text.includes('\t')) return NO;
  if (flow && /[,[\]{}:#]/.test(text)) return NO;
  if (NULLS.has(text)) return null;
  const bool = BOOLS.get(text);
  if (bool !== undefined) return bool;
  if (FIRST_UNSAFE.test(text)) {
    if (INT.test(text) || DECIMAL.test(text)) return Number(text);
    if (DATE_LIKE.test(text)) return text;
    return NO;
  }
  return text;
}

function quoted(text: string): string | typeof NO {
  const q = text[0];
  if (text.length < 2 || text[text.length - 1] !== q) return NO;
  const inner = text.slice(1, -1);
  if (q === '"' && !/["\\]/.test(inner)) return inner;
  if (q === "'" && !inner.includes("'")) return inner;
  return NO;
}

function value(text: string): Scalar | Scalar[] | typeof NO {
  if (text.startsWith('"') || text.startsWith("'")) return quoted(text);
  if (text.startsWith('[')) {
    if (!text.endsWith(']')) return NO;
    const inner = text.slice(1, -1).trim();
    if (inner === '') return [];
    const items: Scalar[] = [];
    for (const raw of inner.split(',')) {
      const item = plain(raw.trim(), true);
      if (item === NO) return NO;
      items.push(item);
    }
    return items;
  }
  return plain(text, false);
}

/** A `|` literal block (clip chomping, detected indentation) starting at lines[start]. */
function literalBlock(lines: readonly string[], start: number): { text: string; next: number } | typeof NO {
  let end = start;
  let indent = -1;
  for (; end < lines.length; end++) {
    const line = lines[end] as string;
    const content = line.trimStart();
    if (content === '') {
      // An empty line before the first content line may not be more indented than it.
      if (indent === -1 && line.length > 0) return NO;
      continue;
    }
    const spaces = line.length - content.length;
    if (spaces === 0) break;
    if (line.slice(0, spaces).includes('\t')) return NO;
    if (indent === -1) indent = spaces;
    else if (spaces < indent) return NO;
  }
  // A block that ends the text without a final line break keeps no line break: not handled here.
  if (end === lines.length && (lines[end - 1] as string) !== '') return NO;
  // Trailing empty lines belong to no key: they are dropped by clip chomping either way.
  let last = end;
  while (last > start && (lines[last - 1] as string).trim() === '') last--;
  if (indent === -1) return { text: '', next: end };
  const body = lines.slice(start, last).map((l) => (l.trim() === '' ? '' : l.slice(indent)));
  return { text: `${body.join('\n')}\n`, next: end };
}

/** The parsed mapping, or NO_FAST_PATH when the text is not in the subset this handles. */
export function parseSimpleYaml(text: string): Record<string, unknown> | typeof NO_FAST_PATH {
  if (text.includes('\r') || text.startsWith('\uFEFF')) return NO;
  const lines = text.split('\n');
  const out: Record<string, unknown> = {};
  let keys = 0;
  for (let i = 0; i < lines.length; ) {
    const line = lines[i] as string;
    if (line === '') {
      i++;
      continue;
    }
    // Tabs are separation in some places and content in others: left to the package.
    if (line.includes('\t')) return NO;
    const m = KEY.exec(line);
    if (m === null) return NO;
    const key = m[1] as string;
    if (SPECIAL_KEYS.has(key) || Object.hasOwn(out, key)) return NO;
    const rest = (m[2] ?? '').trim();
    // A line ending in spaces, or an empty value (a nested block may follow): not handled here.
    if (m[2] !== undefined && m[2] !== m[2].trimEnd()) return NO;
    if (rest === '') return NO;
    if (rest === '|') {
      const block = literalBlock(lines, i + 1);
      if (block === NO) return NO;
      out[key] = block.text;
      i = block.next;
    } else {
      const v = value(rest);
      if (v === NO) return NO;
      out[key] = Array.isArray(v) ? v.map(own) : own(v);
      i++;
    }
    keys++;
  }
  return keys === 0 ? NO : out;
}

/**
 * A top-level list of such mappings, each item `- key: value` then `  key: value` lines (what
 * categories.yaml holds): the items, and the line (1-based) where each starts; NO_FAST_PATH for
 * anything else. Each item is parsed as parseSimpleYaml parses a mapping.
 */
export function parseSimpleYamlList(
  text: string,
): { data: Record<string, unknown>[]; itemLines: number[] } | typeof NO_FAST_PATH {
  if (text.includes('\r') || text.startsWith('\uFEFF')) return NO;
  const lines = text.split('\n');
  const data: Record<string, unknown>[] = [];
  const itemLines: number[] = [];
  let item: string[] | null = null;
  const close = (): boolean => {
    if (item === null) return true;
    const parsed = parseSimpleYaml(`${item.join('\n')}\n`);
    if (parsed === NO) return false;
    data.push(parsed);
    return true;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '') continue;
    if (line.startsWith('- ')) {
      if (!close()) return NO;
      item = [line.slice(2)];
      itemLines.push(i + 1);
    } else if (line.startsWith('  ') && item !== null && line[2] !== ' ') item.push(line.slice(2));
    else return NO;
  }
  // A last line without its line break: left to the package, as for mappings.
  if (!close() || data.length === 0 || !text.endsWith('\n')) return NO;
  return { data, itemLines };
}
