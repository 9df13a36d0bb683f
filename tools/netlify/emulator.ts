// Netlify's own local emulation (@netlify/dev) serving a built site, on 127.0.0.1, for the tests
// (test/netlify-emulation.test.ts) and by hand:
//
//   npm ci --prefix tools/netlify
//   npx tsx tools/netlify/emulator.ts [--content content] [--port 8889]
//
// It lays out a Netlify project in a temp directory exactly as a deploy would have it: the
// repository's netlify.toml, the edge function's sources (generator/deploy/netlify and the generator/core
// modules it imports) and public/, built for the emulator's own origin so that every link stays
// on it. Requests go through NetlifyDev's request chain (edge functions, redirect rules, header
// rules, static files), the same code Netlify's CLI runs for `netlify dev`; the edge function runs
// in Deno, from the deno npm package pinned in tools/netlify/package.json.
//
// Where the emulator differs from production (docs/netlify.md lists each), this file follows the
// emulator and says so; it never patches an answer.

import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TOOLS_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_DIR = resolve(TOOLS_DIR, '..', '..');
const NETLIFY_DEV = join(TOOLS_DIR, 'node_modules', '@netlify', 'dev', 'dist', 'main.js');
const DENO_EXE = process.platform === 'win32' ? 'deno.exe' : 'deno';

/**
 * The directory of the pinned Deno executable itself. Not node_modules/.bin/deno: that is a Node
 * wrapper which does not pass signals on, so stopping the emulator would orphan Deno.
 */
export function denoDir(): string | null {
  const modules = join(TOOLS_DIR, 'node_modules');
  const candidates = [join(modules, 'deno')];
  if (existsSync(join(modules, '@deno'))) for (const d of readdirSync(join(modules, '@deno'))) candidates.push(join(modules, '@deno', d));
  return candidates.find((d) => existsSync(join(d, DENO_EXE))) ?? null;
}

/** True when `npm ci --prefix tools/netlify` has installed the emulator and its Deno. */
export function emulatorInstalled(): boolean {
  return existsSync(NETLIFY_DEV) && denoDir() !== null;
}

/** The part of @netlify/dev's NetlifyDev used here (its types are not needed to type-check). */
interface NetlifyDevLike {
  start(): Promise<unknown>;
  stop(): Promise<void>;
  handleAndIntrospectNodeRequest(request: IncomingMessage): Promise<{ response: Response; type: string } | undefined>;
}

export interface Emulation {
  /** The emulator's origin, e.g. http://127.0.0.1:41234; the site was built for it. */
  origin: string;
  /** The temp project directory: netlify.toml, generator/, public/. */
  projectDir: string;
  /** What answered each request, in order: 'edge-function' | 'redirect' | 'static' | 'none'. */
  answeredBy: string[];
  stop(): Promise<void>;
}

export interface EmulationOptions {
  /** Content directory to build. */
  contentDir: string;
  /** Port on 127.0.0.1 (default: any free port). */
  port?: number;
  /**
   * false: run the emulation without edge functions, as Netlify does when the function is
   * bypassed: redirect rules, header rules and static files only.
   */
  edgeFunctions?: boolean;
  /** Milliseconds allowed for building and starting (default 120 s). */
  startTimeoutMs?: number;
  log?: (line: string) => void;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function sendResponse(res: ServerResponse, method: string | undefined, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    // The body is re-sent as it is read here, unencoded and unframed.
    if (key === 'content-length' || key === 'transfer-encoding' || key === 'connection' || key === 'content-encoding') return;
    headers[key] = value;
  });
  const body = method === 'HEAD' || response.body === null ? null : Buffer.from(await response.arrayBuffer());
  if (body !== null) headers['content-length'] = String(body.length);
  else await response.body?.cancel();
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}

/**
 * Builds `contentDir` for the emulator's origin into a temp Netlify project and serves it with
 * @netlify/dev on 127.0.0.1. Always call `stop()`.
 */
