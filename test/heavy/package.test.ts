// The package as an archivist installs it (issue 17), without this repository: `npm pack` (which
// builds dist/, plain JavaScript), installed into an empty directory from the tarball (its
// dependencies from the registry), then `pepys-api init`, `build`, `serve` and `verify` there.
// The installed build's output equals the repository's own build of the same content, file for
// file. Heavy: it installs packages. Run: npx vitest run --config vitest.heavy.config.ts test/heavy/package.test.ts

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { INSTALL as CLOUDFLARE_INSTALL, startWorkerd, wranglerInstalled } from '../../tools/cloudflare/workerd.ts';
import { denoDir, INSTALL as NETLIFY_INSTALL } from '../../tools/netlify/emulator.ts';
import { readServed, readTree } from '../helpers/files.ts';
import { tempDir } from '../helpers/temp.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const env = { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false' };

function run(command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 600_000 });
  expect(r.status, `${command} ${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(0);
  return r.stdout;
}

let server: ChildProcess | null = null;
afterAll(async () => {
  if (server?.pid !== undefined && server.exitCode === null) {
    const exited = new Promise((r) => server?.once('exit', r));
    process.kill(-server.pid, 'SIGTERM');
    await exited;
  }
});

describe('the package', () => {
  it('installs from its tarball and runs init, build, serve and verify without the repository', {
    timeout: 900_000,
  }, async () => {
    const packs = tempDir('pepys-pack-');
    run('npm', ['pack', '--silent', '--pack-destination', packs], REPO);
    const tarball = readdirSync(packs).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    // What it holds: the command and the JavaScript build, not the TypeScript sources or tests.
    const listing = run('tar', ['-tzf', join(packs, tarball as string)], packs).split('\n');
    expect(listing).toContain('package/bin/pepys-api.mjs');
    expect(listing).toContain('package/dist/generator/cli/build.js');
    expect(listing.filter((f) => f.endsWith('.ts') || f.startsWith('package/test/'))).toEqual([]);

    const home = tempDir('pepys-archivist-', { disk: true });
    run('npm', ['init', '-y'], home);
    run('npm', ['install', '--no-audit', join(packs, tarball as string)], home);
    const pepys = join(home, 'node_modules', '.bin', 'pepys-api');
    expect(run(pepys, ['build', '--version'], home)).toMatch(/^pepys-static-api \d+\.\d+\.\d+ /);

    run(pepys, ['init', 'my-diary', '--locale', 'fr', '--start', '1914-08-02'], home);
    run(pepys, ['build', '--content', 'my-diary', '--out', 'public', '--quiet'], home);
    const installed = readTree(join(home, 'public'));
    expect(JSON.parse(installed.get('api/v1/entries/1914-08-02.json') as string).title).toBe('dimanche 2 août 1914');

    // The repository's own build of the same content: the same files, byte for byte.
    const own = join(tempDir('pepys-own-'), 'public');
    run(
      process.execPath,
      [join(REPO, 'bin/pepys-api.mjs'), 'build', '--content', join(home, 'my-diary'), '--out', own, '--quiet'],
      REPO,
    );
    expect(installed).toEqual(readTree(own));

    // Served by the installed package, and verified by it against a build.
    const origin = await new Promise<string>((resolve, reject) => {
      const child = spawn(pepys, ['serve', '--content', 'my-diary', '--port', '0'], { cwd: home, env, detached: true });
      server = child;
      let output = '';
      const timer = setTimeout(() => reject(new Error(`not serving after 120 s:\n${output}`)), 120_000);
      const seen = (d: Buffer) => {
        output += d;
        const serving = /^Serving .* at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/m.exec(output);
        if (serving !== null) {
          clearTimeout(timer);
          resolve(serving[1] as string);
        }
      };
      child.stdout.on('data', seen);
      child.stderr.on('data', seen);
      child.on('close', (code) => {
        clearTimeout(timer);
        reject(new Error(`serve ended (${code}) before serving:\n${output}`));
      });
    });
    const entry = await fetch(`${origin}/api/v1/entries/1914-08-02`);
    // The server builds for the origin it serves on; nothing else differs.
    const expected = (installed.get('api/v1/entries/1914-08-02.json') as string).replaceAll(
      'https://api.diary.example.org',
      origin,
    );
    expect(await entry.text()).toBe(expected);
    const verified = run(pepys, ['verify', origin, '--content', 'my-diary', '--quiet'], home);
    expect(verified).toMatch(/no differences: the mirror is whole/);
    rmSync(packs, { recursive: true, force: true });

    // Deployments from the archivist's project: init writes netlify.toml and wrangler.jsonc there;
    // the build writes Netlify's edge function, one module with the package's core bundled in.
    run(pepys, ['init', 'second', '--netlify', '--cloudflare', '--locale', 'fr', '--start', '1914-08-02'], home);
    const toml = readFileSync(join(home, 'netlify.toml'), 'utf8');
    expect(toml).toContain('command = "npx pepys-api build --content second --out public --target netlify"');
    const jsonc = readFileSync(join(home, 'wrangler.jsonc'), 'utf8');
    const wrangler = JSON.parse(jsonc.slice(jsonc.indexOf('{'))) as { main: string };
    expect(wrangler.main).toBe('node_modules/pepys-static-api/dist/generator/deploy/cloudflare/worker.js');
    run(pepys, ['build', '--content', 'second', '--out', 'deploy', '--target', 'netlify', '--quiet'], home);
    const functions = join(home, '.netlify', 'v1', 'edge-functions');
    expect(readdirSync(functions).sort()).toEqual(['pepys-api-site-index.json', 'pepys-api.js']);
    const detail = readServed(join(home, 'deploy'), 'api/v1/entries/1914-08-02.json') as string;
    const deno = denoDir();
    if (deno !== null) {
      // In Deno, as Netlify runs it, with nothing but its own directory and the site's files.
      const script = join(home, 'edge-check.mjs');
      writeFileSync(
        script,
        `const fn = (await import(${JSON.stringify(pathToFileURL(join(functions, 'pepys-api.js')).href)})).default;
const site = ${JSON.stringify(join(home, 'deploy'))};
const context = { next: async (req) => {
  try { return new Response(await Deno.readFile(site + new URL(req.url).pathname)); }
  catch { return new Response('', { status: 404 }); }
} };
const out = {};
for (const path of ['/api/v1/entries/1914-08-02', '/api/v1/entries?search=friend', '/api/v1/nothing']) {
  const res = await fn(new Request('https://api.diary.example.org' + path), context);
  out[path] = [res.status, await res.text()];
}
console.log(JSON.stringify(out));
`,
      );
      const answers = JSON.parse(
        run(join(deno, 'deno'), ['run', '--no-config', `--allow-read=${home}`, script], home),
      ) as Record<string, [number, string]>;
      expect(answers['/api/v1/entries/1914-08-02']).toEqual([200, detail]);
      expect(answers['/api/v1/entries?search=friend']?.[0]).toBe(200);
      expect(JSON.parse(answers['/api/v1/entries?search=friend']?.[1] ?? '{}').totalResults).toBe(1);
      expect(answers['/api/v1/nothing']?.[0]).toBe(404);
    } else if (process.env.CI === 'true') throw new Error(`Deno is not installed: run ${NETLIFY_INSTALL}`);
    if (wranglerInstalled()) {
      // In workerd, with the project's wrangler.jsonc: wrangler bundles the package's Worker.
      const workerd = await startWorkerd({ publicDir: join(home, 'deploy'), config: join(home, 'wrangler.jsonc') });
      try {
        const res = await fetch(`${workerd.origin}/api/v1/entries/1914-08-02`);
        expect(res.status).toBe(200);
        expect(await res.text()).toBe(detail);
        const search = await fetch(`${workerd.origin}/api/v1/entries?search=friend`);
        expect(((await search.json()) as { totalResults: number }).totalResults).toBe(1);
      } finally {
        await workerd.stop();
      }
    } else if (process.env.CI === 'true') throw new Error(`wrangler is not installed: run ${CLOUDFLARE_INSTALL}`);
  });
});
