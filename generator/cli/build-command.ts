// `npm run build`'s work (build.ts is the command): content/ → public/, atomically. Exit 1 with
// every problem on invalid content, or one line for a fault of the machine; exit 2 for a bad
// option or a refused --content or --out (see exit.ts, output/guard.ts). With --watch, stays
// running and rebuilds what changed after every edit (see watch/session.ts). Run by build.ts
// over the process's own io, or in-process by the tests: it returns the exit status instead of
// exiting. Relative paths are the process's working directory's; --watch and the signals are
// the process's (build.ts).

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createColors } from 'picocolors';
import type { BuildReport } from '../build.ts';
import { type ConfigOverrides, loadSiteConfig, placeholderOrigin } from '../content/config.ts';
import { emptyContentRead } from '../content/discover.ts';
import { printable } from '../content/problems.ts';
import type { SiteConfig } from '../core/model.ts';
import { outputCapWarnings } from '../deploy/file-caps.ts';
import { lockOutput } from '../output/lock.ts';
import { prepareOutput } from '../output/writer.ts';
import { type CommandIo, colourOf, endCommand } from './command-io.ts';
import { CommandEnd, failureMessage, type ReportContext, refuse } from './exit.ts';
import { importApart } from './import-apart.ts';
import {
  CONFIG_HELP,
  CONFIG_OPTIONS,
  readCommand,
  readConfigOverrides,
  STANDARD_HELP,
  STANDARD_OPTIONS,
} from './options.ts';
import { stopOnSignals } from './stop-watching.ts';
import { timeStamper } from './time-stamp.ts';

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

/** What the command's process does once the line is read (build.ts: its handlers of faults and signals). */
export type OnStart = (failure: ReportContext, watch: boolean) => void;

/**
 * Runs `npm run build` with these arguments; resolves with its exit status (0 also once a --watch
 * is running). `onStart` is told, once the line is read, what a failure's message is to say was
 * left as it was (the object is kept up to date) and whether this is a --watch.
 */
export async function buildCommand(
  args: readonly string[],
  io: CommandIo,
  onStart: OnStart = () => {},
): Promise<number> {
  if (resolve(io.cwd) !== process.cwd()) throw new Error("buildCommand runs in the process's working directory");
  const failure: ReportContext = {};
  try {
    await run(args, io, failure, onStart);
    return 0;
  } catch (err) {
    if (err instanceof CommandEnd) return endCommand(err, io);
    const { text, status } = failureMessage(err, failure);
    const colour = createColors(colourOf(io));
    // Whatever the message quotes (a path, a key) is printed, never obeyed by the terminal.
    const plain = printable(text);
    const safe = plain.startsWith('error:')
      ? `${colour.bold(colour.red('error:'))}${plain.slice('error:'.length)}`
      : plain;
    // On a terminal the progress line may be half-written: clear it rather than append to it.
    io.stderr(io.stderrIsTTY ? `\r\x1b[K${safe}` : safe);
    return status;
  }
}

