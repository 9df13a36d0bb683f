// Netlify's own local emulation (@netlify/dev) serving a built site, on 127.0.0.1, for the tests
// (test/heavy/netlify-emulation.test.ts) and by hand:
//
//   npm run netlify:install
//   npm run netlify:emulate -- [--content content] [--port 8889]
//
// It lays out a Netlify project in a temp directory as a deploy would have it after
// `npm run build -- --target netlify`: the sources the edge function imports (generator/core and
// generator/deploy, and the installed package of the search's stemmer), public/ built for the emulator's own origin (so that every link stays on
// it), and the generated function in .netlify/v1/edge-functions/, written by the same code as the
// build command's. Requests go through NetlifyDev's request chain (edge functions, redirect and
// header rules, static files), the code Netlify's CLI runs for `netlify dev`; the function runs in
// Deno, from the deno npm package pinned in tools/netlify/package.json.
//
// Where the emulator differs from production (docs/netlify.md lists each), this file follows the
// emulator and says so; it never patches an answer. Two differences are worked around here:
// - @netlify/dev 4.18.13 looks for edge functions only in `build.edge_functions`, never in
//   Netlify's Frameworks API directory: the project's netlify.toml (the repository's) gets
//   `edge_functions = ".netlify/v1/edge-functions"` added to its [build] section;
// - its edge function handler extracts every function's config again on every request, in a
//   Deno worker it never terminates (about 11 MB and one thread leaked per request): the handler's
//   getFunctionConfigs() is memoised per Deno server and set of functions (below). The configs of a
//   built project cannot change while it is served, so no answer changes.

import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TOOLS_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_DIR = resolve(TOOLS_DIR, '..', '..');
const MODULES = join(TOOLS_DIR, 'node_modules');
const NETLIFY_DEV = join(MODULES, '@netlify', 'dev', 'dist', 'main.js');
const EDGE_FUNCTIONS_DEV = join(MODULES, '@netlify', 'edge-functions-dev', 'dist', 'node', 'main.js');
const DENO_EXE = process.platform === 'win32' ? 'deno.exe' : 'deno';
/** What `npm run netlify:install` runs. */
export const INSTALL = 'npm run netlify:install';

/**
 * The directory of the pinned Deno executable itself. Not node_modules/.bin/deno: that is a Node
 * wrapper which does not pass signals on, so stopping the emulator would orphan Deno.
 */
export function denoDir(): string | null {
  const candidates = [join(MODULES, 'deno')];
  if (existsSync(join(MODULES, '@deno')))
    for (const d of readdirSync(join(MODULES, '@deno'))) candidates.push(join(MODULES, '@deno', d));
  return candidates.find((d) => existsSync(join(d, DENO_EXE))) ?? null;
}

/** True when `npm run netlify:install` has installed the emulator and its Deno. */
export function emulatorInstalled(): boolean {
  return existsSync(NETLIFY_DEV) && existsSync(EDGE_FUNCTIONS_DEV) && denoDir() !== null;
}

/** The part of @netlify/dev's NetlifyDev used here (its types are not needed to type-check). */
interface NetlifyDevLike {
  start(): Promise<unknown>;
  stop(): Promise<void>;
  handleAndIntrospectNodeRequest(request: IncomingMessage): Promise<{ response: Response; type: string } | undefined>;
}

type FunctionConfigs = { configs?: Record<string, unknown>; error?: unknown };
interface EdgeFunctionsHandlerLike {
  prototype: { getFunctionConfigs(port: number, functions: Record<string, string>): Promise<FunctionConfigs> };
}

/** Calls of the memoised getFunctionConfigs(), and how many of them reached Deno. */
const configCalls = { total: 0, extracted: 0 };
let memoised = false;

/**
 * Memoises EdgeFunctionsHandler.prototype.getFunctionConfigs() of the very module @netlify/dev
 * imports (the same file, so the same class). A failed extraction is not kept: it is retried.
 */
