// npm run bench:rebuild: what a second `npm run build` costs on the whole diary with the
// full-scale encyclopedia (issue 18), measured as a user runs it (through npm, a new process each
// time), side by side in one run: a cold build into an empty directory, `cp -r` of its output
// (the floor), a rebuild with nothing changed, and rebuilds after one entry's text, one entry's
// title, one topic and one category changed (the watch mode benchmark's edits, bench/incremental.ts);
// and, when `hugo` is on the PATH, Hugo's build of the same records (bench/hugo.ts).
// Medians over interleaved rounds; each figure with the files written and the peak RSS. Never a
// test: figures only. See docs/performance.md, "Rebuilds".
//
//   npm run bench:rebuild -- [--runs N] [--corpus DIR] [--json FILE]

import { cpSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommand, STANDARD_HELP, STANDARD_OPTIONS, wholeNumber } from '../generator/cli/options.ts';
import { copyTree } from './cold.ts';
import { hugoVersion, writeHugoSite } from './hugo.ts';
import { editsFor } from './incremental.ts';
import { machineFacts, sampleLoad } from './machine.ts';
import { cleanedUp, flushDisk, median, mustRun, waitForSettledDisk } from './measure.ts';
import { type Figure, formatTable, judge } from './table.ts';
import { BENCH_HELP, benchOptions, benchPlace, prepareWorkload } from './workload.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: npm run bench:rebuild -- [--runs N] [--corpus DIR] [--json FILE]

Times npm run build on the whole diary: cold, cp -r of its output, a rebuild with nothing
changed, and rebuilds after one edit of each kind; prints one table.

  --runs <n>           rounds (default: 3)
