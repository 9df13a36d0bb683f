// The launcher of every npm script (generator/cli/node-ts.mjs) and its bundle cache
// (ts-bundle.mjs): a bundle is used only while its sources are as they were, each module keeps its
// own import.meta, and without a bundle the modules load one by one with the same result.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/temp.ts';

const REPO = resolve(import.meta.dirname, '..');
// The sources inside the project (only its files are bundled), the cache in a temporary directory.
const DIR = join(REPO, 'test', `.node-ts-${process.pid}`);
const CACHE = tempDir('node-ts-cache-');

function run(env: Record<string, string> = {}, cwd = REPO): string {
  return execFileSync(
    process.execPath,
    [join(REPO, 'generator/cli/node-ts.mjs'), join(DIR, 'main.ts'), 'an-argument'],
    {
      cwd,
      env: { ...process.env, PEPYS_TS_CACHE: CACHE, ...env },
      encoding: 'utf8',
      // A failure's stderr is asserted, not shown.
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

/** The manifests of bundles made for this test's entry. */
function manifests(): Array<{ bundle: string; inputs: Record<string, string> }> {
  let names: string[];
  try {
    names = readdirSync(CACHE).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names
    .map(
      (n) =>
        JSON.parse(readFileSync(join(CACHE, n), 'utf8')) as {
          entry: string;
          bundle: string;
          inputs: Record<string, string>;
        },
    )
    .filter((m) => m.entry.startsWith(DIR));
}

afterAll(() => {
  rmSync(DIR, { recursive: true, force: true });
});

describe('node-ts.mjs', () => {
  it('runs from a bundle that follows every edit of its sources, with each module its own import.meta', () => {
    mkdirSync(join(DIR, 'sub'), { recursive: true });
    writeFileSync(
      join(DIR, 'sub', 'value.ts'),
      "export const value: string = 'first';\nexport const where = import.meta.url;\n",
    );
    writeFileSync(
      join(DIR, 'main.ts'),
      [
        "import { value, where } from './sub/value.ts';",
        'const args: string[] = process.argv.slice(2);',
        'console.log(JSON.stringify({ value, where, here: import.meta.url, argv1: process.argv[1], args }));',
        '',
      ].join('\n'),
    );
    const first = JSON.parse(run()) as Record<string, unknown>;
    expect(first).toEqual({
      value: 'first',
      where: pathToFileURL(join(DIR, 'sub', 'value.ts')).href,
      here: pathToFileURL(join(DIR, 'main.ts')).href,
      argv1: join(DIR, 'main.ts'),
      args: ['an-argument'],
    });
    const [made] = manifests();
    if (made === undefined) throw new Error('no bundle was made');
    expect(Object.keys(made.inputs).sort()).toEqual([join(DIR, 'main.ts'), join(DIR, 'sub', 'value.ts')]);

    // The bundle the manifest names is what runs: another one, named by its bytes as bundles
    // are, is run in its place.
    const manifestFile = join(CACHE, readdirSync(CACHE).find((n) => n.endsWith('.json')) as string);
    const key = made.bundle.split('.')[0] as string;
    const other = readFileSync(join(CACHE, made.bundle), 'utf8').replace('"first"', '"from the bundle"');
    const otherName = `${key}.${createHash('sha256').update(other).digest('hex').slice(0, 40)}.mjs`;
    writeFileSync(join(CACHE, otherName), other);
    writeFileSync(manifestFile, JSON.stringify({ ...made, bundle: otherName }));
    expect(JSON.parse(run()).value).toBe('from the bundle');

    // A bundle whose bytes are not those it is named by (cut short by a crash) is made again.
    writeFileSync(join(CACHE, otherName), '');
    expect(JSON.parse(run()).value).toBe('first');

    // An edit of an imported file, of the same size: the bundle is made again.
    writeFileSync(
      join(DIR, 'sub', 'value.ts'),
      "export const value: string = 'other';\nexport const where = import.meta.url;\n",
    );
    expect(JSON.parse(run()).value).toBe('other');
    // And without any bundle, module by module, the same.
    expect(JSON.parse(run({ PEPYS_NO_BUNDLE: '1' }))).toEqual({ ...first, value: 'other' });

    // Run from another directory, after another edit: a bundle is made, of the same sources
    // (esbuild names them relative to its working directory; they were taken as the repository's,
    // so no bundle was made from a directory less deep than it).
    writeFileSync(
      join(DIR, 'sub', 'value.ts'),
      "export const value: string = 'elsewhere';\nexport const where = import.meta.url;\n",
    );
    const before = new Set(manifests().map((m) => m.bundle));
    // From the root: from a directory as deep as the repository or deeper, `..` of the sources'
    // names came back to it, and bundles were made; from one less deep (`/tmp`), never.
    expect(JSON.parse(run({}, '/')).value).toBe('elsewhere');
    const after = manifests().filter((m) => !before.has(m.bundle));
    expect(after.map((m) => Object.keys(m.inputs).sort())).toEqual([
      [join(DIR, 'main.ts'), join(DIR, 'sub', 'value.ts')],
    ]);
  });

  it('makes the bundles asked for at once in one process: each entry once, none left unmade', () => {
    // As three in-process verifies at once do (cli/import-apart.ts): the first bundle made had
    // stopped esbuild's service under the others, which never ended.
    mkdirSync(DIR, { recursive: true });
    writeFileSync(join(DIR, 'a.ts'), "export const name: string = 'a';\n");
    writeFileSync(join(DIR, 'b.ts'), "export const name: string = 'b';\n");
    const script = join(DIR, 'many.mjs');
    writeFileSync(
      script,
      [
        `import { bundleOf } from ${JSON.stringify(pathToFileURL(join(REPO, 'generator/cli/ts-bundle.mjs')).href)};`,
        'const [a, b] = process.argv.slice(2);',
        'const paths = await Promise.all([bundleOf(a), bundleOf(a), bundleOf(b)]);',
        'const names = await Promise.all(paths.map(async (p) => (await import(p)).name));',
        'console.log(JSON.stringify({ paths, names }));',
        '',
      ].join('\n'),
    );
    const out = execFileSync(process.execPath, [script, join(DIR, 'a.ts'), join(DIR, 'b.ts')], {
      env: { ...process.env, PEPYS_TS_CACHE: tempDir('node-ts-cache-') },
      encoding: 'utf8',
      timeout: 20_000,
    });
    const { paths, names } = JSON.parse(out) as { paths: Array<string | null>; names: string[] };
    expect(names).toEqual(['a', 'a', 'b']);
    expect(paths[0]).toBe(paths[1]);
    expect(paths.every((p) => p?.endsWith('.mjs'))).toBe(true);
  });

  it('leaves a source it cannot bundle to Node, whose error names the file', () => {
    mkdirSync(DIR, { recursive: true });
    writeFileSync(join(DIR, 'main.ts'), 'const broken: = 1;\n');
    let stderr = '';
    try {
      run();
    } catch (err) {
      stderr = String((err as { stderr: string }).stderr);
    }
    expect(stderr).toContain('main.ts');
  });
});