async function run(args: readonly string[], io: CommandIo, failure: ReportContext, onStart: OnStart): Promise<void> {
  const c = createColors(colourOf(io));
  const { values } = readCommand(
    'npm run build',
    USAGE,
    {
      args: [...args],
      options: {
        ...CONFIG_OPTIONS,
        ...STANDARD_OPTIONS,
        watch: { type: 'boolean', default: false },
        full: { type: 'boolean', default: false },
        report: { type: 'string' },
        target: { type: 'string' },
      },
    },
    io.env,
  );

  if (values.target !== undefined && values.target !== 'netlify')
    refuse(`--target must be netlify, not ${values.target}`);
  if (values.target !== undefined && values.watch) refuse('--target cannot be combined with --watch');
  if (values.full === true && values.watch)
    refuse('--full cannot be combined with --watch (which writes both trees whole)');
  const contentDir = values.content as string;
  const outDir = values.out as string;
  const options = {
    contentDir,
    outDir,
    quiet: values.quiet === true,
    overrides: readConfigOverrides(values),
    env: io.env,
  };
  const warn = (line: string) => io.stderr(`${c.bold(c.yellow('warning:'))} ${line}\n`);

  /**
   * One line (but with --quiet) when every link would point at a placeholder or at this machine;
   * on Netlify's build (which deploys what it builds) a refusal instead.
   */
  const warnOfPlaceholder = (): void => {
    let origin: string;
    let license: SiteConfig['license'];
    try {
      ({ apiOrigin: origin, license } = loadSiteConfig(contentDir, options.overrides, io.env));
    } catch {
      return; // The build says what is wrong with site.yaml.
    }
    // A published API should say what its readers may do with the data; it builds all the same.
    if (license === null && values.quiet !== true)
      warn(
        `no licence is stated for the data: set license in ${contentDir}/site.yaml (an SPDX id such as CC0-1.0, or { name, url })`,
      );
    const why = placeholderOrigin(origin);
    if (why === null) return;
    const message = `every link will point at ${origin}, ${why}: set apiOrigin in ${contentDir}/site.yaml or pass --api-origin <origin>`;
    if (values.target === 'netlify' && io.env.NETLIFY === 'true')
      refuse(`refusing to deploy: ${message} (Netlify sets URL for its builds: is it missing?)`);
    // --quiet silences it, like the progress: the error above is never silenced.
    if (values.quiet !== true) warn(message);
  };

  // Until the new output is in place, a failure leaves the old one as it was, and says so.
  failure.kept = outDir;
  onStart(failure, values.watch === true);
  // Refused paths first, before the build's modules load: a wrong --out is told at once.
  prepareOutput(contentDir, outDir);
  // One writer at a time: a running server's or another build's output is refused, naming it.
  const release = lockOutput(outDir, values.watch ? 'npm run build -- --watch' : 'npm run build');
  // The watch mode keeps it while it runs; the process's exit releases it too.
  let keep = false;
  try {
    warnOfPlaceholder();
    if (values.watch) {
      keep = true;
      await watch({ ...options, io, failure });
      return;
    }
    // Nothing to do is found out without loading the build (unchanged.ts).
    const [{ checkUnchanged }, { createProgress }] = await Promise.all([
      import('../unchanged.ts'),
      import('./progress.ts'),
    ]);
    const stream = io.stderrStream ?? { isTTY: false, write: io.stderr };
    const progress = createProgress(options.quiet, stream);
    const contentRead = emptyContentRead();
    const unchanged =
      values.full === true ? null : checkUnchanged(options, (line) => progress.done(line), undefined, contentRead);
    const report =
      unchanged ??
      (await (
        await importApart<typeof import('../build.ts')>('../build.ts', import.meta.url)
      ).build({
        ...options,
        checked: values.full !== true,
        contentRead,
        full: values.full === true,
        progress: createProgress(options.quiet, stream),
      }));
    delete failure.kept;
    // A deploy refused for its number of files is told now, not at the deploy (deploy/file-caps.ts).
    if (!options.quiet) for (const line of outputCapWarnings(outDir)) warn(line);
    if (values.target === 'netlify')
      (
        await importApart<typeof import('../deploy/netlify/generate.ts')>(
          '../deploy/netlify/generate.ts',
          import.meta.url,
        )
      ).netlifyTarget(outDir, { quiet: options.quiet });
    if (values.report !== undefined) writeReport(values.report, report);
  } finally {
    if (!keep) release();
  }
}

/** --watch: builds, then rebuilds what changed after every edit until a signal stops the process. */
async function watch(
  options: { contentDir: string; outDir: string; quiet: boolean; overrides: ConfigOverrides } & {
    env: CommandIo['env'];
    io: CommandIo;
    failure: ReportContext;
  },
): Promise<void> {
  const { io, failure, ...settings } = options;
  const { contentDir, outDir } = settings;
  // Loaded only here: a one-shot build does not pay for the watch mode's modules.
  const { describeRebuild, startWatching } = await importApart<typeof import('../watch/watch.ts')>(
    '../watch/watch.ts',
    import.meta.url,
  );
  const stamp = timeStamper();
  const watcher = await startWatching({
    ...settings,
    onRebuild: (report, paths) => {
      const line = describeRebuild(report, paths, contentDir, outDir);
      (report.ok ? io.stdout : io.stderr)(stamp(line));
    },
  });
  delete failure.kept;
  io.stdout(`built ${outDir} (-> ${watcher.session.liveSlot}); watching ${contentDir} (Ctrl-C to stop)\n`);
  stopOnSignals(() => watcher.close({ finish: true }), io.stdout);
}

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
