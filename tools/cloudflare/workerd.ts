// The Cloudflare Worker and its static assets served by workerd, Cloudflare's own runtime, on
// 127.0.0.1, for the tests (test/heavy/cloudflare-*.test.ts) and by hand:
//
//   npm run cloudflare:install
//   npx tsx tools/cloudflare/workerd.ts [--content content | --public public] [--port 8787]
//
// It runs the repository's wrangler.jsonc as `wrangler dev` would (wrangler's unstable_startWorker:
// the same esbuild bundling of the Worker as `wrangler deploy`, the same assets routing), with
// these changes only, made in a copy of the file in a temp directory (configCopy): `main` and
// `assets.directory` as absolute paths, the latter pointing at the build served, and no preflight
// (`build.command`, which guards deploys). wrangler writes its `.wrangler/` directory next to the
// configuration file, so nothing is written in the repository. A TCP relay in front gives the
// origin, so that the site can be built for it before workerd starts.
//
// Offline and out of the home directory: no metrics, no request for Cloudflare's `request.cf`
// data, wrangler's logs and settings in a temp directory (see loadWrangler).

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TOOLS_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_DIR = resolve(TOOLS_DIR, '..', '..');
const WRANGLER = join(TOOLS_DIR, 'node_modules', 'wrangler', 'wrangler-dist', 'cli.js');
/** The repository's configuration, the one `wrangler deploy` reads. */
const WRANGLER_CONFIG = join(REPO_DIR, 'wrangler.jsonc');
export const INSTALL = 'npm run cloudflare:install';
/** Run by wrangler before a deploy (wrangler.jsonc `build.command`). */
const PREFLIGHT = join(TOOLS_DIR, 'preflight.mjs');

/** True when `npm run cloudflare:install` has installed wrangler (and the workerd it brings). */
export function wranglerInstalled(): boolean {
  return existsSync(WRANGLER);
}

/** The part of wrangler's API used here (its types are not installed where the project type-checks). */
interface WranglerApi {
  experimental_readRawConfig(args: { config: string }): { rawConfig: Record<string, unknown> };
  unstable_startWorker(input: Record<string, unknown>): Promise<{ url: Promise<URL>; dispose(): Promise<void> }>;
}

export interface Workerd {
  /** Where workerd listens, e.g. http://127.0.0.1:41234. */
  origin: string;
  /** The build it serves. */
  publicDir: string;
  stop(): Promise<void>;
}

export interface WorkerdOptions {
  /** Serve this build as it is (its links point wherever it was built for). */
  publicDir?: string;
  /** Or build this content directory for workerd's own origin first. */
  contentDir?: string;
  /** Build settings (with contentDir); the API origin is always workerd's. */
  pageSize?: number;
  /**
   * With contentDir: build as a rebuild, first with another title, then as asked, so that the
   * assets directory is what a second build leaves, a symlink to a generation
   * (generator/output/rebuild.ts).
   */
  rebuilt?: boolean;
  /** Called with the build's directory before workerd starts (and reads it). */
  beforeStart?: (publicDir: string) => void;
  /** Port on 127.0.0.1 (default: a free one). */
  port?: number;
  /** The configuration to serve with (default: the repository's wrangler.jsonc). */
  config?: string;
  /** wrangler's log level (default: warn). */
  logLevel?: 'debug' | 'info' | 'log' | 'warn' | 'error' | 'none';
}

let loaded: Promise<WranglerApi> | null = null;

/**
 * wrangler, imported once per process, with its environment set first: it fixes the path of its
 * log file when it is imported and writes to it until the process ends (even after a worker is
 * disposed), so its settings and logs go to one temp directory for the whole process, removed
 * when the process exits. No usage metrics are sent, workerd does without the `request.cf` data
 * it would otherwise download from Cloudflare, and the CLI (bench.ts runs it) does not look for
 * updates.
 */
function loadWrangler(): Promise<WranglerApi> {
  loaded ??= (async () => {
    const home = mkdtempSync(join(tmpdir(), 'pepys-wrangler-'));
    process.once('exit', () => rmSync(home, { recursive: true, force: true }));
    Object.assign(process.env, {
      XDG_CONFIG_HOME: home,
      WRANGLER_SEND_METRICS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      // The banner is where the CLI asks the npm registry for a newer wrangler.
      WRANGLER_HIDE_BANNER: 'true',
    });
    return (await import(pathToFileURL(WRANGLER).href)) as WranglerApi;
  })();
  return loaded;
}

/**
 * Writes `dir`/wrangler.json: the repository's wrangler.jsonc with `main` and `assets.directory`
 * made absolute, the latter pointing at `publicDir`. wrangler puts its `.wrangler/` directory next
 * to the configuration it reads: with this copy, in `dir`, not in the repository. The preflight
 * (`build.command`, preflight.mjs) is kept, pointed at `publicDir`, when `preflight` is true;
 * otherwise left out (it guards deploys; the tests serve builds made for loopback on purpose).
 */
