// The hand-reviewed alias list (aliases.yaml, data kept beside the importer): which spellings of a
// name mean one thing, which mean different things at different dates, and which names are no
// one thing. Rules are matched by normalised key (names.ts), never by resemblance.

import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { MARK_CATEGORIES, type MarkCategory } from './marks.ts';
import { normaliseName } from './names.ts';

export interface AliasRule {
  category: MarkCategory;
  /** Normalised key of the spelling. */
  spelling: string;
  /** Normalised key of the name it means; null when set aside. */
  means: string | null;
  from: string | null;
  until: string | null;
  title: string | null;
  reason: string;
}

export type Resolution =
  | { kind: 'topic'; key: string; title: string | null; rule: AliasRule | null }
  | { kind: 'setAside'; reason: string };

const ALIASES_FILE = new URL('./aliases.yaml', import.meta.url);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const KEYS = new Set(['category', 'spelling', 'means', 'setAside', 'from', 'until', 'title', 'reason']);

/** The rules of an alias list's text; throws naming the rule (its position and spelling) when one is malformed. */
export function parseAliases(text: string, file = 'aliases.yaml'): AliasRule[] {
  const data: unknown = parse(text);
  if (!Array.isArray(data)) throw new Error(`${file}: must be a list of rules`);
  return data.map((item: unknown, i): AliasRule => {
    const at = `${file}: rule ${i + 1}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new Error(`${at}: not a mapping`);
    const r = item as Record<string, unknown>;
    const unknown = Object.keys(r).find((k) => !KEYS.has(k));
    if (unknown !== undefined) throw new Error(`${at}: unknown key "${unknown}"`);
    const str = (key: string): string | null => {
      const v = r[key];
      if (v === undefined || v === null) return null;
      if (typeof v === 'string' && v.trim() !== '') return v;
      if (v instanceof Date) return v.toISOString().slice(0, 10); // an unquoted date
      throw new Error(`${at}: "${key}" must be a non-empty string`);
    };
    const category = str('category');
    if (!MARK_CATEGORIES.some((c) => c === category)) throw new Error(`${at}: unknown category ${category}`);
    const spelling = str('spelling');
    const reason = str('reason');
    if (spelling === null || normaliseName(spelling) === '') throw new Error(`${at}: needs a spelling`);
    if (reason === null) throw new Error(`${at} (${spelling}): needs a reason`);
    const means = str('means');
    const setAside = r.setAside === true;
    if ((means === null) === !setAside)
      throw new Error(`${at} (${spelling}): needs either "means" or "setAside: true"`);
    const from = str('from');
    const until = str('until');
    for (const d of [from, until])
      if (d !== null && !DATE.test(d)) throw new Error(`${at} (${spelling}): bad date ${d}`);
    const title = str('title');
    if (title !== null && from === null && until === null)
      throw new Error(`${at} (${spelling}): "title" only with from/until (the title is otherwise Pepys's spelling)`);
    const key = means === null ? null : normaliseName(means);
    if (key === normaliseName(spelling) && from === null && until === null)
      throw new Error(`${at} (${spelling}): means itself (the normalisation already merges it)`);
    return {
      category: category as MarkCategory,
      spelling: normaliseName(spelling),
      means: key,
      from,
      until,
      title,
      reason,
    };
  });
}

/** Check that no undated rule's target is itself an undated spelling (no chains), and no spelling twice. */
function checkRules(rules: readonly AliasRule[]): void {
  const undated = new Map<string, AliasRule>();
  for (const r of rules) {
    if (r.from !== null || r.until !== null) continue;
    const k = `${r.category}/${r.spelling}`;
    if (undated.has(k)) throw new Error(`aliases: "${r.spelling}" (${r.category}) is given twice`);
    undated.set(k, r);
  }
  for (const r of rules) {
    if (r.means !== null && undated.has(`${r.category}/${r.means}`))
      throw new Error(`aliases: "${r.spelling}" means "${r.means}", which is itself an alias: give the final name`);
  }
}

/** Resolves marks' names through the rules: a dated rule that holds wins over an undated one. */
export class Aliases {
  private readonly bySpelling = new Map<string, AliasRule[]>();
  readonly rules: readonly AliasRule[];
  constructor(rules: readonly AliasRule[]) {
    checkRules(rules);
    this.rules = rules;
    for (const r of rules) {
      const k = `${r.category}/${r.spelling}`;
      this.bySpelling.set(k, [...(this.bySpelling.get(k) ?? []), r]);
    }
  }

  static load(file: URL | string = ALIASES_FILE): Aliases {
    return new Aliases(parseAliases(readFileSync(file, 'utf8'), String(file)));
  }

  resolve(category: MarkCategory, key: string, date: string | null): Resolution {
    const rules = this.bySpelling.get(`${category}/${key}`) ?? [];
    const holds = (r: AliasRule): boolean =>
      date !== null && (r.from === null || r.from <= date) && (r.until === null || date <= r.until);
    const rule =
      rules.find((r) => (r.from !== null || r.until !== null) && holds(r)) ??
      rules.find((r) => r.from === null && r.until === null);
    if (rule === undefined) return { kind: 'topic', key, title: null, rule: null };
    if (rule.means === null) return { kind: 'setAside', reason: rule.reason };
    return { kind: 'topic', key: rule.means, title: rule.title, rule };
  }
}
