// The Pepys sample's answers are those it had before the generator learnt other diaries (issue 17:
// period, calendar, locale, webURLs, derived references): test/fixtures/pepys-sample.sha256 holds
// a hash of every file of the sample's build made at 7c4ac9f, the last commit before that work.
// On the sample, none of the derived references adds anything: no entry links to a topic page,
// and every topic without a `kind` of its own is in a category that is neither people nor places
// (135 Christmas, 137 Lent, 147 Tea, 148 Sack, 150 Cloak). The one file allowed to differ is the
// site index, which is internal (not an answer): it gained the period, the name and the webURLs.
// Issue 35 §4 changed three on purpose: the sample states its licence (site.yaml `license:
// CC0-1.0`), in the OpenAPI document, the Atom feed and the downloads listing.
// Issue 34 added files, not answers: the pages of each category's and each kind's topics
// (core/topic-lists.ts), answers that were computed and are now written, byte for byte the computed
// ones (test/topic-lists.test.ts). They are the one addition allowed.
// An answer that is meant to change updates the fixture in the same commit, saying why:
//   npm run build -- --out /tmp/s && (cd /tmp/s && find . -type f ! -path ./_data/site-index.json | sed 's#^\./##' |
//   LC_ALL=C sort | while read f; do printf '%s %s\n' "$(sha256sum "$f" | cut -c1-16)" "$f"; done)

import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { readTreeBytes, unpackTree } from './helpers/files.ts';
import { tempDir } from './helpers/temp.ts';

const dir = tempDir('pepys-sample-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('builds the Pepys sample into the files it had before other diaries could be built, byte for byte', async () => {
  const out = join(dir, 'public');
  await build({ contentDir: join(import.meta.dirname, '..', 'content'), outDir: out, quiet: true, env: {} });
  const expected = new Map(
    readFileSync(join(import.meta.dirname, 'fixtures', 'pepys-sample.sha256'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => [line.slice(17), line.slice(0, 16)] as const),
  );
  // The details are packed now (core/packs.ts): each is compared as the file it was then.
  const files = unpackTree(readTreeBytes(out));
  const index = JSON.parse(files.get('_data/site-index.json')?.toString('utf8') ?? '{}') as Record<string, unknown>;
  files.delete('_data/site-index.json');
  const got = new Map(
    [...files].map(([path, bytes]) => [path, createHash('sha256').update(bytes).digest('hex').slice(0, 16)]),
  );
  const changed = [...expected].filter(([path, hash]) => got.get(path) !== hash).map(([path]) => path);
  const written = /^api\/v1\/topics\/(categories|kinds)\/[a-z0-9-]+\/pages\/[0-9]+\.json$/;
  const added = [...got.keys()].filter((path) => !expected.has(path) && !written.test(path));
  expect([...got.keys()].filter((path) => written.test(path)).length).toBeGreaterThan(0);
  expect({ changed, added }).toEqual({ changed: [], added: [] });
  expect(index.period).toEqual({ start: '1660-01-01', end: '1669-05-31' });
  expect(index.name).toBe('Pepys diary API');
});
