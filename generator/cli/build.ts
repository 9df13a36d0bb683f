// npm run build: content/ → public/, atomically. Exit 1 with every problem on invalid content.
// With --watch, stays running and rebuilds what changed after every edit (see build/session.ts).

import { writeFileSync } from 'node:fs';
import { build, type BuildReport } from '../build.ts';
import { ContentError } from '../content/problems.ts';
import { CONFIG_HELP, CONFIG_OPTIONS, configOverrides, fail, parseOrExit } from './options.ts';

const { values } = parseOrExit({
  options: {
    ...CONFIG_OPTIONS,
    watch: { type: 'boolean', default: false },
    workers: { type: 'string', default: 'auto' },
    report: { type: 'string' },
  },
});
if (values.help) {
  process.stdout.write(`usage: npm run build -- [options]

${CONFIG_HELP}
  --watch                    stay running: rebuild what changed after every edit; the output
                             becomes a symlink to one of two trees, swapped atomically
  --workers <n|auto>         threads that parse content besides the main one (default: auto,
                             one per 20,000 content files, at most one fewer than the cores)
  --report <file.json>       also write the build's figures (phase times, CPU, peak memory)
`);
  process.exit(0);
}

const workersOption: number | 'auto' = values.workers === 'auto' ? 'auto' : Number(values.workers);
if (workersOption !== 'auto' && (!Number.isSafeInteger(workersOption) || workersOption < 0)) {
  fail(`--workers must be auto or a whole number, 0 or more, not ${values.workers}`);
}
const contentDir = values.content as string;
const outDir = values.out as string;
const options = {
  contentDir,
  outDir,
  quiet: values.quiet === true,
  workers: workersOption,
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

try {
  if (values.watch) {
    // Loaded only here: a one-shot build does not pay for the watch mode's modules.
    const { describeRebuild, startWatching } = await import('../watch/watch.ts');
    const watcher = await startWatching({
      ...options,
      onRebuild: (report, paths) => {
        const line = describeRebuild(report, paths, contentDir, outDir);
        (report.ok ? process.stdout : process.stderr).write(`[${new Date().toLocaleTimeString()}] ${line}\n`);
      },
    });
    process.stdout.write(`built ${outDir} (-> ${watcher.session.liveSlot}); watching ${contentDir} (Ctrl-C to stop)\n`);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        watcher.close();
        process.exit(0);
      });
    }
  } else {
    const report = await build(options);
    if (values.report !== undefined) writeReport(values.report, report);
  }
} catch (err) {
  if (err instanceof ContentError) {
    process.stderr.write(`\nerror: ${err.message}\nThe build stopped; ${outDir} was left as it was.\n`);
    process.exit(1);
  }
  throw err;
}
