// Typed reading of the fields of a parsed YAML mapping, each problem located at its key's line.

import { isIsoDate } from '../core/dates.ts';
import type { Description, FieldSpec, FileOf } from '../core/record-fields.ts';
import type { Problem } from './problems.ts';

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;

export function isTimestamp(value: string): boolean {
  const m = TIMESTAMP.exec(value);
  return m !== null && isIsoDate(m[1] as string);
}

/** A mapping being read: the file, the text it came from and where that text starts. */
export interface FieldSource {
  file: string;
  /** The YAML text, to find the line of a key. */
  text: string;
  /** Line number of the text's first line within the file. */
  firstLine: number;
  /** Line of the mapping itself, for items of a list. */
  baseLine?: number;
  data: Record<string, unknown>;
  problems: Problem[];
}

/**
 * The keys of a YAML text by line: each line's key (plain, or quoted with ' or ") read as text.
 * Never a regular expression made from a key: keys are content, and content may be hostile.
 * Kept for the last text seen, so that many problems in one file split it once.
 */
let indexedText: string | null = null;
let indexedKeys = new Map<string, number[]>();

function keyOfLine(line: string): string | null {
  let s = line.trimStart();
  if (s.startsWith('-') && (s[1] === ' ' || s[1] === '\t')) s = s.slice(1).trimStart();
  const quote = s[0];
  if (quote === '"' || quote === "'") {
    const close = s.indexOf(quote, 1);
    if (close < 0) return null;
    const rest = s.slice(close + 1).trimStart();
    if (!rest.startsWith(':')) return null;
    const raw = s.slice(1, close);
    if (quote === '"') {
      try {
        return JSON.parse(`"${raw}"`) as string;
      } catch {
        return raw;
      }
    }
    return raw;
  }
  // A plain key ends at the first ': ' (or ':' at the end of the line).
  for (let i = s.indexOf(':'); i >= 0; i = s.indexOf(':', i + 1)) {
    const next = s[i + 1];
    if (next === undefined || next === ' ' || next === '\t') {
      // An empty key (`: value`) is a key too: its problem names its own line.
      return s.slice(0, i).trimEnd();
    }
  }
  return null;
}

function keysByLine(text: string): Map<string, number[]> {
  if (text === indexedText) return indexedKeys;
  const keys = new Map<string, number[]>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const key = keyOfLine(lines[i] as string);
    if (key === null) continue;
    const at = keys.get(key);
    if (at === undefined) keys.set(key, [i]);
    else at.push(i);
  }
  indexedText = text;
  indexedKeys = keys;
  return keys;
}

/** Line of `key:` in the source (first at or after baseLine), else of the mapping. */
export function lineOf(src: FieldSource, key: string): number {
  const startAt = Math.max(0, (src.baseLine ?? src.firstLine) - src.firstLine);
  const at = keysByLine(src.text).get(key);
  if (at !== undefined) {
    // Lines are ascending: the first at or after startAt, by bisection.
    let lo = 0;
    let hi = at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((at[mid] as number) < startAt) lo = mid + 1;
      else hi = mid;
    }
    if (lo < at.length) return src.firstLine + (at[lo] as number);
  }
  return src.baseLine ?? src.firstLine;
}

export function problem(src: FieldSource, key: string, message: string): void {
  src.problems.push({ file: src.file, line: lineOf(src, key), message });
}

