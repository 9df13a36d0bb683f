// `pepys-api init <dir>`: a new content directory an archivist fills with their own diary: a
// site.yaml with the settings they are most likely to change, one category, one topic and one
// entry that links to it, and a README of the format. It writes nothing into a directory that
// holds anything. The command's work, run by init.ts (the command) or in-process by the tests:
// relative paths are the io's working directory's, and every word goes to the io's streams.

import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSiteConfig } from '../content/config.ts';
import { titleFormat } from '../content/locale.ts';
import { parseEntryFile } from '../content/parse-entry.ts';
import type { Problem } from '../content/problems.ts';
import { CALENDARS, type CalendarName, dateProblem, parseIsoDate } from '../core/calendar.ts';
import { pad2 } from '../core/dates.ts';
import { DOWNLOAD_PATHS } from '../core/files.ts';
import { ok } from '../core/result.ts';
import { type CommandIo, endCommand } from './command-io.ts';
import { EXIT_FAILED, refuse } from './exit.ts';
import { readCommand, STANDARD_HELP, STANDARD_OPTIONS } from './options.ts';

const USAGE = `usage: pepys-api init <dir> [options]

Makes <dir>, a content directory of a diary with one entry, one topic and one category, ready for
\`pepys-api build --content <dir>\` and \`pepys-api serve --content <dir>\`.

  --title <text>             the diary's title (default: "A Diary")
  --calendar <name>          ${CALENDARS.join(' | ')} (default: gregorian)
  --locale <code>            names of weekdays and months: en or a date-fns locale (default: en)
  --start <YYYY-MM-DD>       the diary's first day (default: 1914-08-01); it ends a year later
  --netlify                  also write netlify.toml here, to deploy <dir> on Netlify
  --cloudflare               also write wrangler.jsonc here, to deploy <dir> on Cloudflare Workers
${STANDARD_HELP}
`;

/** Runs `pepys-api init` with these arguments; returns its exit status. */
export function init(args: readonly string[], io: CommandIo): number {
  try {
    run(args, io);
    return 0;
  } catch (err) {
    return endCommand(err, io);
  }
}

