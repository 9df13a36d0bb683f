// npm run verify -- <mirror-url>'s work (verify.ts is the command): proves that a mirror (a CDN
// deployment, a colleague's npm start) answers what the build says it should. Exit 0 when it
// does, 1 when any answer differs, 2 on a usage error or when the mirror cannot be reached. The
// work is done by generator/verify/; this prints, to an io (command-io.ts): the process's, or a
// test's in-process. Relative paths are the process's working directory's; the signals are the
// process's (verify.ts, through onStart).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseOrigin } from '../content/config.ts';
import type { Result } from '../core/result.ts';
import type { ExpectedSite } from '../verify/expected.ts';
import { formatDifferences, formatNotes, summaryLine } from '../verify/report.ts';
import { DEFAULT_CONCURRENCY, DEFAULT_SAMPLE, type VerifyProgress, verifyMirror } from '../verify/verify.ts';
import { type CommandIo, endCommand } from './command-io.ts';
import { CommandEnd, EXIT_USAGE, failureMessage, refuse } from './exit.ts';
import { importApart } from './import-apart.ts';
import { CONFIG_OPTIONS, readCommand, readConfigOverrides, STANDARD_HELP, STANDARD_OPTIONS } from './options.ts';

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

/**
 * Runs `npm run verify` with these arguments; resolves with its exit status. `onStart` is given,
 * before the work starts, what undoes it (the temporary build, the progress line) for a signal.
 */
export async function verifyCommand(
  args: readonly string[],
  io: CommandIo,
  onStart: (stop: () => void) => void = () => {},
): Promise<number> {
  if (resolve(io.cwd) !== process.cwd()) throw new Error("verifyCommand runs in the process's working directory");
  try {
    return await run(args, io, onStart);
  } catch (err) {
    return endCommand(err, io);
  }
}

/** The mirror's origin from what the user typed: an origin, or the API's root under it. */
function mirrorOrigin(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    refuse(`${JSON.stringify(text)} is not a URL: give the mirror's origin, e.g. https://mirror.example.org`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') refuse(`${JSON.stringify(text)} is not an http(s) URL`);
  if (!['/', '/api/v1', '/api/v1/'].includes(url.pathname) || url.search !== '' || url.hash !== '') {
    refuse(
      `${JSON.stringify(text)} has a path: give the mirror's origin, e.g. ${url.origin} (the API is under /api/v1 there)`,
    );
  }
  return url.origin;
}

function whole(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^[0-9]+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
    refuse(`--${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(text)}`);
  return n;
}

async function run(args: readonly string[], io: CommandIo, onStart: (stop: () => void) => void): Promise<number> {
  const { values, positionals } = readCommand(
    'npm run verify',
    USAGE,
    {
      args: [...args],
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
    },
    io.env,
  );

  if (positionals.length !== 1) {
    refuse(
      positionals.length === 0
        ? 'give the mirror to verify: npm run verify -- https://mirror.example.org (--help lists the options)'
        : `one mirror at a time, not ${positionals.length}: ${positionals.join(' ')}`,
    );
  }
  const mirror = mirrorOrigin(positionals[0] as string);
  if (values.content !== undefined && values.built !== undefined) refuse('give --content or --built, not both');
  if (values.built !== undefined) {
    for (const flag of ['site-origin', 'page-size', 'title-convention'] as const) {
      if (values[flag] !== undefined) refuse(`--${flag} applies to --content only: a built output has its own`);
    }
  }
  let apiOrigin = mirror;
  if (values['api-origin'] !== undefined) {
    const o = parseOrigin(values['api-origin']);
    if (o instanceof Error) refuse(`--api-origin: ${o.message}`);
    apiOrigin = o;
  }
  const concurrency = whole('concurrency', values.concurrency, 1, 256) ?? DEFAULT_CONCURRENCY;
  const sampleSize = whole('sample', values.sample, 0, 1_000_000) ?? DEFAULT_SAMPLE;
  const seed = whole('seed', values.seed, 0, 0xffffffff) ?? Math.floor(Math.random() * 1_000_000);
  const overrides = readConfigOverrides(values);
  const quiet = values.quiet === true;

  // Progress on stderr: one line rewritten in place on a terminal, a line every tenth in a log.
  const tty = io.stderrIsTTY;
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const say = (line: string) => {
    if (!quiet) io.stderr(tty ? `\r\x1b[K[${elapsed()}] ${line}` : `[${elapsed()}] ${line}\n`);
  };
  const endLine = () => {
    if (!quiet && tty) io.stderr('\r\x1b[K');
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
  onStart(() => {
    cleanUp();
    endLine();
  });

  try {
    // Loaded once the command line is read (import-apart.ts): the build and its renderers'
    // packages, which a usage error or --help never needs, take longer to load than those answer.
    const { expectedFromBuilt, expectedFromContent } = await importApart<typeof import('../verify/expected.ts')>(
      '../verify/expected.ts',
      import.meta.url,
    );
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
      refuse(loaded.error);
    }
    expected = loaded.value;
    say(`asking ${mirror}, ${concurrency} requests at a time`);
    const verified = await verifyMirror({ mirror, expected, seed, sample: sampleSize, concurrency, onProgress });
    cleanUp();
    endLine();
    if (!verified.ok) refuse(verified.error.message);
    const report = verified.value;
    const lines = [
      ...formatDifferences(report.differences, { limit: values.all ? Infinity : 20 }),
      ...formatNotes(report),
      summaryLine(report),
    ];
    io.stdout(`${lines.join('\n')}\n`);
    return report.differences.length === 0 ? 0 : EXIT_DIFFERENT;
  } catch (err) {
    // The expected answers refused, or the mirror unreachable: said as fail() says it, the
    // temporary build removed (rmSync and dispose remove a directory, once or again).
    if (err instanceof CommandEnd) {
      cleanUp();
      throw err;
    }
    cleanUp();
    endLine();
    // Whatever it was, the mirror could not be verified: a usage-class exit, never a stack trace.
    io.stderr(failureMessage(err).text);
    return EXIT_USAGE;
  }
}
