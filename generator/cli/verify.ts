// npm run verify -- <mirror-url>: proves that a mirror (a CDN deployment, a colleague's
// npm start) answers what the build says it should. Exit 0 when it does, 1 when any answer
// differs, 2 on a usage error or when the mirror cannot be reached. The work is done by
// generator/verify/; this prints.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseOrigin } from '../content/config.ts';
import type { Result } from '../core/result.ts';
import { type ExpectedSite, expectedFromBuilt, expectedFromContent } from '../verify/expected.ts';
import { formatDifferences, formatNotes, summaryLine } from '../verify/report.ts';
import { DEFAULT_CONCURRENCY, DEFAULT_SAMPLE, type VerifyProgress, verifyMirror } from '../verify/verify.ts';
import { EXIT_USAGE, fail, failureMessage } from './exit.ts';
import { CONFIG_OPTIONS, configOverrides, parseCommand, STANDARD_HELP, STANDARD_OPTIONS } from './options.ts';

const EXIT_DIFFERENT = 1;

const USAGE = `usage: npm run verify -- <mirror-url> [options]

Requests every URL of the site from the mirror, and a seeded sample of computed ranges and
errors, and compares each answer (status, body byte for byte, the contract's headers) with what
the build says it should be. Exit 0: the mirror is whole; 1: it differs; 2: usage error or the
mirror cannot be reached. See docs/verify.md.

  <mirror-url>               the mirror's origin, e.g. https://mirror.example.org
  --content <dir>            build the expected answers from this content (default: content)
  --built <dir>              or take them from this built output (npm run build's public/)
  --api-origin <origin>      origin the mirror's bodies link to (default: the mirror's own)
  --site-origin <origin>     \\
  --page-size <n>             } as the mirror was built with (with --content; default: site.yaml)
  --title-convention <name>  /
  --concurrency <n>          requests in flight at most (default: ${DEFAULT_CONCURRENCY})
  --sample <n>               size of each seeded sample: computed ranges, .json spellings
                             (default: ${DEFAULT_SAMPLE})
  --seed <n>                 seed of the sample (default: a new one, printed in the summary)
  --all                      list every difference (default: the first 20 of each group)
  --quiet                    no progress output
${STANDARD_HELP}
`;

const { values, positionals } = parseCommand('npm run verify', USAGE, {
  allowPositionals: true,
  options: {
    ...STANDARD_OPTIONS,
    content: { type: 'string' },
    built: { type: 'string' },
    'api-origin': { type: 'string' },
    'site-origin': CONFIG_OPTIONS['site-origin'],
    'page-size': CONFIG_OPTIONS['page-size'],
    'title-convention': CONFIG_OPTIONS['title-convention'],
    concurrency: { type: 'string' },
    sample: { type: 'string' },
    seed: { type: 'string' },
    all: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
});

/** The mirror's origin from what the user typed: an origin, or the API's root under it. */
function mirrorOrigin(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fail(`${JSON.stringify(text)} is not a URL: give the mirror's origin, e.g. https://mirror.example.org`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`${JSON.stringify(text)} is not an http(s) URL`);
  if (!['/', '/api/v1', '/api/v1/'].includes(url.pathname) || url.search !== '' || url.hash !== '') {
    fail(
      `${JSON.stringify(text)} has a path: give the mirror's origin, e.g. ${url.origin} (the API is under /api/v1 there)`,
    );
  }
  return url.origin;
}

function whole(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^[0-9]+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
    fail(`--${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(text)}`);
  return n;
}

if (positionals.length !== 1) {
  fail(
    positionals.length === 0
      ? 'give the mirror to verify: npm run verify -- https://mirror.example.org (--help lists the options)'
      : `one mirror at a time, not ${positionals.length}: ${positionals.join(' ')}`,
  );
}
const mirror = mirrorOrigin(positionals[0] as string);
if (values.content !== undefined && values.built !== undefined) fail('give --content or --built, not both');
if (values.built !== undefined) {
  for (const flag of ['site-origin', 'page-size', 'title-convention'] as const) {
    if (values[flag] !== undefined) fail(`--${flag} applies to --content only: a built output has its own`);
  }
}
let apiOrigin = mirror;
if (values['api-origin'] !== undefined) {
  const o = parseOrigin(values['api-origin']);
  if (o instanceof Error) fail(`--api-origin: ${o.message}`);
  apiOrigin = o;
}
const concurrency = whole('concurrency', values.concurrency, 1, 256) ?? DEFAULT_CONCURRENCY;
const sampleSize = whole('sample', values.sample, 0, 1_000_000) ?? DEFAULT_SAMPLE;
const seed = whole('seed', values.seed, 0, 0xffffffff) ?? Math.floor(Math.random() * 1_000_000);
const overrides = configOverrides(values);
const quiet = values.quiet === true;

// Progress on stderr: one line rewritten in place on a terminal, a line every tenth in a log.
const stream = process.stderr;
const tty = stream.isTTY === true;
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const say = (line: string) => {
  if (!quiet) stream.write(tty ? `\r\x1b[K[${elapsed()}] ${line}` : `[${elapsed()}] ${line}\n`);
};
const endLine = () => {
  if (!quiet && tty) stream.write('\r\x1b[K');
};
let lastDrawn = 0;
let lastTenth = -1;
const onProgress = (p: VerifyProgress) => {
  if (quiet) return;
  const line = `${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')} answers compared, ${p.differences.toLocaleString('en-US')} difference${p.differences === 1 ? '' : 's'}`;
  if (tty) {
    const now = performance.now();
    if (now - lastDrawn < 100 && p.done < p.total) return;
    lastDrawn = now;
    say(line);
  } else {
    const tenth = Math.floor((p.done * 10) / p.total);
    if (tenth === lastTenth) return;
    lastTenth = tenth;
    say(line);
  }
};

let expected: ExpectedSite | null = null;
// The temporary build is made here, so that a signal in the middle of it can remove it.
let workDir: string | null = null;
const cleanUp = () => {
  expected?.dispose();
  if (workDir !== null) rmSync(workDir, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    cleanUp();
    endLine();
    process.exit(130);
  });
}

try {
  let loaded: Result<ExpectedSite, string>;
  if (values.built !== undefined) {
    say(`reading ${values.built}`);
    loaded = expectedFromBuilt(values.built, apiOrigin);
  } else {
    const contentDir = values.content ?? 'content';
    say(`building ${contentDir} for ${apiOrigin}`);
    workDir = mkdtempSync(join(tmpdir(), 'pepys-verify-'));
    loaded = await expectedFromContent({ contentDir, overrides, workDir }, apiOrigin);
  }
  if (!loaded.ok) {
    endLine();
    fail(loaded.error);
  }
  expected = loaded.value;
  say(`asking ${mirror}, ${concurrency} requests at a time`);
  const verified = await verifyMirror({ mirror, expected, seed, sample: sampleSize, concurrency, onProgress });
  cleanUp();
  endLine();
  if (!verified.ok) fail(verified.error.message);
  const report = verified.value;
  const lines = [
    ...formatDifferences(report.differences, { limit: values.all ? Infinity : 20 }),
    ...formatNotes(report),
    summaryLine(report),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exitCode = report.differences.length === 0 ? 0 : EXIT_DIFFERENT;
} catch (err) {
  cleanUp();
  endLine();
  // Whatever it was, the mirror could not be verified: a usage-class exit, never a stack trace.
  process.stderr.write(failureMessage(err).text);
  process.exit(EXIT_USAGE);
}
