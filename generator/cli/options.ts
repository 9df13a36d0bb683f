// Command-line options shared by the tools: the build's configuration flags, and how every
// command reads its line (`-h`/`--help` and `--version` on all of them; a usage error is one line
// and exit 2).

import { existsSync, readFileSync } from 'node:fs';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { ConfigOverrides } from '../content/config.ts';
import { parseConvention, parseOrigin, readSiteConfig } from '../content/config.ts';
import { titleFormat } from '../content/locale.ts';
import { CALENDARS, type CalendarName } from '../core/calendar.ts';
import { type Period, periodProblem } from '../core/period.ts';
import { CommandEnd, fail, refuse } from './exit.ts';

export const CONFIG_OPTIONS = {
  content: { type: 'string', default: 'content' },
  out: { type: 'string', default: 'public' },
  'api-origin': { type: 'string' },
  'site-origin': { type: 'string' },
  'page-size': { type: 'string' },
  'title-convention': { type: 'string' },
  calendar: { type: 'string' },
  locale: { type: 'string' },
  period: { type: 'string' },
  quiet: { type: 'boolean', default: false },
} as const;

export const CONFIG_HELP = `  --content <dir>            content directory (default: content)
  --out <dir>                output directory (default: public)
  --api-origin <origin>      origin of every apiURL (default: site.yaml, or $URL on Netlify)
  --site-origin <origin>     origin of every webURL (default: site.yaml)
  --page-size <n>            records per list page (default: site.yaml, 50)
  --title-convention <name>  seed | every-year | single (default: site.yaml, seed)
  --calendar <name>          julian | gregorian | british: the entries' dates (default: site.yaml, julian)
  --locale <code>            entry titles' words: en or a date-fns locale (default: site.yaml, en)
  --period <start>..<end>    the diary's first and last day, YYYY-MM-DD (default: site.yaml)
  --quiet                    no progress output`;

// `fail` (print `error: …`, exit 2) lives with the rest of the tools' error handling in exit.ts.
export { fail };

export function configOverrides(values: Parameters<typeof readConfigOverrides>[0]): ConfigOverrides {
  try {
    return readConfigOverrides(values);
  } catch (err) {
    if (!(err instanceof CommandEnd)) throw err;
    fail(err.message, err.status);
  }
}

/**
 * configOverrides without the exit, for a command run in-process (build-command.ts): a bad value
 * is thrown as a CommandEnd (exit.ts).
 */
export function readConfigOverrides(values: {
  content?: string | undefined;
  'api-origin'?: string | undefined;
  'site-origin'?: string | undefined;
  'page-size'?: string | undefined;
  'title-convention'?: string | undefined;
  calendar?: string | undefined;
  locale?: string | undefined;
  period?: string | undefined;
}): ConfigOverrides {
  const o: ConfigOverrides = {};
  for (const [flag, key] of [
    ['api-origin', 'apiOrigin'],
    ['site-origin', 'siteOrigin'],
  ] as const) {
    const v = values[flag];
    if (v === undefined) continue;
    const origin = parseOrigin(v);
    if (origin instanceof Error) refuse(`--${flag}: ${origin.message}`);
    o[key] = origin;
  }
  if (values['page-size'] !== undefined) {
    const n = Number(values['page-size']);
    if (!Number.isSafeInteger(n) || n < 1)
      refuse(`--page-size must be a positive whole number, not ${values['page-size']}`);
    o.pageSize = n;
  }
  if (values.calendar !== undefined) {
    if (!CALENDARS.includes(values.calendar as CalendarName))
      refuse(`--calendar: one of ${CALENDARS.join(', ')}, not ${values.calendar}`);
    o.calendar = values.calendar as CalendarName;
  }
  if (values.locale !== undefined) {
    const format = titleFormat(values.locale);
    if (format instanceof Error) refuse(`--locale: ${format.message}`);
    o.locale = values.locale;
  }
  if (values.period !== undefined) {
    const m = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(values.period);
    if (m === null) refuse(`--period: <start>..<end>, two dates written YYYY-MM-DD, not ${values.period}`);
    o.period = { start: m[1] as string, end: m[2] as string };
    checkPeriod(values.content ?? CONFIG_OPTIONS.content.default, o.period, o.calendar);
  }
  if (values['title-convention'] !== undefined) {
    const c = parseConvention(values['title-convention']);
    if (c instanceof Error) refuse(`--title-convention: ${c.message}`);
    o.titleConvention = c;
  }
  return o;
}

