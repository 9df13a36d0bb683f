// Figures of the Cloudflare target for a build (figures, not tests: docs/cloudflare.md quotes them):
//
//   npm run cloudflare:install
//   npx tsx tools/cloudflare/bench.ts --public <built dir> [--path '/api/v1/entries?search=plague']
//
// - the build's file count, against the per-version limits of static assets (20,000 on the free
//   plan, 100,000 on the paid ones);
// - the Worker as `wrangler deploy` would upload it (`wrangler deploy --dry-run --outdir`, run on a
//   copy of wrangler.jsonc pointing at the build: nothing is uploaded), against the size limits;
// - the site index: its size, and what loading it costs (the JSON parse and the checks of
//   parseSiteIndex), in Node, whose V8 is the engine workerd runs: the CPU an isolate's first
//   request pays on top of its answer, against the free plan's 10 ms of CPU per request;
// - in workerd itself, for one computed range: the first request of a fresh isolate (index read
//   and parsed, then the answer) against the same request once the index is loaded. Wall time on
//   this machine, an upper bound of the CPU time.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { SITE_INDEX_FILE } from '../../generator/core/files.ts';
import { parseSiteIndex } from '../../generator/core/site-index.ts';
import { configCopy, INSTALL, startWorkerd, wranglerInstalled } from './workerd.ts';

const fail = (message: string): never => {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
};

const { values } = parseArgs({
  options: {
    public: { type: 'string', default: 'public' },
    // The computed answer to time in workerd (e.g. a search: docs/search.md).
    path: { type: 'string', default: '/api/v1/entries?start=1661-03-04&end=1667-01-01&page=2' },
  },
});
const publicDir = resolve(values.public);
if (!wranglerInstalled()) fail(`wrangler is not installed: run ${INSTALL}`);
let indexText = '';
try {
  indexText = readFileSync(join(publicDir, SITE_INDEX_FILE), 'utf8');
} catch {
  fail(`${publicDir} holds no ${SITE_INDEX_FILE}: build it first (npm run build -- --out ${values.public})`);
}

const rows: Array<[string, string, string]> = [];
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const ms = (n: number) => `${n.toFixed(2)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

// Files, as wrangler counts assets: regular files, minus the ones it never uploads.
const NEVER_UPLOADED = new Set(['.assetsignore', '_redirects', '_headers']);
const files = readdirSync(publicDir, { recursive: true, withFileTypes: true }).filter(
  (d) => d.isFile() && !(d.parentPath === publicDir && NEVER_UPLOADED.has(d.name)),
).length;
rows.push([
  'static asset files',
  files.toLocaleString('en'),
  `${((files / 20_000) * 100).toFixed(0)}% of the free plan's 20,000; paid: 100,000`,
]);

// The Worker as deploy uploads it.
const dir = mkdtempSync(join(tmpdir(), 'pepys-cf-bench-'));
try {
  const config = await configCopy(dir, publicDir);
  const out = join(dir, 'out');
  const run = spawnSync(
    join(import.meta.dirname, 'node_modules', '.bin', 'wrangler'),
    ['deploy', '--dry-run', '--outdir', out, '--config', config],
    {
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) fail(`wrangler deploy --dry-run failed:\n${run.stdout}${run.stderr}`);
  const bundle = readFileSync(join(out, 'worker.js'));
  rows.push([
    'Worker bundle (deploy --dry-run)',
    `${kib(bundle.length)}, gzip ${kib(gzipSync(bundle).length)}`,
    'limit 3 MB gzip (free), 10 MB (paid)',
  ]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// Loading the index in V8 (Node): the first load, then the median of 30.
rows.push([
  'site index',
  kib(Buffer.byteLength(indexText)),
  `${(JSON.parse(indexText) as { entries: unknown[] }).entries.length} entries`,
]);
const load = () => {
  const t = performance.now();
  const r = parseSiteIndex(indexText);
  if (!r.ok) fail(`the site index is broken: ${r.error}`);
  return performance.now() - t;
};
const first = load();
const loads = Array.from({ length: 30 }, load);
rows.push([
  'index load in Node (JSON parse + checks)',
  `first ${ms(first)}, then median ${ms(median(loads))}`,
  'free plan: 10 ms CPU per request',
]);

// In workerd: a fresh isolate's first request, then the same request warm. CPU time is read from
// the kernel (the per-thread schedstat counters of the workerd processes, in nanoseconds): the
// user Worker, the static layer and wrangler's dev proxy in front, the latter the same for every
// request, so the first request's excess over a warm one is the index load.
function workerdCpuMs(): number {
  let ns = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid || !stat.includes('(workerd)')) continue;
      for (const task of readdirSync(`/proc/${pid}/task`))
        ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A process that ended meanwhile.
    }
  }
  return ns / 1e6;
}
const settle = () => new Promise((r) => setTimeout(r, 50));
const path = values.path;
const timed = async (origin: string) => {
  await settle();
  const [t, cpu] = [performance.now(), workerdCpuMs()];
  const res = await fetch(origin + path);
  await res.arrayBuffer();
  const wall = performance.now() - t;
  if (res.status !== 200) fail(`${path} answered ${res.status} in workerd`);
  await settle();
  return { wall, cpu: workerdCpuMs() - cpu };
};
const colds: Array<{ wall: number; cpu: number }> = [];
const warms: Array<{ wall: number; cpu: number }> = [];
for (let i = 0; i < 5; i++) {
  const workerd = await startWorkerd({ publicDir });
  try {
    // The static layer first (workerd's own routing and asset workers start cold too, and the
    // index file is read from disk once): what remains of the first API request is the Worker's.
    await (await fetch(`${workerd.origin}/${SITE_INDEX_FILE}`)).arrayBuffer();
    colds.push(await timed(workerd.origin));
    for (let j = 0; j < 10; j++) warms.push(await timed(workerd.origin));
  } finally {
    await workerd.stop();
  }
}
const cpuNote = process.platform === 'linux' ? '' : ' (CPU: Linux only)';
rows.push([
  `workerd, first request of an isolate`,
  `CPU ${ms(median(colds.map((c) => c.cpu)))}, wall ${ms(median(colds.map((c) => c.wall)))}`,
  `${path}; medians of 5 isolates${cpuNote}`,
]);
rows.push([
  `workerd, the same request warm`,
  `CPU ${ms(median(warms.map((c) => c.cpu)))}, wall ${ms(median(warms.map((c) => c.wall)))}`,
  `medians of 50 requests; dev proxy included`,
]);

const width = Math.max(...rows.map((r) => r[0].length));
const width2 = Math.max(...rows.map((r) => r[1].length));
process.stdout.write(`Cloudflare target, build ${publicDir}\n`);
for (const [what, value, note] of rows)
  process.stdout.write(`  ${what.padEnd(width)}  ${value.padEnd(width2)}  ${note}\n`);