export async function startEmulation(options: EmulationOptions): Promise<Emulation> {
  if (!emulatorInstalled()) throw new Error('Netlify emulation is not installed: run npm ci --prefix tools/netlify');
  const log = options.log ?? (() => {});
  const projectDir = mkdtempSync(join(tmpdir(), 'pepys-netlify-'));
  const answeredBy: string[] = [];
  let dev: NetlifyDevLike | null = null;
  let ready: (() => void) | null = null;
  const started = new Promise<void>((r) => (ready = r));

  const server: Server = createServer((req, res) => {
    void (async () => {
      await started;
      try {
        const result = await (dev as NetlifyDevLike).handleAndIntrospectNodeRequest(req);
        // Requests that NetlifyDev sends itself (edge functions' context.next()) are passthrough.
        if (req.headers['x-nf-passthrough'] === undefined) answeredBy.push(result?.type ?? 'none');
        if (result === undefined) {
          // Nothing matched: Netlify would serve its 404 page.
          res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found');
          return;
        }
        await sendResponse(res, req.method, result.response);
      } catch (err) {
        log(`emulator: ${req.method} ${req.url}: ${String(err)}`);
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(err));
      }
    })();
  });

  const stop = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    if (dev !== null) await dev.stop();
    rmSync(projectDir, { recursive: true, force: true });
  };

  try {
    await new Promise<void>((r, reject) => server.once('error', reject).listen(options.port ?? 0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    await withTimeout((async () => {
      // The project as Netlify would check it out and build it.
      cpSync(join(REPO_DIR, 'netlify.toml'), join(projectDir, 'netlify.toml'));
      for (const dir of ['generator/deploy/netlify', 'generator/core']) cpSync(join(REPO_DIR, dir), join(projectDir, dir), { recursive: true });
      const { build } = await import('../../generator/build.ts');
      const publicDir = join(projectDir, 'public');
      await build({ contentDir: options.contentDir, outDir: publicDir, quiet: true, overrides: { apiOrigin: origin }, env: {} });
      // Emulator difference: @netlify/dev reads _redirects from the project directory (and the
      // working directory), not from the publish directory as Netlify does. Same file, copied.
      cpSync(join(publicDir, '_redirects'), join(projectDir, '_redirects'));
      mkdirSync(join(projectDir, '.netlify'), { recursive: true });

      // The pinned Deno first on PATH: without one, the emulator would try to download Deno.
      process.env.PATH = `${denoDir() as string}${delimiter}${process.env.PATH ?? ''}`;
      const { NetlifyDev } = (await import(pathToFileURL(NETLIFY_DEV).href)) as {
        NetlifyDev: new (o: Record<string, unknown>) => NetlifyDevLike;
      };
      const edge = options.edgeFunctions !== false;
      dev = new NetlifyDev({
        projectRoot: projectDir,
        skipGitignore: true,
        // The emulator's requests back into the site (context.next()) come to this server.
        serverAddress: origin,
        edgeFunctions: { enabled: edge },
        redirects: { enabled: true },
        headers: { enabled: true },
        staticFiles: { enabled: true },
        functions: { enabled: false },
        blobs: { enabled: false },
        images: { enabled: false },
        database: { enabled: false },
        aiGateway: { enabled: false },
        environmentVariables: { enabled: false },
        geolocation: { enabled: false },
        logger: { log: (...a: unknown[]) => log(a.join(' ')), warn: (...a: unknown[]) => log(a.join(' ')), error: (...a: unknown[]) => log(a.join(' ')) },
      });
      await dev.start();
      (ready as unknown as () => void)();
      // The first edge request starts Deno and loads the function: pay for it here, not in a test.
      if (edge) await fetch(`${origin}/api/v1`).then((r) => r.arrayBuffer());
      answeredBy.length = 0;
    })(), options.startTimeoutMs ?? 120_000, 'starting the Netlify emulation');

    return { origin, projectDir, answeredBy, stop };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}

// By hand: serve the content under emulation until Ctrl-C.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { parseArgs } = await import('node:util');
  const { values } = parseArgs({ options: { content: { type: 'string', default: 'content' }, port: { type: 'string', default: '8889' } } });
  const emulation = await startEmulation({ contentDir: resolve(values.content as string), port: Number(values.port), log: (l) => process.stderr.write(`${l}\n`) });
  process.stdout.write(`Netlify emulation of the site at ${emulation.origin}/api/v1 (Ctrl-C to stop)\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void emulation.stop().then(() => process.exit(0)));
}
