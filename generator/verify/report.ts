// A verification as text: the differences grouped by kind (headers also by what differs, so that
// a CDN dropping one header everywhere is one group, not a thousand lines), what was tolerated,
// and one summary line.

import type { Check } from './checks.ts';
import type { Difference, DifferenceKind } from './compare.ts';
import type { VerifyReport } from './verify.ts';

const KINDS: ReadonlyArray<[DifferenceKind, string]> = [
  ['missing', 'missing: an error where an answer was expected'],
  ['status', 'status: another status than expected'],
  ['body', 'body: other bytes than expected'],
  ['header', 'header'],
  ['no-answer', 'no answer, after one retry'],
];

const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/** The request, as a reader can repeat it with curl. */
function describeCheck(check: Check): string {
  return `${check.method} ${check.target}${check.note === '' ? '' : ` (${check.note})`}`;
}

export interface FormatOptions {
  /** Requests listed per group at most (the rest are counted); default 20. */
  limit?: number;
}

function listed(differences: readonly Difference[], limit: number, line: (d: Difference) => string[]): string[] {
  const lines = differences.slice(0, limit).flatMap(line);
  if (differences.length > limit)
    lines.push(`  … and ${count(differences.length - limit)} more (--all lists every one)`);
  return lines;
}

/** The differences, grouped; empty when there are none. */
export function formatDifferences(differences: readonly Difference[], options: FormatOptions = {}): string[] {
  const limit = options.limit ?? 20;
  const lines: string[] = [];
  for (const [kind, title] of KINDS) {
    const ofKind = differences.filter((d) => d.kind === kind);
    if (ofKind.length === 0) continue;
    if (kind === 'header') {
      const groups = new Map<string, Difference[]>();
      for (const d of ofKind) {
        const key = `${d.header}: expected ${d.expected}, got ${d.got}`;
        groups.set(key, [...(groups.get(key) ?? []), d]);
      }
      for (const [key, group] of groups) {
        lines.push(`header ${key} (${plural(group.length, 'answer')})`);
        lines.push(...listed(group, limit, (d) => [`  ${describeCheck(d.check)}`]));
      }
      continue;
    }
    if (kind === 'no-answer') {
      lines.push(`${title} (${count(ofKind.length)})`);
      lines.push(...listed(ofKind, limit, (d) => [`  ${describeCheck(d.check)}: ${d.got}`]));
      continue;
    }
    lines.push(`${title} (${count(ofKind.length)})`);
    lines.push(
      ...listed(ofKind, limit, (d) => [
        `  ${describeCheck(d.check)}: expected ${d.expected}, got ${d.got}`,
        ...d.detail.map((l) => `    ${l}`),
      ]),
    );
  }
  return lines;
}

/** Differences counted by kind, e.g. "1 missing, 2 header". */
function countByKind(differences: readonly Difference[]): string {
  return KINDS.map(([kind]) => [kind, differences.filter((d) => d.kind === kind).length] as const)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${count(n)} ${kind}`)
    .join(', ');
}

/** Notes on what was tolerated and not checked; empty when there is nothing to say. */
export function formatNotes(report: VerifyReport): string[] {
  const lines: string[] = [];
  const tolerated: string[] = [];
  for (const [token, n] of report.tolerated.varyTokens)
    tolerated.push(`Vary: ${token} added on ${plural(n, 'answer')}`);
  if (report.tolerated.weakEtags > 0)
    tolerated.push(`a weak ETag (W/) of the expected bytes on ${plural(report.tolerated.weakEtags, 'answer')}`);
  if (tolerated.length > 0) lines.push(`tolerated: ${tolerated.join('; ')}`);
  for (const n of report.notChecked) lines.push(`not checked: ${n}`);
  for (const h of report.hints) lines.push(`hint: ${h}`);
  return lines;
}

export function summaryLine(report: VerifyReport): string {
  const n = report.differences.length;
  const result =
    n === 0 ? 'no differences: the mirror is whole' : `${plural(n, 'difference')} (${countByKind(report.differences)})`;
  return `verified ${report.mirror}: ${plural(report.requests, 'request')}, ${result}, ${(report.ms / 1000).toFixed(1)} s (seed ${report.seed})`;
}