export async function configCopy(
  dir: string,
  publicDir: string,
  preflight = false,
  source = WRANGLER_CONFIG,
): Promise<string> {
  const wrangler = await loadWrangler();
  const { rawConfig } = wrangler.experimental_readRawConfig({ config: source });
  const { $schema: _schema, build: _build, ...config } = rawConfig;
  const main = resolve(dirname(source), rawConfig.main as string);
  const assets = { ...(rawConfig.assets as Record<string, unknown>), directory: resolve(publicDir) };
  const build = {
    command: `node ${JSON.stringify(PREFLIGHT)} ${JSON.stringify(resolve(publicDir))}`,
    watch_dir: PREFLIGHT,
  };
  const path = join(dir, 'wrangler.json');
  writeFileSync(path, JSON.stringify({ ...config, main, assets, ...(preflight ? { build } : {}) }, null, 2));
  return path;
}

/** Listens on 127.0.0.1 and passes every connection on, byte for byte, to the port `target()` gives. */
async function tcpRelay(port: number, target: () => number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server: Server = createServer((client) => {
    const upstream = connect(target(), '127.0.0.1');
    // Without this, Nagle's algorithm meets delayed ACKs: 40 ms on every small answer.
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    track(client);
    track(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.once('error', end).once('close', end);
    upstream.once('error', end).once('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolveListen, reject) =>
    server.once('error', reject).listen(port, '127.0.0.1', resolveListen),
  );
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    },
  };
}

/** Serves a build with the Worker in workerd. Always call `stop()`. */
export async function startWorkerd(options: WorkerdOptions): Promise<Workerd> {
  if (!wranglerInstalled()) throw new Error(`wrangler is not installed: run ${INSTALL}`);
  if ((options.publicDir === undefined) === (options.contentDir === undefined)) {
    throw new Error('startWorkerd: give publicDir or contentDir, not both');
  }
  const wrangler = await loadWrangler();
  const dir = mkdtempSync(join(tmpdir(), 'pepys-workerd-'));
  let worker: Awaited<ReturnType<WranglerApi['unstable_startWorker']>> | null = null;
  let relay: Awaited<ReturnType<typeof tcpRelay>> | null = null;
  // wrangler ends the process on Ctrl-C itself, before any handler of ours could stop it.
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeDir);
  const stop = async () => {
    await relay?.close();
    relay = null;
    await worker?.dispose();
    worker = null;
    process.off('exit', removeDir);
    removeDir();
  };

  try {
    // The site is built for the origin it is served from, so that origin must exist before the
    // build, and workerd reads the build when it starts. A port chosen in advance for workerd
    // could be taken meanwhile (workerd then dies, and wrangler waits forever), so the origin
    // is a relay's, listening from the start, which passes connections on to workerd unchanged.
    let workerdPort = 0;
    relay = await tcpRelay(options.port ?? 0, () => workerdPort);
    const origin = `http://127.0.0.1:${relay.port}`;
    let publicDir = options.publicDir;
    if (publicDir === undefined) {
      publicDir = join(dir, 'public');
      const { build } = await import('../../generator/build.ts');
      const overrides = {
        apiOrigin: origin,
        ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
      };
      const contentDir = options.contentDir as string;
      if (options.rebuilt === true) {
        const earlier = { ...overrides, title: 'An earlier build' };
        await build({ contentDir, outDir: publicDir, quiet: true, overrides: earlier, env: {} });
      }
      await build({ contentDir, outDir: publicDir, quiet: true, overrides, env: {} });
    }
    options.beforeStart?.(publicDir);

    worker = await wrangler.unstable_startWorker({
      config: await configCopy(dir, publicDir, false, options.config),
      sendMetrics: false,
      dev: {
        server: { hostname: '127.0.0.1', port: 0 },
        inspector: false,
        watch: false,
        persist: false,
        remote: false,
        logLevel: options.logLevel ?? 'warn',
      },
    });
    const url = await worker.url;
    workerdPort = Number(url.port);
    return { origin, publicDir, stop };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}

// By hand: serve a build (or build the content first) under workerd until Ctrl-C.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { parseArgs } = await import('node:util');
  const { values } = parseArgs({
    options: { content: { type: 'string' }, public: { type: 'string' }, port: { type: 'string', default: '8787' } },
  });
  const fail = (message: string): never => {
    process.stderr.write(`error: ${message}\n`);
    process.exit(1);
  };
  if (!wranglerInstalled()) fail(`wrangler is not installed: run ${INSTALL}`);
  const source =
    values.public !== undefined
      ? { publicDir: resolve(values.public) }
      : { contentDir: resolve(values.content ?? 'content') };
  const workerd = await startWorkerd({ ...source, port: Number(values.port), logLevel: 'info' }).catch((err: unknown) =>
    fail(err instanceof Error ? (err.message.split('\n')[0] ?? String(err)) : String(err)),
  );
  process.stdout.write(`The Worker and ${workerd.publicDir} in workerd at ${workerd.origin}/api/v1 (Ctrl-C to stop)\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => void workerd.stop().then(() => process.exit(0)));
}
