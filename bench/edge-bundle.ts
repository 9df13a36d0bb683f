// The edge function's size, as Netlify would deploy it and as one minified file:
//
//   npm ci --prefix tools/netlify && npx tsx bench/edge-bundle.ts
//
// - eszip: what @netlify/edge-bundler (the bundler Netlify's build runs) produces from
//   generator/deploy/netlify/edge-functions with the declarations of netlify.toml. Offline, its extraction of the
//   in-source config fails (it imports a type file from edge.netlify.com); the bundle is built all
//   the same.
// - one ESM file, bundled and minified by esbuild, raw and gzipped: the code that runs.

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { denoDir, emulatorInstalled } from '../tools/netlify/emulator.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = join(REPO, 'tools', 'netlify', 'node_modules');
const ENTRY = join(REPO, 'generator', 'deploy', 'netlify', 'edge-functions', 'api.ts');

if (!emulatorInstalled()) {
  process.stderr.write('Needs the Netlify tools: npm ci --prefix tools/netlify\n');
  process.exit(2);
}
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB (${n} bytes)`;

// One file, as the code that runs.
const esbuild = (await import(pathToFileURL(join(TOOLS, 'esbuild', 'lib', 'main.js')).href)) as {
  build(o: Record<string, unknown>): Promise<{ outputFiles: Array<{ contents: Uint8Array }>; metafile: { inputs: Record<string, { bytes: number }> } }>;
};
for (const minify of [false, true]) {
  const out = await esbuild.build({ entryPoints: [ENTRY], bundle: true, format: 'esm', platform: 'neutral', write: false, minify, metafile: true });
  const code = out.outputFiles[0]?.contents ?? new Uint8Array();
  const inputs = Object.keys(out.metafile.inputs);
  if (!minify) process.stdout.write(`modules: ${inputs.length} (${inputs.map((i) => i.replace(/^generator\//, '')).join(', ')})\n`);
  process.stdout.write(`esbuild, ${minify ? 'minified' : 'not minified'}: ${kib(code.length)}, gzip ${kib(gzipSync(code, { level: 9 }).length)}\n`);
}

// The eszip Netlify deploys.
process.env.PATH = `${denoDir() as string}${delimiter}${process.env.PATH ?? ''}`;
const { bundle } = (await import(pathToFileURL(join(TOOLS, '@netlify', 'edge-bundler', 'dist', 'node', 'index.js')).href)) as {
  bundle(dirs: string[], dist: string, declarations: unknown[], options: Record<string, unknown>): Promise<unknown>;
};
const dist = mkdtempSync(join(tmpdir(), 'pepys-eszip-'));
try {
  await bundle([dirname(ENTRY)], dist, [{ function: 'api', path: '/api/*', cache: 'manual' }, { function: 'api', path: '/api', cache: 'manual' }], {
    basePath: REPO,
    bootstrapURL: pathToFileURL(join(TOOLS, '@netlify', 'edge-functions-bootstrap', 'node', 'dist', 'index.mjs')).href,
    systemLogger: () => {},
    userLogger: () => {},
  });
  for (const f of readdirSync(dist).filter((f) => f.endsWith('.eszip'))) {
    const bytes = readFileSync(join(dist, f));
    process.stdout.write(`eszip (@netlify/edge-bundler): ${kib(statSync(join(dist, f)).size)}, gzip ${kib(gzipSync(bytes, { level: 9 }).length)}\n`);
  }
} finally {
  rmSync(dist, { recursive: true, force: true });
}