function run(args: readonly string[], io: CommandIo): void {
  const { values, positionals } = readCommand(
    'pepys-api init',
    USAGE,
    {
      args: [...args],
      allowPositionals: true,
      options: {
        ...STANDARD_OPTIONS,
        title: { type: 'string', default: 'A Diary' },
        calendar: { type: 'string', default: 'gregorian' },
        locale: { type: 'string', default: 'en' },
        start: { type: 'string', default: '1914-08-01' },
        netlify: { type: 'boolean', default: false },
        cloudflare: { type: 'boolean', default: false },
      },
    },
    io.env,
  );
  const dir = positionals[0];
  // An empty name would be the working directory itself, which the emptiness check below never sees.
  if (dir === undefined || dir === '' || positionals.length > 1)
    refuse('give one directory to make (pepys-api init --help)');
  // `dir` as given in every message; the file system's calls from the io's working directory.
  const at = resolve(io.cwd, dir);
  const calendar = values.calendar as CalendarName;
  if (!CALENDARS.includes(calendar)) refuse(`--calendar: one of ${CALENDARS.join(', ')}, not ${values.calendar}`);
  const format = titleFormat(values.locale as string);
  if (format instanceof Error) refuse(`--locale: ${format.message}`);
  const start = values.start as string;
  const wrong = dateProblem(calendar, start);
  if (wrong !== null) refuse(`--start: ${wrong}`);
  if (existsSync(at) && !statSync(at).isDirectory()) refuse(`${dir} is a file: init makes a directory`);
  if (existsSync(at) && readdirSync(at).length > 0)
    refuse(`${dir} is not empty: init writes only into a new or empty directory`);
  // Deployment files go into the working directory, the project the deploy is run from.
  const deployFiles: Record<string, string> = {};
  if (values.netlify === true) deployFiles['netlify.toml'] = netlifyToml(dir);
  if (values.cloudflare === true) deployFiles['wrangler.jsonc'] = wranglerJsonc(dir, io.cwd);
  for (const name of Object.keys(deployFiles))
    if (existsSync(join(io.cwd, name)))
      refuse(`${name} exists here: init does not replace it (remove it, or run init elsewhere)`);

  const files = contentFiles(dir, values.title as string, values.locale as string, calendar, start);
  checkWritten(dir, files);
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(at, path, '..'), { recursive: true });
      writeFileSync(join(at, path), text);
    }
    for (const [name, text] of Object.entries(deployFiles)) writeFileSync(join(io.cwd, name), text, { flag: 'wx' });
  } catch (err) {
    refuse(`cannot write ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, EXIT_FAILED);
  }
  const also = Object.keys(deployFiles).length > 0 ? ` and ${Object.keys(deployFiles).join(', ')}` : '';
  io.stdout(
    `made ${shellWord(dir)}: ${Object.keys(files).length} files${also}; next: pepys-api build --content ${shellWord(dir)} --out public\n`,
  );
}

/** The files init writes into `dir`, by path. */
function contentFiles(
  dir: string,
  title: string,
  locale: string,
  calendar: CalendarName,
  start: string,
): Record<string, string> {
  const endDate = aYearLater(calendar, start);
  return {
    'site.yaml': `# The diary's settings (README.md; every key is described in the generator's docs/content-format.md).
title: ${JSON.stringify(title)}
author: "The diarist"
# Where the API will be published, and where the diary's own pages are: change both.
apiOrigin: https://api.diary.example.org
siteOrigin: https://www.diary.example.org
# The licence the data is published under, which the API states (OpenAPI document, Atom feed,
# downloads, HTML pages): an SPDX id (CC0-1.0, CC-BY-4.0, …) or { name: …, url: https://… }.
# Until it is set, a build warns.
# license: CC-BY-4.0
period: { start: ${start}, end: ${endDate} }
calendar: ${calendar}
locale: ${locale}
titleConvention: single
kinds: { person: [people], place: [] }
linkOrigins: []
`,
    'categories.yaml':
      '# The category tree: a flat list; `parent` names the parent category.\n- slug: people\n  title: People\n',
    'topics/1.yaml': 'id: 1\ntitle: A Friend\ncategories: [people]\ntooltipText: Someone the diarist writes about\n',
    [`entries/${start.slice(0, 4)}/${start}.html`]: `---
date: ${start}
---
<p>The first entry. Supper with <a href="/encyclopedia/1/">a friend</a>, who mentions the topic by this link.</p>
`,
    'README.md': `# ${title}

The content of a diary, published as a static JSON API by pepys-static-api:

    npx pepys-api build --content ${shellWord(dir)} --out public     # the API's files, in public/
    npx pepys-api serve --content ${shellWord(dir)}                  # the same, on http://127.0.0.1:8888
    npx pepys-api verify http://127.0.0.1:8888            # a published copy checked against a build

- \`site.yaml\`: the title, where the API is published, the diary's period, the calendar its
  dates are written in (julian, gregorian, british), the locale of the entries' titles.
- \`categories.yaml\`: the tree of categories, a flat list with \`parent\` slugs.
- \`topics/<id>.yaml\`: one topic a file: \`id\`, \`title\`, \`categories\`, and optionally
  \`kind\` (person, place, default), \`orderTitle\`, \`tooltipText\`, \`wheatleyHTML\`, …
- \`entries/<yyyy>/<yyyy-mm-dd>.html\`: one entry a day: YAML front matter (\`date\`, and
  optionally \`topics\`, \`title\`), then the entry's HTML; footnotes after a line
  \`<!-- footnotes -->\`. A link to \`/encyclopedia/<id>/\` makes the entry mention that topic.

A build stops at the first invalid file with its name, its line and what is wrong, and leaves the
last good output in place.
`,
  };
}

/**
 * The last day of a diary that starts on `start`: the same day a year later, or the last day
 * before it that the calendar has (29 February, the British gap), and 9999-12-31 at the latest.
 */
function aYearLater(calendar: CalendarName, start: string): string {
  const { year, month, day } = parseIsoDate(start) as { year: number; month: number; day: number };
  if (year >= 9999) return '9999-12-31';
  const next = String(year + 1).padStart(4, '0');
  let d = day;
  while (d > 1 && dateProblem(calendar, `${next}-${pad2(month)}-${pad2(d)}`) !== null) d--;
  return `${next}-${pad2(month)}-${pad2(d)}`;
}

