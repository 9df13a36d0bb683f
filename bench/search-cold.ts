// One cold search, for bench/search.ts: in a fresh process (a new V8 isolate, as an edge
// isolate's first request is), the CPU time of loading the site index and of answering one search
// through handle(), the files of a built directory read into memory first. Prints one JSON line.
//
//   node --expose-gc generator/cli/node-ts.mjs bench/search-cold.ts <built dir> <path> <query> [<latency ms>]
//
// With a latency, files are read as an edge isolate reads them (through the keeper of
// generator/deploy/cloudflare/worker.ts), each through a round trip: the bytes come that many
// milliseconds after they are asked for (a model of the CDN's, not a measurement of it), and the
// line gives the answer's wall time and the files read, and their bytes.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ReadFile } from '../generator/core/answer-types.ts';
import { fileKeeper, ISOLATE_KEPT_BYTES } from '../generator/core/bounded-cache.ts';
import { SITE_INDEX_FILE } from '../generator/core/files.ts';
import { handle } from '../generator/core/handler.ts';
import { parseSiteIndex } from '../generator/core/site-index.ts';

const [dir, path, query, latency = '0'] = process.argv.slice(2) as [string, string, string, string?];
const indexText = readFileSync(join(dir, SITE_INDEX_FILE), 'utf8');
// Without a latency, the files are in memory before the clock starts (issue 34: a cold search's
// own work, the files already in memory): every file under _data/, the records and the index.
const inMemory = new Map<string, Uint8Array>();
const readNow = (file: string): Uint8Array | null => {
  const kept = inMemory.get(file);
  if (kept !== undefined) return kept;
  try {
    return readFileSync(join(dir, file));
  } catch {
    return null;
  }
};
if (Number(latency) === 0)
  for (const entry of readdirSync(join(dir, '_data'), { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const file = relative(dir, join(entry.parentPath ?? entry.path, entry.name));
      inMemory.set(file, readFileSync(join(dir, file)));
    }
const roundTrip = Number(latency);
let reads = 0;
let bytesRead = 0;
const readFile: ReadFile =
  roundTrip > 0
    ? fileKeeper(ISOLATE_KEPT_BYTES)((file) => {
        reads++;
        return new Promise((resolve) =>
          setTimeout(() => {
            const bytes = readNow(file);
            bytesRead += bytes?.length ?? 0;
            resolve(bytes);
          }, roundTrip),
        );
      })
    : readNow;
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
// The garbage of reading every file above is collected before the clock starts (with
// --expose-gc, which bench/search.ts gives): an isolate that fetches its files has none of it, and
// collected during the search it counted as the search's (plague: 50-52 ms of CPU, 37-40 ms without).
(globalThis as { gc?: () => void }).gc?.();
const start = process.cpuUsage();
const loaded = parseSiteIndex(indexText);
if (!loaded.ok) throw new Error(loaded.error);
const indexMs = cpuMs(process.cpuUsage(start));
const before = process.cpuUsage();
const began = performance.now();
const answer = await handle({ method: 'GET', path, query, header: () => null }, loaded.value, readFile);
const wallMs = performance.now() - began;
const searchMs = cpuMs(process.cpuUsage(before));
// The files an isolate reads besides the site index (which it reads once, before any answer).
const waited = roundTrip > 0 ? { wallMs, reads, bytesRead } : {};
process.stdout.write(`${JSON.stringify({ status: answer.status, indexMs, searchMs, ...waited })}\n`);
