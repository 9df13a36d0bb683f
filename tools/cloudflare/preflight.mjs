// wrangler.jsonc `build.command`: wrangler runs it before every `wrangler deploy` (and `wrangler
// versions upload`, `wrangler dev`), in the repository, and stops if it fails. It builds nothing
// (`npm run build` does, for the API origin of the deploy); it checks that the build about to be
// uploaded is one, and one for a public origin:
//
//   node tools/cloudflare/preflight.mjs [assets directory, default public]
//
// - no site index: nothing was built there (or the build is broken): refuse, for any command;
// - an API origin on a loopback address (`npm start -- --out public`, or a build for such an origin):
//   every link of the deployed API would point at the deployer's own machine: refuse to deploy
//   (a warning under `wrangler dev`, which serves on loopback itself);
// - more static files than a Worker version may have: 20,000 on the Workers Free plan (a
//   warning: the plan is not known here), 100,000 on every plan (refuse).
//
// Plain Node, no dependencies: it runs wherever wrangler runs. One line for each finding.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? 'public';
// Set by wrangler for the command it runs: deploy, versions upload, dev, ...
const command = process.env.WRANGLER_COMMAND ?? 'deploy';
const FREE_PLAN_FILES = 20_000;
const PAID_PLAN_FILES = 100_000;
/** wrangler never uploads these (its default .assetsignore list). */
const NEVER_UPLOADED = new Set(['.assetsignore', '_redirects', '_headers']);
const REBUILD = 'npm run build -- --api-origin https://<the origin the API is served from>';

function refuse(message) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

function countFiles(path, top) {
  let n = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory()) n += countFiles(join(path, entry.name), false);
    else if (!(top && NEVER_UPLOADED.has(entry.name))) n++;
  }
  return n;
}

let origin = '';
try {
  const index = JSON.parse(readFileSync(join(dir, '_data', 'site-index.json'), 'utf8'));
  if (typeof index?.apiOrigin !== 'string') throw new Error('no apiOrigin');
  origin = index.apiOrigin;
} catch {
  refuse(`${dir}/ holds no complete build (no readable _data/site-index.json): run ${REBUILD}`);
}

const host = new URL(origin).hostname;
if (
  host === 'localhost' ||
  host.endsWith('.localhost') ||
  host === '[::1]' ||
  host === '0.0.0.0' ||
  /^127\./.test(host)
) {
  const message = `${dir}/ was built for ${origin} (a build for a local server): every link of the API would point there; run ${REBUILD}`;
  if (command === 'dev') process.stderr.write(`warning: ${message}\n`);
  else refuse(message);
}
// A placeholder (the sample's https://pepys.example.org, any example.* or .example name): the
// deployed API's links would lead nowhere.
const labels = host.split('.');
if (labels.includes('example') || host.endsWith('.test') || host.endsWith('.invalid')) {
  const message = `${dir}/ was built for ${origin}, a placeholder origin (apiOrigin in site.yaml): every link of the API would lead nowhere; run ${REBUILD}`;
  if (command === 'dev') process.stderr.write(`warning: ${message}\n`);
  else refuse(message);
}

const files = countFiles(dir, true);
if (files > PAID_PLAN_FILES)
  refuse(
    `${dir}/ holds ${files.toLocaleString('en')} files: a Worker version may have at most ${PAID_PLAN_FILES.toLocaleString('en')} static files on any plan`,
  );
if (files > FREE_PLAN_FILES) {
  process.stderr.write(
    `warning: ${dir}/ holds ${files.toLocaleString('en')} files: more than the ${FREE_PLAN_FILES.toLocaleString('en')} static files a Worker version may have on the Workers Free plan (paid plans: ${PAID_PLAN_FILES.toLocaleString('en')}); on the free plan the upload is refused\n`,
  );
}
process.stdout.write(
  `${dir}/: the API for ${origin}, ${files.toLocaleString('en')} static files (${Math.round((files / FREE_PLAN_FILES) * 100)}% of the free plan's ${FREE_PLAN_FILES.toLocaleString('en')})\n`,
);
