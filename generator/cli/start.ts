// npm start: listen first, then build content/ for the origin actually served (unless --no-build),
// then answer. Listening first is what lets `--port 0` (the system picks a port) and
// `--host 0.0.0.0` (every address) link every body to an origin a client can use.
//
// The port is bound by a small gate that holds each connection, paused, until the site is built,
// then hands it to the API server (http.Server takes sockets from elsewhere through its
// 'connection' event): a request made during the build waits for it instead of getting the
// previous build's bytes or a 503.

import type { Server } from 'node:http';
import { type AddressInfo, createServer as createGate, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { build } from '../build.ts';
import { prepareOutput } from '../output/writer.ts';
import { createApiServer } from '../server/server.ts';
import { exitOnUncaught, exitWith } from './exit.ts';
import {
  CONFIG_HELP,
  CONFIG_OPTIONS,
  configOverrides,
  fail,
  parseCommand,
  STANDARD_HELP,
  STANDARD_OPTIONS,
} from './options.ts';

const USAGE = `usage: npm start -- [options]

  --port <n>                 port to listen on (default: 8888, or $PORT; 0: any free port)
  --host <address>           address to listen on (default: 127.0.0.1; 0.0.0.0 or ::: every
                             address, and bodies link to this machine's first network address)
  --no-build                 serve the output directory as it is
  --watch                    rebuild what changed after every edit while serving
${CONFIG_HELP}
${STANDARD_HELP}
`;

const { values } = parseCommand('npm start', USAGE, {
  options: {
    ...CONFIG_OPTIONS,
    ...STANDARD_OPTIONS,
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
if (values['no-build'] && values.watch) fail('--no-build and --watch exclude each other');
const contentDir = values.content as string;
const outDir = values.out as string;
const overrides = configOverrides(values);
const building = !values['no-build'];

const failure: { kept?: string } = building ? { kept: outDir } : {};
exitOnUncaught(failure);

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

if (building) {
  try {
    prepareOutput(contentDir, outDir);
  } catch (err) {
    exitWith(err);
  }
}

const api: Server = createApiServer({ publicDir: outDir });
const held: Socket[] = [];
let open = false;
const hand = (socket: Socket): void => {
  api.emit('connection', socket);
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
// The API server never listens itself: it starts its connection bookkeeping (request timeouts,
// closeAllConnections) on 'listening', so it is told here that the gate listens for it.
api.emit('listening');
const actualPort = (gate.address() as AddressInfo).port;
const served = `http://${reachableHost(host)}:${actualPort}`;
const apiOrigin = overrides.apiOrigin ?? served;

let closeWatcher: (() => void) | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    closeWatcher?.();
    gate.close();
    for (const socket of held.splice(0)) socket.destroy();
    api.closeAllConnections();
    process.exit(0);
  });
}

if (building) {
  if (values.quiet !== true)
    process.stderr.write(`listening on ${served}; building ${contentDir} for ${apiOrigin} (requests wait for it)\n`);
  // A mirror links to itself: every URL in its bodies points at the origin it is served from.
  const siteOverrides = { ...overrides, apiOrigin };
  try {
    if (values.watch) {
      // The server follows each rebuild: it reloads the site index whenever a swap replaces it.
      const { describeRebuild, startWatching } = await import('../watch/watch.ts');
      const watcher = await startWatching({
        contentDir,
        outDir,
        overrides: siteOverrides,
        env: {},
        onRebuild: (report, paths) => {
          const line = describeRebuild(report, paths, contentDir, outDir);
          (report.ok ? process.stdout : process.stderr).write(`[${new Date().toLocaleTimeString()}] ${line}\n`);
        },
      });
      closeWatcher = () => watcher.close();
    } else {
      await build({ contentDir, outDir, quiet: values.quiet === true, overrides: siteOverrides, env: {} });
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
  ? `; bodies link to the origin ${outDir} was built for`
  : overrides.apiOrigin !== undefined || isWildcard(host)
    ? `; bodies link to ${apiOrigin}`
    : '';
process.stdout.write(`Serving ${outDir} at ${served}/api/v1${where}${links} (Ctrl-C to stop)\n`);
