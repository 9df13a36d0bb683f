// Runs the incremental rebuilds in a process of their own, as the watch mode runs: the
// benchmark's other scenarios (the load generator above all) leave garbage and JIT state that
// would otherwise be measured too. Prints the runs as JSON.
//   node generator/cli/node-ts.mjs bench/incremental-run.ts <content dir> <out dir> <rounds>

import { incrementalRebuilds } from './incremental.ts';

const [contentDir, outDir, rounds] = process.argv.slice(2);
if (contentDir === undefined || outDir === undefined || rounds === undefined) {
  process.stderr.write('usage: incremental-run.ts <content dir> <out dir> <rounds>\n');
  process.exit(2);
}
const runs = await incrementalRebuilds(contentDir, outDir, Number(rounds));
process.stdout.write(`${JSON.stringify(runs)}\n`);
