// One answer of the mirror against the expected one: the status, the body byte for byte, and the
// contract's headers, each compared as strictly as the contract asks and no more: the order of
// tokens in a list does not matter, the case of a header's name never does, and what a CDN
// legitimately adds (Vary: Accept-Encoding, a weak ETag for the same bytes) is tolerated and
// counted, not reported as a difference.

import { lineOfByte } from '../core/byte-line.ts';
import type { ApiResponse } from '../core/handler.ts';
import type { Check } from './checks.ts';
import type { MirrorAnswer } from './http.ts';

export type DifferenceKind = 'missing' | 'status' | 'body' | 'header' | 'no-answer';

export interface Difference {
  kind: DifferenceKind;
  check: Check;
  /** For a header difference: the header, as the contract spells it. */
  header?: string;
  /** What was expected and what came back, one short line each. */
  expected: string;
  got: string;
  /** Further lines (for a body: where it differs, and both excerpts). */
  detail: string[];
}

/** What the mirror did differently but acceptably, counted over a run. */
export interface Tolerated {
  /** Vary tokens the mirror added, by token, with the number of answers that had them. */
  varyTokens: Map<string, number>;
  /** Answers whose ETag was the expected one made weak (`W/"…"`). */
  weakEtags: number;
}

export function noTolerance(): Tolerated {
  return { varyTokens: new Map(), weakEtags: 0 };
}

/** Vary tokens that a CDN adds by itself and that change nothing a client sees. */
const TOLERATED_VARY: readonly string[] = ['Accept-Encoding'];

const decoder = new TextDecoder();

const tokens = (v: string, fold: boolean) =>
  v
    .split(',')
    .map((t) => (fold ? t.trim().toLowerCase() : t.trim()))
    .filter((t) => t !== '');
/** A header's value in a report: quoted (an ETag is already), or `none`. */
const quoted = (v: string | undefined) =>
  v === undefined ? 'none' : /^(W\/)?"[^"]*"$/.test(v) ? v : JSON.stringify(v);

/** The headers compared, with how: each returns a problem, or null when the value is right. */
type Rule = (expected: string, got: string | undefined, tolerated: Tolerated) => string | null;

const exact: Rule = (e, g) => (g === e ? null : 'differs');
const caseless: Rule = (e, g) => (g !== undefined && g.trim().toLowerCase() === e.toLowerCase() ? null : 'differs');
const mediaType: Rule = (e, g) =>
  g !== undefined && g.replace(/\s+/g, '').toLowerCase() === e.replace(/\s+/g, '').toLowerCase() ? null : 'differs';
const sameSet =
  (fold: boolean): Rule =>
  (e, g) => {
    if (g === undefined) return 'differs';
    const want = new Set(tokens(e, fold));
    const have = new Set(tokens(g, fold));
    return want.size === have.size && [...want].every((t) => have.has(t)) ? null : 'differs';
  };
/** Every token asked for, or `*` (a preflight's allowed headers may cover more than was asked). */
const covers: Rule = (e, g) => {
  if (g === undefined) return 'differs';
  const have = new Set(tokens(g, true));
  return have.has('*') || tokens(e, true).every((t) => have.has(t)) ? null : 'differs';
};
const vary: Rule = (e, g, tolerated) => {
  if (g === undefined) return 'differs';
  const want = tokens(e, true);
  const have = tokens(g, true);
  if (!want.every((t) => have.includes(t))) return 'differs';
  const extra = have.filter((t) => !want.includes(t));
  const allowed = TOLERATED_VARY.map((t) => t.toLowerCase());
  if (!extra.every((t) => allowed.includes(t))) return 'differs';
  for (const t of extra) {
    const name = TOLERATED_VARY.find((a) => a.toLowerCase() === t) as string;
    tolerated.varyTokens.set(name, (tolerated.varyTokens.get(name) ?? 0) + 1);
  }
  return null;
};

const RULES: ReadonlyArray<[string, Rule]> = [
  ['Content-Type', mediaType],
  ['Allow', sameSet(false)],
  ['Vary', vary],
  ['X-Content-Type-Options', caseless],
  ['Access-Control-Allow-Origin', exact],
  ['Access-Control-Expose-Headers', sameSet(true)],
  ['Access-Control-Allow-Methods', sameSet(false)],
  ['Access-Control-Allow-Headers', covers],
  ['Access-Control-Max-Age', exact],
];

