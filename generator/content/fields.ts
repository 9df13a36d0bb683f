// Typed reading of the fields of a parsed YAML mapping, each problem located at its key's line.

import { isIsoDate } from '../core/dates.ts';
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

/** Line of `key:` in the source (first match at or after baseLine), else of the mapping. */
export function lineOf(src: FieldSource, key: string): number {
  const lines = src.text.split('\n');
  const startAt = (src.baseLine ?? src.firstLine) - src.firstLine;
  const pattern = new RegExp(`^\\s*(?:-\\s+)?${key}\\s*:`);
  for (let i = Math.max(0, startAt); i < lines.length; i++) {
    if (pattern.test(lines[i] as string)) return src.firstLine + i;
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
  for (const key of Object.keys(src.data)) {
    if (!known.includes(key)) problem(src, key, `unknown field "${key}" (known: ${known.join(', ')})`);
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

export function nullableString(src: FieldSource, key: string): string | null {
  const v = src.data[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') {
    problem(src, key, `"${key}" must be a string or null, not ${describe(v)}`);
    return null;
  }
  return v;
}

export function nullableNumber(src: FieldSource, key: string): number | null {
  const v = src.data[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    problem(src, key, `"${key}" must be a number or null, not ${describe(v)}`);
    return null;
  }
  return v;
}

export function count(src: FieldSource, key: string): number {
  const v = src.data[key];
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    problem(src, key, `"${key}" must be a whole number, 0 or more, not ${describe(v)}`);
    return 0;
  }
  return v;
}

export function timestamp(src: FieldSource, key: string, fallback: string): string {
  const v = src.data[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string' || !isTimestamp(v)) {
    problem(src, key, `"${key}" must be a UTC timestamp written YYYY-MM-DDTHH:MM:SSZ, not ${describe(v)}`);
    return fallback;
  }
  return v;
}

export function nullableTimestamp(src: FieldSource, key: string): string | null {
  const v = src.data[key];
  if (v === undefined || v === null) return null;
  return timestamp(src, key, '') || null;
}

/** A list of positive integers (ids), returned ascending without duplicates. */
export function idList(src: FieldSource, key: string): number[] {
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
export function stringList(src: FieldSource, key: string): string[] {
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
