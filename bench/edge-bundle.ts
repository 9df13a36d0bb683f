// The size of Netlify's edge function as `npm run build -- --target netlify` last generated it
// (in .netlify/v1/edge-functions/, with that build's site index), and the routes Netlify's build
// declares for it:
//
//   npm run build -- --content <dir> --out <dir> --target netlify   # e.g. the whole diary: docs/netlify.md
//   npm run netlify:install && npm run bench:edge-bundle
//
// - the eszip that @netlify/edge-bundler (the bundler Netlify's build runs) produces from the
//   Frameworks API directory, called as Netlify's build calls it for generated functions, and the
//   manifest's routes; Netlify's limit is 20 MB compressed. Offline, the bundler's extraction of
//   the inline config would fail on a type import from edge.netlify.com (a file of types only):
//   an import map points that one URL at an empty local module, nothing else changes;
// - the code alone (no index), bundled and minified by esbuild into one ESM file, raw and gzipped.

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { fail } from '../generator/cli/exit.ts';
import { parseCommand, STANDARD_HELP, STANDARD_OPTIONS } from '../generator/cli/options.ts';
import { parseSiteIndex } from '../generator/core/site-index.ts';
import { ADAPTER_FILE, FUNCTION_FILE, FUNCTIONS_DIR, INDEX_FILE } from '../generator/deploy/netlify/generate.ts';
import { denoDir, emulatorInstalled, INSTALL } from '../tools/netlify/emulator.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = join(REPO, 'tools', 'netlify', 'node_modules');
const DIR = join(REPO, FUNCTIONS_DIR);

parseCommand(
  'npm run bench:edge-bundle',
  `usage: npm run bench:edge-bundle

The size of Netlify's edge function as the last \`npm run build -- --target netlify\` generated it,
and the routes Netlify's build declares for it (docs/netlify.md). Needs npm run netlify:install.

${STANDARD_HELP}
`,
  { options: { ...STANDARD_OPTIONS } },
);

function exit(message: string): never {
  fail(message);
}
if (!emulatorInstalled()) exit(`needs the Netlify tools: ${INSTALL}`);
let indexText: string;
try {
  indexText = readFileSync(join(DIR, INDEX_FILE), 'utf8');
  statSync(join(DIR, FUNCTION_FILE));
} catch {
  exit(`no generated function in ${FUNCTIONS_DIR}: run npm run build -- --target netlify first (docs/netlify.md)`);
}
const index = parseSiteIndex(indexText);
if (!index.ok) exit(`${FUNCTIONS_DIR}/${INDEX_FILE}: ${index.error}`);
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const gz = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;
const out = (line: string) => process.stdout.write(`${line}\n`);

out(
  `site index bundled: ${index.value.entryDates.length} entries, ${index.value.topicIds.size} topics, ${index.value.categorySlugs.size} categories; ` +
    `${kib(indexText.length)}, gzip ${kib(gz(Buffer.from(indexText)))}`,
);

// The code that runs, without the index.
const esbuild = (await import(pathToFileURL(join(TOOLS, 'esbuild', 'lib', 'main.js')).href)) as {
  build(
    o: Record<string, unknown>,
  ): Promise<{ outputFiles: Array<{ contents: Uint8Array }>; metafile: { inputs: Record<string, { bytes: number }> } }>;
};
const code = await esbuild.build({
  entryPoints: [join(REPO, ADAPTER_FILE)],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  write: false,
  minify: true,
  metafile: true,
});
const minified = code.outputFiles[0]?.contents ?? new Uint8Array();
out(
  `code (${Object.keys(code.metafile.inputs).length} modules), esbuild minified: ${kib(minified.length)}, gzip ${kib(gz(minified))}`,
);

// The eszip Netlify deploys, and its routes.
process.env.PATH = `${denoDir() as string}${delimiter}${process.env.PATH ?? ''}`;
const { bundle } = (await import(
  pathToFileURL(join(TOOLS, '@netlify', 'edge-bundler', 'dist', 'node', 'index.js')).href
)) as {
  bundle(
    dirs: string[],
    dist: string,
    declarations: unknown[],
    options: Record<string, unknown>,
  ): Promise<{ manifest: Manifest }>;
};
interface Manifest {
  routes: Array<{ function: string; path?: string; methods?: string[] }>;
  post_cache_routes: Array<{ function: string; path?: string; methods?: string[] }>;
  function_config: Record<string, unknown>;
}
const work = mkdtempSync(join(tmpdir(), 'pepys-eszip-'));
try {
  const stub = join(work, 'netlify-types.ts');
  writeFileSync(stub, 'export type NetlifyGlobal = unknown;\n');
  writeFileSync(
    join(work, 'import_map.json'),
    JSON.stringify({ imports: { 'https://edge.netlify.com/bootstrap/globals/types.ts': pathToFileURL(stub).href } }),
  );
  const dist = join(work, 'dist');
  const started = performance.now();
  const { manifest } = await bundle([DIR], dist, [], {
    basePath: REPO,
    internalSrcFolder: [DIR],
    importMapPaths: [join(work, 'import_map.json')],
    bootstrapURL: pathToFileURL(join(TOOLS, '@netlify', 'edge-functions-bootstrap', 'node', 'dist', 'index.mjs')).href,
    systemLogger: () => {},
    userLogger: () => {},
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  for (const f of readdirSync(dist).filter((f) => f.endsWith('.eszip'))) {
    const bytes = readFileSync(join(dist, f));
    out(
      `eszip (@netlify/edge-bundler, ${seconds} s): ${kib(bytes.length)}, gzip ${kib(gz(bytes))} (Netlify's limit: 20 MB compressed)`,
    );
  }
  const routes = (rs: Manifest['routes']) =>
    rs
      .map((r) => `${r.function} ${r.path ?? '?'}${r.methods ? ` [${r.methods.join(',')}]` : ' [every method]'}`)
      .join('; ') || 'none';
  out(`routes before the cache: ${routes(manifest.routes)}`);
  out(`routes after the cache (cache "manual"): ${routes(manifest.post_cache_routes)}`);
  out(`function config: ${JSON.stringify(manifest.function_config)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