async function memoiseFunctionConfigs(): Promise<void> {
  if (memoised) return;
  const { EdgeFunctionsHandler } = (await import(pathToFileURL(EDGE_FUNCTIONS_DEV).href)) as {
    EdgeFunctionsHandler: EdgeFunctionsHandlerLike;
  };
  const proto = EdgeFunctionsHandler.prototype;
  const original = proto.getFunctionConfigs;
  const memo = new Map<string, Promise<FunctionConfigs>>();
  proto.getFunctionConfigs = function (this: unknown, port, functions) {
    configCalls.total++;
    const key = `${port} ${JSON.stringify(functions)}`;
    let configs = memo.get(key);
    if (configs === undefined) {
      configCalls.extracted++;
      configs = original.call(this, port, functions);
      memo.set(key, configs);
      configs.then(
        (r) => (r.error !== undefined ? memo.delete(key) : undefined),
        () => memo.delete(key),
      );
    }
    return configs;
  };
  memoised = true;
}

export interface Emulation {
  /** The emulator's origin, e.g. http://127.0.0.1:41234; the site was built for it. */
  origin: string;
  /** The temp project directory: netlify.toml, generator/, public/, .netlify/v1/edge-functions/. */
  projectDir: string;
  /** What answered each request, in order: 'edge-function' | 'redirect' | 'static' | 'none'. */
  answeredBy: string[];
  /** The path (and query) of each of those requests, in the same order. */
  answeredPaths: string[];
  /** Requests the edge function served; and how many config extractions reached Deno for them. */
  configExtractions(): { requests: number; extracted: number };
  stop(): Promise<void>;
}

export interface EmulationOptions {
  /** Content directory to build. */
  contentDir: string;
  /** Port on 127.0.0.1 (default: any free port). */
  port?: number;
  /**
   * Build as a rebuild: first with another title, then as asked, so that public/ is what a
   * second build leaves, a symlink to a generation (generator/output/rebuild.ts).
   */
  rebuilt?: boolean;
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
    if (key === 'content-length' || key === 'transfer-encoding' || key === 'connection' || key === 'content-encoding')
      return;
    headers[key] = value;
  });
  const body = method === 'HEAD' || response.body === null ? null : Buffer.from(await response.arrayBuffer());
  if (body !== null) headers['content-length'] = String(body.length);
  else await response.body?.cancel();
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}

/**
 * The repository's netlify.toml with the generated functions' directory as `build.edge_functions`:
 * the one place @netlify/dev 4.18.13 looks for edge functions.
 */
export function emulatorToml(repoToml: string, functionsDir: string): string {
  if (/^\s*edge_functions\s*=/m.test(repoToml))
    throw new Error('netlify.toml sets build.edge_functions: the generated function would be declared twice');
  const line = `  edge_functions = ${JSON.stringify(functionsDir)}  # added by tools/netlify/emulator.ts`;
  const build = /^\[build\][^\S\n]*$/m.exec(repoToml);
  if (build === null) return `[build]\n${line}\n\n${repoToml}`;
  const at = build.index + build[0].length;
  return `${repoToml.slice(0, at)}\n${line}${repoToml.slice(at)}`;
}

/**
 * Builds `contentDir` for the emulator's origin into a temp Netlify project, as
 * `npm run build -- --target netlify` would, and serves it with @netlify/dev on 127.0.0.1.
 * Always call `stop()`.
 */
