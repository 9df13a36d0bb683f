// One cold search, for bench/search.ts: in a fresh process (a new V8 isolate, as an edge
// isolate's first request is), the CPU time of loading the site index and of answering one search
// through handle(), the files read from a built directory. Prints one JSON line.
//
//   node generator/cli/node-ts.mjs bench/search-cold.ts <built dir> <path> <query>

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SITE_INDEX_FILE } from '../generator/core/files.ts';
import { handle, type ReadFile } from '../generator/core/handler.ts';
import { parseSiteIndex } from '../generator/core/site-index.ts';

const [dir, path, query] = process.argv.slice(2) as [string, string, string];
const indexText = readFileSync(join(dir, SITE_INDEX_FILE), 'utf8');
const readFile: ReadFile = (file) => {
  try {
    return readFileSync(join(dir, file));
  } catch {
    return null;
  }
};
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
const start = process.cpuUsage();
const loaded = parseSiteIndex(indexText);
if (!loaded.ok) throw new Error(loaded.error);
const indexMs = cpuMs(process.cpuUsage(start));
const before = process.cpuUsage();
const answer = await handle({ method: 'GET', path, query, header: () => null }, loaded.value, readFile);
const searchMs = cpuMs(process.cpuUsage(before));
process.stdout.write(`${JSON.stringify({ status: answer.status, indexMs, searchMs })}\n`);
