// A site's locale (site.yaml `locale`) as entry titles need it: date-fns's names of weekdays and
// months and its full date pattern (e.g. `fr`: `EEEE d MMMM y`, `dimanche 2 août 1914`). The
// default, `en`, is the English the project has always written (`Sunday 1 January 1659/60`):
// date-fns's British names in the order weekday, day, month, year, without en-GB's comma.

import { createRequire } from 'node:module';
import { enGB } from 'date-fns/locale/en-GB';
import type { SiteConfig } from '../core/model.ts';
import type { TitleFormat, TitlePart, TitleRules } from '../core/titles.ts';

export const DEFAULT_LOCALE = 'en';

/** The part of a date-fns locale that titles use. */
interface DateFnsLocale {
  code: string;
  formatLong: { date(options: { width: 'full' }): string };
  localize: {
    day(day: number, options: { width: 'wide'; context: 'formatting' }): string;
    month(month: number, options: { width: 'wide'; context: 'formatting' }): string;
    ordinalNumber(n: number, options: { unit: 'date' }): string;
  };
}

const require = createRequire(import.meta.url);
const CODE = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,4})?$/;

function dateFnsLocale(code: string): DateFnsLocale | null {
  // The default's, imported as a module is (a bundle of the generator holds it); others by name.
  if (code === 'en-GB') return enGB as DateFnsLocale;
  if (!CODE.test(code)) return null;
  try {
    // One locale's module, not the index of all of them (about 0.5 s to load).
    const module = require(`date-fns/locale/${code}`) as Record<string, DateFnsLocale>;
    return Object.values(module).find((l) => l?.code === code) ?? null;
  } catch {
    return null;
  }
}

const FIELDS: Readonly<Record<string, Extract<TitlePart, { field: string }>['field']>> = {
  EEEE: 'weekday',
  cccc: 'weekday',
  d: 'day',
  dd: 'day2',
  do: 'dayOrdinal',
  MMMM: 'month',
  LLLL: 'month',
  M: 'monthNumber',
  MM: 'monthNumber2',
  y: 'year',
  yyy: 'year',
  yyyy: 'year',
};

/** A date-fns pattern as title parts, or the token titles cannot write. */
function patternParts(pattern: string): TitlePart[] | Error {
  const parts: TitlePart[] = [];
  const literal = (text: string) => {
    const last = parts.at(-1);
    if (last !== undefined && 'literal' in last) last.literal += text;
    else parts.push({ literal: text });
  };
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i] as string;
    if (c === "'" && pattern[i + 1] === "'") {
      literal("'");
      i += 2;
    } else if (c === "'") {
      // Quoted text, up to the next lone quote; '' within it is a quote.
      let j = i + 1;
      let text = '';
      while (j < pattern.length && !(pattern[j] === "'" && pattern[j + 1] !== "'")) {
        text += pattern[j];
        j += pattern[j] === "'" ? 2 : 1;
      }
      literal(text);
      i = j + 1;
    } else if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (pattern[j] === c) j++;
      let token = pattern.slice(i, j);
      if (token === 'd' && pattern[j] === 'o') {
        token = 'do';
        j++;
      }
      const field = FIELDS[token];
      if (field === undefined)
        return new Error(`its date pattern ${JSON.stringify(pattern)} uses "${token}", which titles cannot write`);
      parts.push({ field });
      i = j;
    } else {
      literal(c);
      i++;
    }
  }
  return parts;
}

const formats = new Map<string, TitleFormat>();

/** The title format of a locale code, or why there is none. */
export function titleFormat(code: string): TitleFormat | Error {
  const kept = formats.get(code);
  if (kept !== undefined) return kept;
  const locale = dateFnsLocale(code === DEFAULT_LOCALE ? 'en-GB' : code);
  if (locale === null)
    return new Error(`${JSON.stringify(code)} is not a locale of date-fns (e.g. en, en-GB, fr, de, nl, es)`);
  const parts = patternParts(code === DEFAULT_LOCALE ? 'EEEE d MMMM y' : locale.formatLong.date({ width: 'full' }));
  if (parts instanceof Error) return new Error(`locale ${code}: ${parts.message}`);
  const wide = { width: 'wide', context: 'formatting' } as const;
  const format: TitleFormat = {
    weekdays: Array.from({ length: 7 }, (_, i) => locale.localize.day(i, wide)),
    months: Array.from({ length: 12 }, (_, i) => locale.localize.month(i, wide)),
    ordinals: Array.from({ length: 32 }, (_, d) => (d === 0 ? '' : locale.localize.ordinalNumber(d, { unit: 'date' }))),
    parts,
  };
  formats.set(code, format);
  return format;
}

const rulesOf = new WeakMap<SiteConfig, TitleRules>();

/** What entry titles depend on in a site's configuration (whose locale readSiteConfig checked). */
export function titleRules(config: SiteConfig): TitleRules {
  let rules = rulesOf.get(config);
  if (rules === undefined) {
    const format = titleFormat(config.locale);
    if (format instanceof Error) throw format;
    rules = { calendar: config.calendar, convention: config.titleConvention, periodStart: config.period.start, format };
    rulesOf.set(config, rules);
  }
  return rules;
}