/**
 * A usage error for a --period that site.yaml's `period` could not be (core/period.ts
 * periodProblem): a day the calendar lacks, or a start after the end. The calendar is --calendar's,
 * else site.yaml's; a site.yaml with problems of its own is left to the build, which names them all.
 */
function checkPeriod(contentDir: string, period: Period, calendar: CalendarName | undefined): void {
  let inForce = calendar;
  if (inForce === undefined) {
    const site = readSiteConfig(contentDir, {}, {});
    if (site.problems.length > 0) return;
    inForce = site.config.calendar;
  }
  const wrong = periodProblem(inForce, period.start, period.end);
  if (wrong !== null) refuse(`--period: ${wrong}`);
}

/** What `--version` prints: the package and the Node that runs it. */
export function versionLine(): string {
  // generator/cli/ in a checkout, dist/generator/cli/ in the package's build.
  const file = ['../../package.json', '../../../package.json']
    .map((path) => new URL(path, import.meta.url))
    .find((url) => existsSync(url)) as URL;
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string };
  return `${pkg.name} ${pkg.version} (Node ${process.version})`;
}

/** The options every command has. */
export const STANDARD_OPTIONS = {
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', default: false },
} as const;

export const STANDARD_HELP = `  -h, --help                 this help
  --version                  the version, and Node's`;

/**
 * Reads a command's line (its options include STANDARD_OPTIONS): `--help` prints `usage` and
 * `--version` the version line, each then exits 0; anything it cannot read is one line naming it
 * and how to get help, exit 2.
 */
export function parseCommand<T extends ParseArgsConfig>(
  invocation: string,
  usage: string,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  try {
    return readCommand(invocation, usage, config, process.env);
  } catch (err) {
    if (!(err instanceof CommandEnd)) throw err;
    if (err.stdout !== '') process.stdout.write(err.stdout);
    if (err.status === 0) process.exit(0);
    fail(err.message, err.status);
  }
}

/**
 * parseCommand without ending the process, for a command run in-process (init-command.ts): its
 * end (help, version, a usage error) is thrown as a CommandEnd. `config.args` is the line (by
 * default the process's); `env`, where PEPYS_API_COMMAND is read.
 */
export function readCommand<T extends ParseArgsConfig>(
  invocation: string,
  usage: string,
  config: T,
  env: Readonly<Record<string, string | undefined>>,
): ReturnType<typeof parseArgs<T>> {
  // Run as the package's command (bin/pepys-api.mjs says which): its words, not npm's.
  const asBin = env.PEPYS_API_COMMAND;
  if (asBin !== undefined && asBin !== '' && invocation.startsWith('npm ')) {
    invocation = asBin;
    usage = usage.replace(/^usage: npm (?:start|run [\w:-]+) --/, `usage: ${asBin}`);
  }
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (err) {
    refuse(
      `${((err as Error).message.split('\n')[0] ?? '').split('. ')[0]?.replace(/\.$/, '')} (${invocation}${invocation.startsWith('npm ') ? ' --' : ''} --help)`,
    );
  }
  const values = parsed.values as { help?: boolean; version?: boolean };
  if (values.help === true) throw new CommandEnd(0, '', usage.endsWith('\n') ? usage : `${usage}\n`);
  if (values.version === true) throw new CommandEnd(0, '', `${versionLine()}\n`);
  return parsed;
}

/** A flag's value as a whole number from `min`, or a usage error naming the flag. */
export function wholeNumber(flag: string, value: string, min = 1): number {
  const n = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min)
    fail(`--${flag} must be a whole number from ${min}, not ${JSON.stringify(value)}`);
  return n;
}