function header(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

const isSuccess = (status: number) => status >= 200 && status < 400;
const count = (n: number) => n.toLocaleString('en-US');

/** What came back, in a few words: the error's detail, a redirect's target, or the body's start. */
function gist(got: MirrorAnswer): string {
  const location = got.headers.location;
  if (location !== undefined) return `Location: ${location}`;
  const text = decoder.decode(got.body);
  try {
    const detail = (JSON.parse(text) as { detail?: unknown }).detail;
    if (typeof detail === 'string') return JSON.stringify(detail);
  } catch {
    // Not JSON: its first characters below.
  }
  const line = text.replace(/\s+/g, ' ').trim();
  return line === '' ? 'an empty body' : JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line);
}

/** The mirror's own words for "a file of the build is missing": this project's 503. */
function saysIncomplete(got: MirrorAnswer): boolean {
  return got.status === 503 && decoder.decode(got.body).includes('The built site is incomplete');
}

function statusDifference(check: Check, expected: ApiResponse, got: MirrorAnswer): Difference {
  const missing = isSuccess(expected.status) && (got.status === 404 || got.status === 410 || saysIncomplete(got));
  const size = expected.sendBody ? ` (${count(expected.body.length)} bytes)` : '';
  return {
    kind: missing ? 'missing' : 'status',
    check,
    expected: `${expected.status}${size}`,
    got: `${got.status}: ${gist(got)}`,
    detail: [],
  };
}

/** Start of the UTF-8 character holding byte i. */
function charStart(bytes: Uint8Array, i: number): number {
  while (i > 0 && i < bytes.length && ((bytes[i] as number) & 0xc0) === 0x80) i--;
  return i;
}

function excerpt(bytes: Uint8Array, at: number): string {
  const from = charStart(bytes, Math.max(0, at - 24));
  const to = charStart(bytes, Math.min(bytes.length, at + 40));
  const text = JSON.stringify(decoder.decode(bytes.subarray(from, to))).slice(1, -1);
  return `${from > 0 ? '…' : ''}${text}${to < bytes.length ? '…' : ''}`;
}

/** The first differing byte of two bodies, or -1 when they are equal. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

function bodyDifference(check: Check, expected: Uint8Array, got: Uint8Array): Difference | null {
  const at = firstDifference(expected, got);
  if (at === -1) return null;
  const { line, lineStart } = lineOfByte(expected, at);
  const where =
    at === got.length
      ? `the answer ends early, at byte ${count(at)}`
      : at === expected.length
        ? `the answer goes on past the expected end, byte ${count(at)}`
        : `first difference at byte ${count(at)}`;
  return {
    kind: 'body',
    check,
    expected: `${count(expected.length)} bytes`,
    got: `${count(got.length)} bytes`,
    detail: [
      `${where} (line ${line}, column ${at - lineStart + 1})`,
      `expected ${excerpt(expected, at)}`,
      `got      ${excerpt(got, at)}`,
    ],
  };
}

/**
 * The differences between the expected answer to a check and the mirror's. A wrong status is
 * one difference (its headers and body then mean nothing); otherwise the body, then each header.
 */
export function compareAnswer(
  check: Check,
  expected: ApiResponse,
  got: MirrorAnswer,
  tolerated: Tolerated,
): Difference[] {
  if (got.status !== expected.status) return [statusDifference(check, expected, got)];
  const differences: Difference[] = [];
  const bodyChecked = expected.sendBody && check.compareBody;
  const body = bodyChecked ? bodyDifference(check, expected.body, got.body) : null;
  if (body !== null) differences.push(body);
  if (check.staticFile === true) {
    const e = header(expected.headers, 'Content-Type');
    const g = header(got.headers, 'Content-Type');
    if (e !== g)
      differences.push({
        kind: 'header',
        check,
        header: 'Content-Type',
        expected: quoted(e),
        got: quoted(g),
        detail: [],
      });
    return differences;
  }
  for (const [name, rule] of RULES) {
    const e = header(expected.headers, name);
    if (e === undefined) continue;
    const g = header(got.headers, name);
    if (rule(e, g, tolerated) !== null)
      differences.push({ kind: 'header', check, header: name, expected: quoted(e), got: quoted(g), detail: [] });
  }
  const etag = header(expected.headers, 'ETag');
  if (etag !== undefined) {
    const g = header(got.headers, 'ETag');
    if (g === undefined)
      differences.push({ kind: 'header', check, header: 'ETag', expected: quoted(etag), got: 'none', detail: [] });
    // The HTML view's ETag is that of its own bytes, which are not compared; a wrong body has a
    // wrong ETag of course, and one difference says it.
    else if (check.compareBody && body === null && g !== etag) {
      if (g === `W/${etag}`) tolerated.weakEtags++;
      else
        differences.push({ kind: 'header', check, header: 'ETag', expected: quoted(etag), got: quoted(g), detail: [] });
    }
  }
  return differences;
}

export function noAnswer(check: Check, reason: string): Difference {
  return { kind: 'no-answer', check, expected: 'an answer', got: reason, detail: [] };
}