/**
 * The site.yaml and the entry init writes, read as a build reads them: an option that would make
 * a directory its own build refuses (a title too long, say) is a usage error, and nothing is written.
 */
function checkWritten(dir: string, written: Readonly<Record<string, string>>): void {
  const text = written['site.yaml'] as string;
  const site = readSiteConfig(dir, {}, {}, ok({ text, bytes: new TextEncoder().encode(text), signature: '' }));
  const problems: Problem[] = [...site.problems];
  for (const [path, entry] of Object.entries(written))
    if (path.startsWith('entries/')) parseEntryFile(entry, path, site.config, problems);
  const [first] = problems;
  if (first !== undefined) refuse(`the ${first.file} it would write: ${first.message}`);
}

/** netlify.toml for a project that deploys `contentDir`: the build writes the edge function too. */
function netlifyToml(contentDir: string): string {
  const build = (extra: string) =>
    `npx pepys-api build --content ${shellWord(contentDir)} --out public${extra} --target netlify`;
  return `# Netlify (written by \`pepys-api init --netlify\`): the build writes the API of ${commentWord(contentDir)} into
# public/ and, with --target netlify, the edge function that answers every request under /api/
# into .netlify/v1/edge-functions/, where Netlify's build finds it (nothing to declare here).
[build]
  command = ${JSON.stringify(build(''))}
  publish = "public"

[build.environment]
  # A maintained LTS.
  NODE_VERSION = "24"

# Production links to the site's URL (Netlify's URL variable); previews to their own address.
[context.deploy-preview]
  command = ${JSON.stringify(build(' --api-origin $DEPLOY_PRIME_URL'))}

[context.branch-deploy]
  command = ${JSON.stringify(build(' --api-origin $DEPLOY_PRIME_URL'))}

[[redirects]]
  from = "/"
  to = "/api/v1"
  status = 302
`;
}

/**
 * wrangler.jsonc for a project that deploys `contentDir`: the package's Worker, which wrangler
 * bundles, in front of the build's files (as the repository's own wrangler.jsonc).
 */
function wranglerJsonc(contentDir: string, cwd: string): string {
  // The Worker of this installation: dist/'s JavaScript in the package, the sources in a checkout.
  const own = fileURLToPath(import.meta.url);
  const worker = resolve(dirname(own), '..', 'deploy', 'cloudflare', `worker${own.endsWith('.js') ? '.js' : '.ts'}`);
  const main = relative(cwd, worker).split(sep).join('/');
  const name =
    basename(resolve(cwd, contentDir))
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 54) || 'diary';
  const config = {
    name: `${name}-api`,
    main,
    compatibility_date: '2026-04-26',
    assets: {
      directory: './public',
      binding: 'ASSETS',
      run_worker_first: ['/api', '/api/*', ...DOWNLOAD_PATHS.map((p) => `!${p}`)],
      html_handling: 'none',
      not_found_handling: 'none',
    },
  };
  return `// Cloudflare Workers (written by \`pepys-api init --cloudflare\`): build with the Worker's origin,
// then deploy with wrangler:
//   npx pepys-api build --content ${commentWord(contentDir)} --out public --api-origin https://<name>.<account>.workers.dev
//   npx wrangler deploy
// Every request under /api reaches the Worker (the package's, which wrangler bundles), but the
// downloads, which the static layer serves; the Worker reads the build's files through ASSETS.
${JSON.stringify(config, null, 2)}
`;
}

/**
 * A path as one word of a POSIX shell command: as it is when it has only safe characters, else
 * single-quoted (a quote as '\''; a line break stays inside the quotes). A leading `-` would be
 * read as an option: `./` before it.
 */
function shellWord(path: string): string {
  const text = path.startsWith('-') ? `./${path}` : path;
  return /^[\w./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** A path as one word of a shell command in a comment line: with no line break, whatever it holds. */
function commentWord(path: string): string {
  // A line break would end the comment, and the rest would be read as TOML or JSON.
  return /\p{Cc}/u.test(path) ? JSON.stringify(path) : shellWord(path);
}
