// npm run build: content/ → public/, atomically. Exit 1 with every problem on invalid content,
// or one line for a fault of the machine; exit 2 for a bad option or a refused --content or --out
// (see exit.ts, output/guard.ts). With --watch, stays running and rebuilds what changed after
// every edit (see watch/session.ts).

import { writeFileSync } from 'node:fs';
import type { BuildReport } from '../build.ts';
import { loadSiteConfig, placeholderOrigin } from '../content/config.ts';
import { printable } from '../content/problems.ts';
import type { SiteConfig } from '../core/model.ts';
import { outputCapWarnings } from '../deploy/file-caps.ts';
import { lockOutput } from '../output/lock.ts';
import { prepareOutput } from '../output/writer.ts';
import { stderrColours as c } from './colour.ts';
import { exitOnUncaught, exitWith, writeErrorSync } from './exit.ts';
import { importApart } from './import-apart.ts';
import {
  CONFIG_HELP,
  CONFIG_OPTIONS,
  configOverrides,
  fail,
  parseCommand,
  STANDARD_HELP,
  STANDARD_OPTIONS,
} from './options.ts';

const USAGE = `usage: npm run build -- [options]

${CONFIG_HELP}
  --watch                    stay running: rebuild what changed after every edit; the output
                             becomes a symlink to one of two trees, swapped atomically
  --full                     write a whole new tree, trusting nothing of the previous output
                             (by default a build over its own earlier output writes only the
                             files that change, and nothing when nothing did)
  --report <file.json>       also write the build's figures (phase times, CPU, peak memory)
  --target netlify           also write Netlify's edge function, with this build's site index,
                             into .netlify/v1/edge-functions/ (docs/netlify.md)
${STANDARD_HELP}
`;

const { values } = parseCommand('npm run build', USAGE, {
  options: {
    ...CONFIG_OPTIONS,
    ...STANDARD_OPTIONS,
    watch: { type: 'boolean', default: false },
    full: { type: 'boolean', default: false },
    report: { type: 'string' },
    target: { type: 'string' },
  },
});

if (values.target !== undefined && values.target !== 'netlify') fail(`--target must be netlify, not ${values.target}`);
if (values.target !== undefined && values.watch) fail('--target cannot be combined with --watch');
if (values.full === true && values.watch)
  fail('--full cannot be combined with --watch (which writes both trees whole)');
const contentDir = values.content as string;
const outDir = values.out as string;
const options = {
  contentDir,
  outDir,
  quiet: values.quiet === true,
  overrides: configOverrides(values),
  env: process.env,
};

/** The figures the benchmark reads: the build's own, and the process's CPU time and peak memory. */
function writeReport(file: string, report: BuildReport): void {
  const cpu = process.cpuUsage();
  const figures = {
    ...report,
    cpuMs: { user: cpu.user / 1000, system: cpu.system / 1000 },
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
}

/**
 * One line (but with --quiet) when every link would point at a placeholder or at this machine; on Netlify's build
 * (which deploys what it builds) a refusal instead.
 */
function warnOfPlaceholder(): void {
  let origin: string;
  let license: SiteConfig['license'];
  try {
    ({ apiOrigin: origin, license } = loadSiteConfig(contentDir, options.overrides, process.env));
  } catch {
    return; // The build says what is wrong with site.yaml.
  }
  // A published API should say what its readers may do with the data; it builds all the same.
  if (license === null && values.quiet !== true)
    process.stderr.write(
      `${c.bold(c.yellow('warning:'))} no licence is stated for the data: set license in ${contentDir}/site.yaml (an SPDX id such as CC0-1.0, or { name, url })\n`,
    );
  const why = placeholderOrigin(origin);
  if (why === null) return;
  const message = `every link will point at ${origin}, ${why}: set apiOrigin in ${contentDir}/site.yaml or pass --api-origin <origin>`;
  if (values.target === 'netlify' && process.env.NETLIFY === 'true')
    fail(`refusing to deploy: ${message} (Netlify sets URL for its builds: is it missing?)`);
  // --quiet silences it, like the progress: the error above is never silenced.
  if (values.quiet !== true) process.stderr.write(`${c.bold(c.yellow('warning:'))} ${message}\n`);
}

// Until the new output is in place, a failure leaves the old one as it was, and says so.
const failure: { kept?: string } = { kept: outDir };
exitOnUncaught(failure);
// A build stopped by a signal (Ctrl-C, a CI's timeout) ends as a failed one: the output as it
// was, the lock released (by the exit, which a signal's default action skips, leaving a lock
// whose pid may later be another process's), status 128 + the signal's number. The watch mode
// has its own.
if (!values.watch) {
  for (const [signal, number] of [
    ['SIGINT', 2],
    ['SIGTERM', 15],
  ] as const) {
    process.on(signal, () => {
      const kept = failure.kept === undefined ? '' : `; ${failure.kept} was left as it was`;
      writeErrorSync(printable(`error: stopped by ${signal}${kept}\n`));
      process.exit(128 + number);
    });
  }
}
try {
  // Refused paths first, before the build's modules load: a wrong --out is told at once.
  prepareOutput(contentDir, outDir);
  // One writer at a time: a running server's or another build's output is refused, naming it.
  lockOutput(outDir, values.watch ? 'npm run build -- --watch' : 'npm run build');
  warnOfPlaceholder();
  if (values.watch) {
    // Loaded only here: a one-shot build does not pay for the watch mode's modules.
    const { describeRebuild, startWatching } = await importApart<typeof import('../watch/watch.ts')>(
      '../watch/watch.ts',
      import.meta.url,
    );
    const watcher = await startWatching({
      ...options,
      onRebuild: (report, paths) => {
        const line = describeRebuild(report, paths, contentDir, outDir);
        (report.ok ? process.stdout : process.stderr).write(`[${new Date().toLocaleTimeString()}] ${line}\n`);
      },
    });
    delete failure.kept;
    process.stdout.write(`built ${outDir} (-> ${watcher.session.liveSlot}); watching ${contentDir} (Ctrl-C to stop)\n`);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        watcher.close();
        process.exit(0);
      });
    }
  } else {
    // Nothing to do is found out without loading the build (unchanged.ts).
    const [{ checkUnchanged }, { createProgress }] = await Promise.all([
      import('../unchanged.ts'),
      import('./progress.ts'),
    ]);
    const progress = createProgress(options.quiet);
    const unchanged = values.full === true ? null : checkUnchanged(options, (line) => progress.done(line));
    const report =
      unchanged ??
      (await (
        await importApart<typeof import('../build.ts')>('../build.ts', import.meta.url)
      ).build({
        ...options,
        checked: values.full !== true,
        full: values.full === true,
        progress: createProgress(options.quiet),
      }));
    delete failure.kept;
    // A deploy refused for its number of files is told now, not at the deploy (deploy/file-caps.ts).
    if (!options.quiet)
      for (const line of outputCapWarnings(outDir)) process.stderr.write(`${c.bold(c.yellow('warning:'))} ${line}\n`);
    if (values.target === 'netlify')
      (
        await importApart<typeof import('../deploy/netlify/generate.ts')>(
          '../deploy/netlify/generate.ts',
          import.meta.url,
        )
      ).netlifyTarget(outDir, { quiet: options.quiet });
    if (values.report !== undefined) writeReport(values.report, report);
  }
} catch (err) {
  exitWith(err, failure);
}
