// npm start: listen first, then build content/ for the origin actually served (unless --no-build),
// then answer. Listening first is what lets `--port 0` (the system picks a port) and
// `--host 0.0.0.0` (every address) link every body to an origin a client can use.
//
// The port is bound by a small gate that holds each connection, paused, until the site is built,
// then hands it to the API server (http.Server takes sockets from elsewhere through its
// 'connection' event): a request made during the build waits for it instead of getting the
// previous build's bytes or a 503.
//
// A server owns what it serves. Building, it writes a directory of its own (.cache/mirrors/<its
// origin>/, unless --out says otherwise) and holds that directory's lock while it runs, so no
// other command can rewrite it (output/lock.ts). With --no-build it serves a frozen snapshot of
// the directory as it was at start (output/snapshot.ts), or, with --watch too, follows it.

import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer as createGate, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { SITE_INDEX_FILE } from '../core/files.ts';
import { endIdleThreadsAtOnce } from '../output/kept-threads.ts';
import { lockOutput } from '../output/lock.ts';
import { snapshotOutput } from '../output/snapshot.ts';
import { prepareOutput } from '../output/writer.ts';
import { isDirectory } from '../paths.ts';
import { type ApiServer, createApiServer } from '../server/server.ts';
import { exitOnUncaught, exitWith } from './exit.ts';
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
import { stopOnSignals } from './stop-watching.ts';
import { timeStamper } from './time-stamp.ts';

const USAGE = `usage: npm start -- [options]

  --port <n>                 port to listen on (default: 8888, or $PORT; 0: any free port)
  --host <address>           address to listen on (default: 127.0.0.1; 0.0.0.0 or ::: every
                             address, and bodies link to this machine's first network address)
  --no-build                 serve the output directory (--out, default public) as it is now:
                             what another command writes there later is not served
  --watch                    rebuild what changed after every edit while serving; with
                             --no-build, follow what another command writes to --out
${CONFIG_HELP.replace(
  /--out <dir> {16}output directory \(default: public\)/,
  '--out <dir>                output directory (default: its own, .cache/mirrors/<origin>/)',
)}
${STANDARD_HELP}
`;

const { values } = parseCommand('npm start', USAGE, {
  options: {
    ...CONFIG_OPTIONS,
    ...STANDARD_OPTIONS,
    // No default: a building server's own directory depends on the origin it serves.
    out: { type: 'string' },
    port: { type: 'string', default: process.env.PORT ?? '8888' },
    host: { type: 'string', default: '127.0.0.1' },
    'no-build': { type: 'boolean', default: false },
    watch: { type: 'boolean', default: false },
  },
});

if (!/^\d+$/.test(values.port ?? '') || Number(values.port) > 65535)
  fail(`--port must be a port number (0 to 65535), not ${values.port}`);
const port = Number(values.port);
const host = values.host as string;
if (host === '') fail('--host must not be empty');
const contentDir = values.content as string;
const overrides = configOverrides(values);
const building = !values['no-build'];
if (values.out === '') fail('--out must not be empty');
/** Where the server's site is; for a building server without --out, known once it listens. */
let outDir = values.out ?? (building ? '' : 'public');

const failure: { kept?: string } = {};
exitOnUncaught(failure);