${BENCH_HELP}
${STANDARD_HELP}
`;
const { values } = parseCommand('npm run bench:rebuild', USAGE, {
  options: {
    ...STANDARD_OPTIONS,
    runs: { type: 'string', default: '3' },
    ...benchOptions(repo),
  },
});
const runs = wholeNumber('runs', values.runs as string);
const { work, trash, log } = benchPlace(repo, values.corpus as string);

if (values['no-wait'] !== true) await waitForSettledDisk(work, log);

interface Run {
  wallMs: number;
  written: number;
  mode: string;
  maxRssMB: number;
}

const workload = await prepareWorkload(repo, values.corpus as string, work, 1, trash);
// The edits change the content: a copy of the workload, made once a run.
const scratch = join(work, 'rebuild');
trash.put(scratch);
mkdirSync(scratch, { recursive: true });
const content = join(scratch, 'content');
cpSync(workload.contentDir, content, { recursive: true });
const out = join(scratch, 'site', 'public');
const report = join(scratch, 'report.json');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

async function npmBuild(): Promise<Run> {
  flushDisk();
  const args = ['run', '-s', 'build', '--', '--content', content, '--out', out, '--quiet', '--report', report];
  const r = await mustRun(npm, args, { cwd: repo });
  const figures = JSON.parse(readFileSync(report, 'utf8')) as { written: number; mode: string; maxRssBytes: number };
  return { wallMs: r.wallMs, written: figures.written, mode: figures.mode, maxRssMB: figures.maxRssBytes / 1e6 };
}

// Hugo's project of the same records, converted once (bench/hugo.ts); built cold in each round.
const hugo = hugoVersion();
const hugoSite = join(scratch, 'hugo-site');
if (hugo !== null) {
  log(`converting the records for ${hugo} …`);
  await writeHugoSite(content, hugoSite);
}
const hugoRuns: number[] = [];
async function hugoBuild(): Promise<number> {
  const dest = join(scratch, 'hugo-public');
  trash.put(dest);
  flushDisk();
  return (await mustRun('hugo', ['--quiet', '--source', hugoSite, '--destination', dest])).wallMs;
}

const edits = editsFor(content);
const kinds = ['cold', 'unchanged', ...edits.map((e) => e.kind)] as const;
const results = new Map<string, Run[]>(kinds.map((k) => [k, []]));
const copies: number[] = [];
const load = sampleLoad();
for (let round = 1; round <= runs; round++) {
  log(`round ${round} of ${runs} …`);
  // Cold: no output and no generation beside it.
  for (const name of ['public', '.public-gen-a', '.public-gen-b']) trash.put(join(dirname(out), name));
  (results.get('cold') as Run[]).push(await npmBuild());
  copies.push(await copyTree(realpathSync(out), join(scratch, 'copy'), trash));
  if (hugo !== null) hugoRuns.push(await hugoBuild());
  // The first rebuild after a cold build links the other generation (once); the figures are of
  // the rebuilds after it, as an archivist editing and building again meets them.
  await npmBuild();
  (results.get('unchanged') as Run[]).push(await npmBuild());
  for (const edit of edits) {
    const path = join(content, edit.file);
    writeFileSync(path, edit.apply(readFileSync(path, 'utf8'), round));
    (results.get(edit.kind) as Run[]).push(await npmBuild());
  }
}
const loadSeen = load.stop();

const med = (k: string, f: (r: Run) => number) => median((results.get(k) as Run[]).map(f));
const copyMs = median(copies);
const labels: Record<string, string> = {
  cold: 'cold build, empty directory (npm run build)',
  unchanged: 'rebuild, nothing changed',
  entry: "rebuild after one entry's text",
  entryTitle: "rebuild after one entry's title",
  topic: 'rebuild after one topic',
  category: 'rebuild after one category',
};
const hugoMs = median(hugoRuns);
const coldMs = med('cold', (r) => r.wallMs);
const figures: Figure[] = [
  { key: 'copy', label: 'cp -r of the output (floor)', value: copyMs, unit: 'ms' },
  ...(hugo === null
    ? []
    : [
        { key: 'hugo', label: 'Hugo, the same records, cold', value: hugoMs, unit: 'ms' },
        {
          key: 'cold-hugo',
          label: 'cold build / Hugo',
          value: med('cold', (r) => r.wallMs) / hugoMs,
          unit: '×',
          target: 0.5,
          targetText: '≤ 0.5× Hugo',
          reason: 'the build also makes the search index and the downloads (SQLite, gzip), which Hugo does not',
        } satisfies Figure,
      ]),
  ...kinds.map(
    (k): Figure => ({
      key: k,
      label: labels[k] as string,
      value: med(k, (r) => r.wallMs),
      unit: 'ms',
      // Issue 34's targets are ratios measured in one run: a rebuild against the cold build.
      against: k === 'cold' ? { name: 'cp -r', value: copyMs } : { name: 'cold', value: coldMs },
      ...(k === 'cold' || k === 'unchanged'
        ? {}
        : {
            target: 0.35 * coldMs,
            targetText: '≤ 0.35× cold',
            reason:
              k === 'category'
                ? 'a category edit renders the whole site, and every rebuild makes the downloads whole (SQLite, gzip)'
                : 'reading and hashing every content file, and the downloads made whole (SQLite, gzip)',
          }),
    }),
  ),
  ...kinds.map(
    (k): Figure => ({
      key: `${k}-written`,
      label: `  files written: ${k}`,
      value: med(k, (r) => r.written),
      unit: 'files',
      ...(k === 'unchanged' ? { target: 0, targetText: '0' } : {}),
    }),
  ),
  ...kinds.map(
    (k): Figure => ({
      key: `${k}-rss`,
      label: `  peak RSS: ${k}`,
      value: Math.max(...(results.get(k) as Run[]).map((r) => r.maxRssMB)),
      unit: 'MB',
      target: 250,
      targetText: '≤ 250 MB',
      reason: "the whole model, and the downloads' database in sql.js's memory",
    }),
  ),
];
judge(figures);
const modes = kinds.map((k) => `${k}: ${[...new Set((results.get(k) as Run[]).map((r) => r.mode))].join('/')}`);
const loadLine = `min ${loadSeen.min}, mean ${loadSeen.mean}, max ${loadSeen.max} (${loadSeen.samples} samples)`;
process.stdout.write(`${formatTable(figures, machineFacts(repo), loadLine)}\n\nmodes: ${modes.join('; ')}\n`);
process.stdout.write(
  `${runs} rounds; whole diary with the full-scale encyclopedia: ${workload.files} content files; ` +
    `Hugo: ${hugo ?? 'not compared (no hugo on the PATH: apt-get install hugo)'}\n`,
);
if (values.json !== undefined)
  writeFileSync(
    values.json as string,
    `${JSON.stringify({ figures, runs: Object.fromEntries(results), copies, hugo: hugoRuns }, null, 2)}\n`,
  );
trash.put(scratch);
trash.empty();
cleanedUp(work);