export function asMapping(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

export function rejectUnknownKeys(src: FieldSource, known: readonly string[]): void {
  const knownSet = new Set(known);
  const list = known.join(', ');
  for (const key of Object.keys(src.data)) {
    if (!knownSet.has(key)) problem(src, key, `unknown field "${key}" (known: ${list})`);
  }
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : `${typeof value} ${JSON.stringify(value)}`;
}

export function requiredString(src: FieldSource, key: string): string | null {
  const v = src.data[key];
  if (v === undefined) {
    src.problems.push({
      file: src.file,
      line: src.baseLine ?? src.firstLine,
      message: `missing required field "${key}"`,
    });
    return null;
  }
  if (typeof v !== 'string' || v.trim() === '') {
    problem(src, key, `"${key}" must be a non-empty string, not ${describe(v)}`);
    return null;
  }
  return v;
}

export function optionalString(src: FieldSource, key: string, fallback: string): string {
  const v = src.data[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string') {
    problem(src, key, `"${key}" must be a string, not ${describe(v)}`);
    return fallback;
  }
  return v;
}

function nullableString(src: FieldSource, key: string): string | null {
  const v = src.data[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') {
    problem(src, key, `"${key}" must be a string or null, not ${describe(v)}`);
    return null;
  }
  return v;
}

function nullableNumber(src: FieldSource, key: string): number | null {
  const v = src.data[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    problem(src, key, `"${key}" must be a number or null, not ${describe(v)}`);
    return null;
  }
  return v;
}

function count(src: FieldSource, key: string): number {
  const v = src.data[key];
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    problem(src, key, `"${key}" must be a whole number, 0 or more, not ${describe(v)}`);
    return 0;
  }
  return v;
}

function timestamp(src: FieldSource, key: string, fallback: string): string {
  const v = src.data[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string' || !isTimestamp(v)) {
    problem(src, key, `"${key}" must be a UTC timestamp written YYYY-MM-DDTHH:MM:SSZ, not ${describe(v)}`);
    return fallback;
  }
  return v;
}

function nullableTimestamp(src: FieldSource, key: string): string | null {
  const v = src.data[key];
  if (v === undefined || v === null) return null;
  return timestamp(src, key, '') || null;
}

/** A list of positive integers (ids), returned ascending without duplicates. */
function idList(src: FieldSource, key: string): number[] {
  const v = src.data[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isSafeInteger(x) && x > 0)) {
    problem(src, key, `"${key}" must be a list of topic ids (positive whole numbers), not ${describe(v)}`);
    return [];
  }
  const ids = [...new Set(v as number[])].sort((a, b) => a - b);
  if (ids.length !== v.length) problem(src, key, `"${key}" lists the same id more than once`);
  return ids;
}

/** A list of non-empty strings (slugs), returned ascending without duplicates. */
function stringList(src: FieldSource, key: string): string[] {
  const v = src.data[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x !== '')) {
    problem(src, key, `"${key}" must be a list of category slugs, not ${describe(v)}`);
    return [];
  }
  const list = [...new Set(v as string[])].sort();
  if (list.length !== v.length) problem(src, key, `"${key}" lists the same slug more than once`);
  return list;
}

/** A field the file gives, read as its description says (record-fields.ts); `fallback`: a timestamp's. */
function readField(src: FieldSource, key: string, spec: FieldSpec, fallback: string): unknown {
  if (spec.type === 'array') return spec.model === 'topicIds' ? idList(src, key) : stringList(src, key);
  if (spec.type === 'integer' && spec.minimum === 0 && !spec.nullable) return count(src, key);
  if (spec.type === 'number' && spec.nullable) return nullableNumber(src, key);
  if (spec.type === 'string' && spec.ref === 'Timestamp')
    return spec.nullable ? nullableTimestamp(src, key) : timestamp(src, key, fallback);
  if (spec.type === 'string') return spec.nullable ? nullableString(src, key) : optionalString(src, key, '');
  // A field of a kind no file gives yet: its reader is to be written here.
  throw new Error(`no reader for "${key}" as described (content/fields.ts readField)`);
}

/**
 * The fields of a record that its content file gives (those its description marks `file`), each
 * read and checked as its description says, in the description's order; a list of links into the
 * model's list of ids or slugs. `lastModified`: the timestamp of a file that gives none.
 */
export function readFields<D extends Description>(src: FieldSource, description: D, lastModified: string): FileOf<D> {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(description)) {
    if (spec.file !== true) continue;
    out[spec.model === 'topicIds' || spec.model === 'categorySlugs' ? spec.model : key] = readField(
      src,
      key,
      spec,
      lastModified,
    );
  }
  return out as FileOf<D>;
}
