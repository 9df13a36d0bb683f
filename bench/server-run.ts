// Runs the local server's load scenarios (server.ts) in a process of their own and prints the
// figures as JSON: the benchmark's own heap and garbage would otherwise slow the load generator.
//   node generator/cli/node-ts.mjs bench/server-run.ts <built output dir> <entry date> <connections> <seconds>

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSite, queryString, rangeQueries, rangeQueryStream } from './range.ts';
import { serverLoad } from './server.ts';

const [outDir, date, connections, seconds] = process.argv.slice(2);
if (outDir === undefined || date === undefined || connections === undefined || seconds === undefined) {
  process.stderr.write('usage: server-run.ts <built output dir> <entry date> <connections> <seconds>\n');
  process.exit(2);
}
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const site = loadSite(outDir);
const path = (q: Parameters<typeof queryString>[0]) => `/api/v1/entries${queryString(q)}`;
const kept = rangeQueries(site.entryDates, site.pageSize, 200).map(path);
// Another seed than the kept ones': none of these was asked before.
const fresh = rangeQueryStream(site.entryDates, site.pageSize, 67890);
const result = await serverLoad(repo, outDir, `/api/v1/entries/${date}`, kept, () => path(fresh()), {
  connections: Number(connections),
  durationSeconds: Number(seconds),
});
process.stdout.write(`${JSON.stringify(result)}\n`);