/** The directory a building server makes its own when no --out is given: one per origin. */
function mirrorDir(origin: string): string {
  return join('.cache', 'mirrors', origin.replace(/^[a-z]+:\/\//, '').replace(/[^A-Za-z0-9.-]+/g, '-'));
}

/** True for an address that means "every address of this machine". */
function isWildcard(address: string): boolean {
  return address === '0.0.0.0' || (address.includes(':') && /^[:0]+$/.test(address));
}

/**
 * The host a client can reach the server at: the address listened on, or for a wildcard the
 * first non-internal IPv4 address of this machine (127.0.0.1 when it has none).
 */
function reachableHost(address: string): string {
  if (isWildcard(address)) {
    for (const list of Object.values(networkInterfaces())) {
      for (const a of list ?? []) {
        if ((a.family === 'IPv4' || (a.family as unknown) === 4) && !a.internal) return a.address;
      }
    }
    return '127.0.0.1';
  }
  return address.includes(':') ? `[${address}]` : address;
}

// An output given on the command line is checked before anything listens.
if (building && values.out !== undefined) {
  try {
    prepareOutput(contentDir, outDir);
    lockOutput(outDir, 'npm start');
  } catch (err) {
    exitWith(err);
  }
}
if (!building) {
  try {
    if (!isDirectory(outDir)) fail(`${outDir} is not a directory: build it first (npm run build -- --out ${outDir})`);
    // Without --watch, what another command writes there later is not served: a snapshot.
    if (values.watch !== true) outDir = snapshotOutput(outDir).dir;
  } catch (err) {
    exitWith(err);
  }
}

let api: ApiServer | null = null;
const held: Socket[] = [];
let open = false;
const hand = (socket: Socket): void => {
  api?.emit('connection', socket);
  socket.resume();
};
const gate = createGate({ pauseOnConnect: true }, (socket) => {
  if (open) hand(socket);
  else held.push(socket);
});
await new Promise<void>((resolve) => {
  gate.once('error', (err) => exitWith(err));
  gate.listen(port, host, resolve);
});
const actualPort = (gate.address() as AddressInfo).port;
const served = `http://${reachableHost(host)}:${actualPort}`;
const apiOrigin = overrides.apiOrigin ?? served;
if (building && values.out === undefined) {
  outDir = mirrorDir(apiOrigin === served ? served : `${apiOrigin} via ${actualPort}`);
  try {
    prepareOutput(contentDir, outDir);
    lockOutput(outDir, `npm start (${served})`);
  } catch (err) {
    for (const socket of held.splice(0)) socket.destroy();
    exitWith(err);
  }
}
if (building) failure.kept = outDir;
api = createApiServer({ publicDir: outDir });
// The API server never listens itself: it starts its connection bookkeeping (request timeouts,
// closeAllConnections) on 'listening', so it is told here that the gate listens for it.
api.emit('listening');

/** Stops taking requests: every connection is closed, and the port. */
const stopServing = (): void => {
  gate.close();
  for (const socket of held.splice(0)) socket.destroy();
  api?.closeAllConnections();
};
// What a signal waits for once the server stops taking requests, before the process ends:
// nothing, or in a building watch the last edit's downloads and the build's record.
let finish = async (): Promise<void> => {};
stopOnSignals(
  () => finish(),
  (line) => process.stdout.write(line),
  stopServing,
);

if (building) {
  if (values.quiet !== true)
    process.stderr.write(`listening on ${served}; building ${contentDir} for ${apiOrigin} (requests wait for it)\n`);
  // A mirror links to itself: every URL in its bodies points at the origin it is served from.
  const siteOverrides = { ...overrides, apiOrigin };
  try {
    if (values.watch) {
      // The server follows each rebuild: it reloads the site index whenever a swap replaces it.
      const { describeRebuild, startWatching } = await importApart<typeof import('../watch/watch.ts')>(
        '../watch/watch.ts',
        import.meta.url,
      );
      const stamp = timeStamper();
      const watcher = await startWatching({
        contentDir,
        outDir,
        overrides: siteOverrides,
        env: {},
        // The server answers from each new tree at once, even the requests of the same turn.
        onLive: () => api?.outputReplaced(),
        onRebuild: (report, paths) => {
          const line = describeRebuild(report, paths, contentDir, outDir);
          (report.ok ? process.stdout : process.stderr).write(stamp(line));
        },
      });
      finish = () => watcher.close({ finish: true });
    } else {
      // Loaded only here (after the port is bound), like the watch mode: the renderers bring the
      // downloads' SQLite engine, tens of milliseconds to start, which --no-build never needs.
      const [{ build }, { createProgress }] = await Promise.all([
        importApart<typeof import('../build.ts')>('../build.ts', import.meta.url),
        import('./progress.ts'),
      ]);
      const quiet = values.quiet === true;
      // Built once: the build's threads end with their job (kept-threads.ts).
      endIdleThreadsAtOnce();
      await build({ contentDir, outDir, quiet, overrides: siteOverrides, env: {}, progress: createProgress(quiet) });
    }
  } catch (err) {
    for (const socket of held.splice(0)) socket.destroy();
    exitWith(err, failure);
  }
  delete failure.kept;
}

open = true;
for (const socket of held.splice(0)) if (!socket.destroyed) hand(socket);
const where = isWildcard(host)
  ? ` (listening on every address, ${host.includes(':') ? `[${host}]` : host}:${actualPort})`
  : '';
const links = !building
  ? `; bodies link to ${builtOrigin(outDir)} (the origin ${values.out ?? 'public'} was built for)${values.watch === true ? '' : ', as it was at start'}`
  : overrides.apiOrigin !== undefined || isWildcard(host)
    ? `; bodies link to ${apiOrigin}`
    : '';
process.stdout.write(
  `Serving ${building ? outDir : (values.out ?? 'public')} at ${served}/api/v1${where}${links} (Ctrl-C to stop)\n`,
);

/** The API origin a built directory links to (its site index says), or a phrase when unreadable. */
function builtOrigin(dir: string): string {
  try {
    const index = JSON.parse(readFileSync(join(dir, SITE_INDEX_FILE), 'utf8')) as { apiOrigin?: unknown };
    return typeof index.apiOrigin === 'string' ? index.apiOrigin : 'an unknown origin';
  } catch {
    return 'an unknown origin (it has no readable site index)';
  }
}
