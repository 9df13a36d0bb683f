// `pepys-api init`: a new content directory that builds as it is, in the calendar and locale
// asked for; refusals are one line and exit 2, with nothing written. The first test runs the
// command as a user does, a process of its own; the others run it in this process
// (test/helpers/in-process.ts), as do their builds' refusals of bad options where they can.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { build } from '../generator/build.ts';
import { loadContent } from '../generator/content/load.ts';
import { SITE_INDEX_FILE } from '../generator/core/files.ts';
import { handle } from '../generator/core/handler.ts';
import { parseSiteIndex } from '../generator/core/site-index.ts';
import { type CliResult, runCli } from './helpers/cli.ts';
import { readServed } from './helpers/files.ts';
import { runInProcess } from './helpers/in-process.ts';
import { tempDir } from './helpers/temp.ts';

// Each test runs several processes, and a loaded machine can make each take seconds.
vi.setConfig({ testTimeout: 90_000 });

describe('init', () => {
  it('makes a content directory that is valid, in the calendar and locale asked for', async () => {
    const dir = join(tempDir('pepys-init-'), 'diary');
    const r = await runCli('init', [dir, '--calendar', 'british', '--locale', 'de', '--start', '1752-09-14']);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['README.md', 'categories.yaml', 'entries', 'site.yaml', 'topics']);
    const { model } = await loadContent(dir);
    // Gregorian 1752-09-14 was a Thursday; the entry links to its topic, a person by its category.
    expect(model.entries.map((e) => [e.title, e.topicIds])).toEqual([['Donnerstag, 14. September 1752', [1]]]);
    expect(model.topics.map((t) => [t.kind, t.orderTitle])).toEqual([['person', 'Friend, A']]);
    expect(model.config.period).toEqual({ start: '1752-09-14', end: '1753-09-14' });
    // A licence to fill in (issue 35 §4): until it is, a build warns.
    expect(model.config.license).toBe(null);
    expect(readFileSync(join(dir, 'site.yaml'), 'utf8')).toMatch(/\n# license: CC-BY-4\.0\n/);
  });

  it('refuses a directory that holds anything, and options it cannot use, writing nothing', async () => {
    const full = tempDir('pepys-init-');
    writeFileSync(join(full, 'notes.txt'), 'mine');
    const cases: Array<[string[], RegExp]> = [
      [[full], /is not empty/],
      [[join(full, 'notes.txt')], /notes\.txt is a file: init makes a directory/],
      [[join(full, 'x'), '--calendar', 'mayan'], /--calendar: one of julian, gregorian, british/],
      [[join(full, 'x'), '--locale', 'klingon'], /--locale: "klingon" is not a locale of date-fns/],
      [
        [join(full, 'x'), '--calendar', 'british', '--start', '1752-09-05'],
        /--start: 1752-09-05 does not exist in the British calendar/,
      ],
      [[], /give one directory/],
    ];
    const results = await Promise.all(cases.map(([args]) => runInProcess('init', args)));
    for (const [i, [args, message]] of cases.entries()) {
      const r = results[i] as CliResult;
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
    expect(readdirSync(full)).toEqual(['notes.txt']);
    expect(existsSync(join(full, 'x'))).toBe(false);
  });

  it('writes netlify.toml and wrangler.jsonc into the project when asked, for that content, and never over one', async () => {
    const project = tempDir('pepys-init-project-');
    const r = await runInProcess('init', ['my diary', '--netlify', '--cloudflare'], { cwd: project });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(project).sort()).toEqual(['my diary', 'netlify.toml', 'wrangler.jsonc']);
    const toml = readFileSync(join(project, 'netlify.toml'), 'utf8');
    expect(toml).toContain(`command = "npx pepys-api build --content 'my diary' --out public --target netlify"`);
    expect(toml).toContain('publish = "public"');
    expect(toml).toContain('--api-origin $DEPLOY_PRIME_URL --target netlify');
    // JSON with comments: the object follows the comment lines.
    const jsonc = readFileSync(join(project, 'wrangler.jsonc'), 'utf8');
    const config = JSON.parse(jsonc.slice(jsonc.indexOf('{'))) as {
      name: string;
      main: string;
      assets: { directory: string; run_worker_first: string[] };
    };
    expect(config.name).toBe('my-diary-api');
    // This checkout's Worker, by a path from the project (the package's dist/ Worker when installed).
    expect(readFileSync(join(project, config.main), 'utf8')).toContain('export default');
    expect(config.main.endsWith('generator/deploy/cloudflare/worker.ts')).toBe(true);
    // The repository's own routing: the same run_worker_first.
    const own = readFileSync(join(import.meta.dirname, '..', 'wrangler.jsonc'), 'utf8');
    const ownRoutes = [...own.matchAll(/^\s+"(!?\/api[^"]*)",?$/gm)].map((m) => m[1]);
    expect(config.assets.run_worker_first).toEqual(ownRoutes);
    expect(config.assets.directory).toBe('./public');

    const again = await runInProcess('init', ['other', '--netlify'], { cwd: project });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/netlify\.toml exists here: init does not replace it/);
    expect(existsSync(join(project, 'other'))).toBe(false);
    expect(readFileSync(join(project, 'netlify.toml'), 'utf8')).toBe(toml);
  });

  it('builds with the calendar and locale given on the command line, over site.yaml', async () => {
    const dir = join(tempDir('pepys-init-'), 'diary');
    expect((await runInProcess('init', [dir, '--start', '1700-02-28', '--calendar', 'julian'])).code).toBe(0);
    const out = join(tempDir('pepys-init-'), 'public');
    const r = await runInProcess('build', [
      '--content',
      dir,
      '--out',
      out,
      '--locale',
      'fr',
      '--calendar',
      'british',
      '--quiet',
    ]);
    expect(r.code, r.stderr).toBe(0);
    // Julian (British before 1752) 1700-02-28 was Gregorian 1700-03-10, a Wednesday; in French.
    const entry = JSON.parse(readServed(out, 'api/v1/entries/1700-02-28.json') as string) as { title: string };
    expect(entry.title).toBe('mercredi 28 février 1700');
    const wrong = await runInProcess('build', ['--content', dir, '--out', out, '--locale', 'xx']);
    expect([wrong.code, wrong.stderr.trim()]).toEqual([
      2,
      'error: --locale: "xx" is not a locale of date-fns (e.g. en, en-GB, fr, de, nl, es)',
    ]);
  });

  it('builds with the period given on the command line, over site.yaml, checked as site.yaml’s is', async () => {
    const dir = join(tempDir('pepys-init-'), 'diary');
    expect((await runInProcess('init', [dir, '--start', '1914-08-02'])).code).toBe(0);
    const out = join(tempDir('pepys-init-'), 'public');
    const wider = await runInProcess('build', [
      '--content',
      dir,
      '--out',
      out,
      '--period',
      '1914-01-01..1918-11-11',
      '--quiet',
    ]);
    expect(wider.code, wider.stderr).toBe(0);
    const periodOf = () => {
      const index = parseSiteIndex(readFileSync(join(out, SITE_INDEX_FILE), 'utf8'));
      if (!index.ok) throw new Error(index.error);
      return index.value.period;
    };
    expect(periodOf()).toEqual({ start: '1914-01-01', end: '1918-11-11' });
    // A period site.yaml could not have is a usage error, as site.yaml's is a content error (issue
    // 36.10: it was accepted, then every entry was "outside the period").
    const cases: Array<[string, number, RegExp]> = [
      ['1914', 2, /^error: --period: <start>\.\.<end>, two dates written YYYY-MM-DD, not 1914\n$/],
      [
        '1915-01-01..1915-02-29',
        2,
        /^error: --period: 1915-02-29 is not a date of the Gregorian calendar: 1915 is not a leap year in it\n$/,
      ],
      ['1914-02-30..1915-01-01', 2, /^error: --period: 1914-02-30 is not a date of the Gregorian calendar/],
      ['1915-01-01..1914-01-01', 2, /^error: --period: its start 1915-01-01 comes after its end 1914-01-01\n$/],
      [
        '1915-01-01..1916-01-01',
        1,
        /1914-08-02\.html:2: date 1914-08-02 is outside the diary's period \(1915-01-01 to 1916-01-01/,
      ],
    ];
    // At once: all but the last are refused before the build starts, and that one writes nothing.
    const results = await Promise.all(
      cases.map(([period]) => runInProcess('build', ['--content', dir, '--out', out, '--period', period, '--quiet'])),
    );
    for (const [i, [period, code, message]] of cases.entries()) {
      const r = results[i] as CliResult;
      expect(r.code, period).toBe(code);
      expect(r.stderr, period).toMatch(message);
    }
    // The last good build is still there.
    expect(periodOf()).toEqual({ start: '1914-01-01', end: '1918-11-11' });
    // In the calendar --calendar names, over site.yaml's: Julian 1900-02-29 exists.
    const julian = await runInProcess('build', [
      ...['--content', dir, '--out', out, '--quiet', '--calendar', 'julian'],
      ...['--period', '1900-02-29..1915-01-01'],
    ]);
    expect(julian.code, julian.stderr).toBe(0);
    const gregorian = await runInProcess('build', [
      '--content',
      dir,
      '--out',
      out,
      '--period',
      '1900-02-29..1915-01-01',
    ]);
    expect([gregorian.code, gregorian.stderr]).toEqual([
      2,
      'error: --period: 1900-02-29 is not a date of the Gregorian calendar: 1900 is not a leap year in it\n',
    ]);
  });

  it('writes what its own build accepts: a period that ends in year 9999 at the latest, a Julian leap day', async () => {
    const last = join(tempDir('pepys-init-'), 'last');
    expect((await runInProcess('init', [last, '--start', '9999-12-31'])).code).toBe(0);
    expect((await loadContent(last)).model.config.period).toEqual({ start: '9999-12-31', end: '9999-12-31' });
    const leap = join(tempDir('pepys-init-'), 'leap');
    const julian = await runInProcess('init', [leap, '--start', '1700-02-29', '--calendar', 'julian']);
    expect(julian.code, julian.stderr).toBe(0);
    const { model } = await loadContent(leap);
    expect(model.config.period).toEqual({ start: '1700-02-29', end: '1701-02-28' });
    expect(model.entries.map((e) => e.title)).toEqual(['Thursday 29 February 1700']);
    const refused = join(tempDir('pepys-init-'), 'refused');
    const cases: Array<[string[], string]> = [
      [
        ['--start', '1700-02-29', '--calendar', 'gregorian'],
        'error: --start: 1700-02-29 is not a date of the Gregorian calendar: 1700 is not a leap year in it\n',
      ],
      [
        ['--title', 'x'.repeat(201)],
        'error: the site.yaml it would write: "title" must be a non-empty string of at most 200 characters\n',
      ],
    ];
    const results = await Promise.all(cases.map(([args]) => runInProcess('init', [refused, ...args])));
    for (const [i, [args, stderr]] of cases.entries()) {
      const r = results[i] as CliResult;
      expect([r.code, r.stderr], args.join(' ')).toEqual([2, stderr]);
      expect(existsSync(refused)).toBe(false);
    }
  });

  it("quotes the directory in its 'next:' line for a POSIX shell", async () => {
    const parent = tempDir('pepys-init-');
    const names = ['my diary', "Pepys's", 'two\nlines', '--dashes', '-', 'plain_1.0'];
    // Each into a directory of its own.
    const results = await Promise.all(names.map((name) => runInProcess('init', ['--', name], { cwd: parent })));
    for (const [i, name] of names.entries()) {
      const r = results[i] as CliResult;
      expect(r.code, r.stderr).toBe(0);
      const command = /; next: (pepys-api build [\s\S]*)\n$/.exec(r.stdout)?.[1] as string;
      // The words a POSIX shell makes of it (sh runs printf in its place).
      const words = execFileSync('sh', ['-c', command.replace(/^pepys-api /, "printf '%s\\0' ")], { encoding: 'utf8' });
      const dir = name.startsWith('-') ? `./${name}` : name;
      expect(words.split('\0'), name).toEqual(['build', '--content', dir, '--out', 'public', '']);
      expect(existsSync(join(parent, dir, 'site.yaml')), name).toBe(true);
    }
  });

  it("pre-renders the years and months of the diary's own period that have entries, and the server answers from them", async () => {
    const dir = join(tempDir('pepys-init-'), 'diary');
    expect((await runInProcess('init', [dir, '--start', '1914-08-02'])).code).toBe(0);
    const out = join(tempDir('pepys-init-'), 'public');
    // In this process: the command line's build of an init'ed diary is the tests' above.
    await build({ contentDir: dir, outDir: out, quiet: true, env: {} });
    const built = (path: string) => existsSync(join(out, path));
    expect(built('api/v1/entries/years/1914/pages/1.json')).toBe(true);
    expect(built('api/v1/entries/months/1914-08/pages/1.json')).toBe(true);
    // A month of the period without entries is the handler's to answer (test/prerendered-lists.test.ts).
    expect(built('api/v1/entries/months/1915-08/pages/1.json')).toBe(false);
    expect(built('api/v1/entries/years/1660')).toBe(false);
    const index = parseSiteIndex(readFileSync(join(out, SITE_INDEX_FILE), 'utf8'));
    if (!index.ok) throw new Error(index.error);
    expect(index.value.period).toEqual({ start: '1914-08-02', end: '1915-08-02' });
    const read = (file: string) => (existsSync(join(out, file)) ? readFileSync(join(out, file)) : null);
    const ask = (query: string, accept = 'application/json') =>
      handle(
        { method: 'GET', path: '/api/v1/entries', query, header: (h) => (h === 'accept' ? accept : null) },
        index.value,
        read,
      );
    const year = await ask('start=1914-01-01&end=1914-12-31');
    expect(Buffer.from(year.body).equals(readFileSync(join(out, 'api/v1/entries/years/1914/pages/1.json')))).toBe(true);
    const page = new TextDecoder().decode((await ask('', 'text/html')).body);
    expect(page).toContain('the diary runs from 1914-08-02 to 1915-08-02');
    // Named after its title, not Pepys's.
    expect(page).toContain('<title>Entries · A Diary · API</title>');
    expect(page).not.toMatch(/Pepys/);
    // Nor does its OpenAPI document speak of Pepys: its dates are in its own calendar and words.
    const schema = readFileSync(join(out, 'api/v1/schema.json'), 'utf8');
    expect(schema).not.toMatch(/Pepys/);
    expect(schema).toContain('The date in words, e.g. `Sunday 2 August 1914`.');
  });
});