export async function startEmulation(options: EmulationOptions): Promise<Emulation> {
  if (!emulatorInstalled()) throw new Error(`Netlify's emulation is not installed: run ${INSTALL}`);
  const log = options.log ?? (() => {});
  const projectDir = mkdtempSync(join(tmpdir(), 'pepys-netlify-'));
  const answeredBy: string[] = [];
  const answeredPaths: string[] = [];
  let edgeRequests = 0;
  let dev: NetlifyDevLike | null = null;
  let ready: () => void = () => {};
  const started = new Promise<void>((r) => {
    ready = r;
  });
  let extractedAtStart = 0;

  const server: Server = createServer((req, res) => {
    void (async () => {
      await started;
      try {
        const result = await (dev as NetlifyDevLike).handleAndIntrospectNodeRequest(req);
        // Requests that NetlifyDev sends itself (the function's context.next()) are passthrough.
        if (req.headers['x-nf-passthrough'] === undefined) {
          answeredBy.push(result?.type ?? 'none');
          answeredPaths.push(req.url ?? '');
          if (result?.type === 'edge-function') edgeRequests++;
        }
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

    await withTimeout(
      (async () => {
        // The project as Netlify's build leaves it: sources, public/, the generated function.
        // With the installed packages the search imports by their files (its stemmer, its decoder).
        for (const dir of [
          'generator/core',
          'generator/deploy',
          'node_modules/@orama/stemmers',
          'node_modules/entities',
        ])
          cpSync(join(REPO_DIR, dir), join(projectDir, dir), { recursive: true });
        const [{ build }, { FUNCTIONS_DIR, writeNetlifyFunction }] = await Promise.all([
          import('../../generator/build.ts'),
          import('../../generator/deploy/netlify/generate.ts'),
        ]);
        const publicDir = join(projectDir, 'public');
        if (options.rebuilt === true) {
          const overrides = { apiOrigin: origin, title: 'An earlier build' };
          await build({ contentDir: options.contentDir, outDir: publicDir, quiet: true, overrides, env: {} });
        }
        await build({
          contentDir: options.contentDir,
          outDir: publicDir,
          quiet: true,
          overrides: { apiOrigin: origin },
          env: {},
        });
        if (options.rebuilt === true && !lstatSync(publicDir).isSymbolicLink())
          throw new Error(`${publicDir} is not the symlink a rebuild leaves`);
        const written = writeNetlifyFunction(publicDir, projectDir);
        if (!written.ok) throw new Error(written.error);
        // Emulator difference: @netlify/dev does not look in the Frameworks API directory.
        writeFileSync(
          join(projectDir, 'netlify.toml'),
          emulatorToml(readFileSync(join(REPO_DIR, 'netlify.toml'), 'utf8'), FUNCTIONS_DIR),
        );

        await memoiseFunctionConfigs();
        // The pinned Deno first on PATH: without one, the emulator would try to download Deno.
        process.env.PATH = `${denoDir() as string}${delimiter}${process.env.PATH ?? ''}`;
        const { NetlifyDev } = (await import(pathToFileURL(NETLIFY_DEV).href)) as {
          NetlifyDev: new (o: Record<string, unknown>) => NetlifyDevLike;
        };
        dev = new NetlifyDev({
          projectRoot: projectDir,
          skipGitignore: true,
          // The emulator's requests back into the site (context.next()) come to this server.
          serverAddress: origin,
          edgeFunctions: { enabled: true },
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
          logger: {
            log: (...a: unknown[]) => log(a.join(' ')),
            warn: (...a: unknown[]) => log(a.join(' ')),
            error: (...a: unknown[]) => log(a.join(' ')),
          },
        });
        await dev.start();
        ready();
        // The first edge request starts Deno and extracts the function's config: pay for it here.
        const callsBefore = configCalls.total;
        const first = await fetch(`${origin}/api/v1`);
        await first.arrayBuffer();
        if (configCalls.total === callsBefore || answeredBy[0] !== 'edge-function') {
          throw new Error(
            `the emulation did not run the edge function for /api/v1 (answered by ${answeredBy[0] ?? 'nothing'}, status ${first.status}), or its config memoisation did not take effect`,
          );
        }
        answeredBy.length = 0;
        answeredPaths.length = 0;
        edgeRequests = 0;
        extractedAtStart = configCalls.extracted;
      })(),
      options.startTimeoutMs ?? 120_000,
      'starting the Netlify emulation',
    );

    return {
      origin,
      projectDir,
      answeredBy,
      answeredPaths,
      configExtractions: () => ({ requests: edgeRequests, extracted: configCalls.extracted - extractedAtStart }),
      stop,
    };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}

// By hand: serve the content under emulation until Ctrl-C.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { parseArgs } = await import('node:util');
  const { values } = parseArgs({
    options: { content: { type: 'string', default: 'content' }, port: { type: 'string', default: '8889' } },
  });
  try {
    const emulation = await startEmulation({
      contentDir: resolve(values.content as string),
      port: Number(values.port),
      log: (l) => process.stderr.write(`${l}\n`),
    });
    process.stdout.write(`Netlify emulation of the site at ${emulation.origin}/api/v1 (Ctrl-C to stop)\n`);
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.on(signal, () => void emulation.stop().then(() => process.exit(0)));
  } catch (err) {
    process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
