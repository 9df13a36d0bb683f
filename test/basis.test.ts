// The incremental basis (render/basis.ts): what a build saves of itself beside its manifest
// (output/manifest.ts BASIS_FILE) so that a rebuild in a fresh process renders only what its
// edits change, as the watch mode does (render/patch.ts), without reading the last output back.
// The basis holds the records the build rendered and the search index it wrote; which content files
// changed since is known from the sources file beside it. Anything it cannot vouch for (missing,
// damaged, foreign, oversized) gives nothing, and the rebuild renders every file.
//
// (These assertions were in test/patch-basis.test.ts and test/search-basis.test.ts, over the
// basis made again from the built tree's bytes, which this replaced: each is listed in the
// report of the change, and the readLive ones are below as they were.)

import { cpSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { readContent, validate } from '../generator/content/load.ts';
import { DOWNLOAD_FILES, DOWNLOADS_FILE, searchShardFile } from '../generator/core/files.ts';
import type { Entry, Topic } from '../generator/core/model.ts';
import { entryFields, topicFields } from '../generator/core/search/documents.ts';
import type { OutputFile } from '../generator/output/file.ts';
import {
  ASSETS_IGNORE_FILE,
  auditTree,
  BASIS_FILE,
  checkTree,
  MANIFEST_FILE,
  type Manifest,
  readBasis,
  readManifest,
  readSources,
} from '../generator/output/manifest.ts';
import { beginRebuild } from '../generator/output/rebuild.ts';
import { parseBasis, patchBasisSteps, type SavedBasis } from '../generator/render/basis.ts';
import { postingsMap } from '../generator/render/layered-postings.ts';
import { patchSite } from '../generator/render/patch.ts';
import { renderSite } from '../generator/render/render-site.ts';
import { collectionIndex } from '../generator/render/search-index.ts';
import { runToEnd } from '../generator/render/steps.ts';
import { checkBasisDamage } from './helpers/basis-damage.ts';
import { replaceIn, writeContent } from './helpers/content.ts';
import { ColdBuilds } from './helpers/edit-sequences.ts';
import { comparable, readTreeBytes } from './helpers/files.ts';
import { sampleSite } from './helpers/local-server.ts';
import { mediumSite } from './helpers/medium-site.ts';
import { tempDir } from './helpers/temp.ts';

/** A medium site (or a smaller one) built into a new directory. */
async function built(entries = 120, topics = 40) {
  const contentDir = writeContent(mediumSite(entries, topics));
  const out = join(tempDir('pepys-basis-'), 'public');
  await build({ contentDir, outDir: out, quiet: true, env: {} });
  const manifest = readManifest(out);
  if (manifest === null) throw new Error('no manifest');
  return { contentDir, out, manifest };
}

/** The basis the build saved in `out`, read as a rebuild reads it. */
function savedBasis(out: string): SavedBasis {
  const m = readManifest(out);
  const bytes = m === null ? null : readBasis(out, m).bytes;
  const saved = bytes === null ? null : parseBasis(bytes);
  if (saved === null) throw new Error('no basis');
  return saved;
}

/**
 * One build of the medium site for every test that only reads its output or its content (the
 * first and third tests, editedAfterBuild), with the model it rendered: neither is ever changed
 * (each edit is of a copy of the content); a test that changes either builds its own (built()).
 */
let pristine: Promise<{ contentDir: string; out: string; manifest: Manifest; before: OutputFile[] }> | undefined;
function pristineBuild() {
  pristine ??= built().then(async (b) => {
    const v = validate(await readContent(b.contentDir, { env: {}, readAhead: false }));
    if (!v.ok) throw new Error(v.problems[0]?.message);
    return { ...b, before: renderSite(v.model) };
  });
  return pristine;
}

/**
 * A built site, then a copy of its content edited by `edit`: the new content read, and the tree's
 * records (the file labels of the sources are relative to the content directory).
 */
async function editedAfterBuild(edit: (contentDir: string) => void) {
  const { contentDir: original, out, manifest, before } = await pristineBuild();
  const contentDir = join(tempDir('pepys-basis-edited-'), 'content');
  cpSync(original, contentDir, { recursive: true });
  edit(contentDir);
  const state = await readContent(contentDir, { env: {}, readAhead: false, fingerprint: true });
  const v = validate(state);
  if (!v.ok) throw new Error(v.problems[0]?.message);
  return { contentDir, out, state, model: v.model, live: readSources(out, manifest), saved: savedBasis(out), before };
}

describe('the basis a build saves', () => {
  // Was test/search-basis.test.ts "is the index the build made of the model, and the entries are
  // the model's": now of both collections, and of every field of the records.
  it('holds the index the build made of the model, and the model’s records', async () => {
    // Reads only: the one pristine build (its model is the one built()'s content renders).
    const { contentDir, out } = await pristineBuild();
    const v = validate(await readContent(contentDir, { env: {}, readAhead: false }));
    if (!v.ok) throw new Error(v.problems[0]?.message);
    const { model } = v;
    const saved = savedBasis(out);
    const entries = collectionIndex('entries', model.entries.length, (d) => entryFields(model.entries[d] as Entry));
    const topics = collectionIndex('topics', model.topics.length, (d) => topicFields(model.topics[d] as Topic));
    expect(saved.index('entries')).toEqual({ ...entries, postings: postingsMap(entries) });
    expect(saved.index('topics')).toEqual({ ...topics, postings: postingsMap(topics) });
    expect(model.entries.map((_, p) => saved.entry(p))).toEqual(model.entries);
    expect(model.topics.map((_, p) => saved.topic(p))).toEqual(model.topics);
    expect(saved.dates).toEqual(model.entries.map((e) => e.date));
    expect(saved.ids).toEqual(model.topics.map((t) => t.id));
    expect(saved.categories).toEqual(model.categories.map((c) => c.slug));
    // A position past the list is no record.
    expect(saved.entry(model.entries.length)).toBeNull();
    expect(saved.topic(model.topics.length)).toBeNull();
  });

  it('is the same bytes for the same content, whether built cold or by a rebuild', async () => {
    const { contentDir, out } = await built();
    const other = join(tempDir('pepys-basis-again-'), 'public');
    await build({ contentDir, outDir: other, quiet: true, env: {} });
    expect(readFileSync(join(other, BASIS_FILE))).toEqual(readFileSync(join(out, BASIS_FILE)));
    // A patched rebuild, then a cold build of the same content.
    replaceIn(join(contentDir, 'entries/1660/1660-02-04.html'), '</p>', ' A word more.</p>');
    const report = await build({ contentDir, outDir: out, quiet: true, env: {} });
    expect(report).toMatchObject({ mode: 'rebuild', patched: true });
    const cold = join(tempDir('pepys-basis-cold-'), 'public');
    await build({ contentDir, outDir: cold, quiet: true, env: {}, full: true });
    expect(readFileSync(join(out, BASIS_FILE))).toEqual(readFileSync(join(cold, BASIS_FILE)));
  });

  it('is a record of the build, not one of its files: not listed, not checked, not served', async () => {
    // Reads only: the one pristine build.
    const { out, manifest } = await pristineBuild();
    expect(manifest.basis).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.files.has(BASIS_FILE)).toBe(false);
    expect(checkTree(out, manifest)).toBe(true);
    expect(auditTree(out, manifest)).toEqual([]);
    expect(readTreeBytes(out).has(BASIS_FILE)).toBe(false);
    // Nor deployed: wrangler uploads every file of the tree but those its .assetsignore names (the
    // basis is 16 MiB on the whole diary, past Cloudflare's 25 MiB an asset for a larger site).
    const ignored = readFileSync(join(out, ASSETS_IGNORE_FILE), 'utf8').split('\n');
    expect(ignored).toContain(BASIS_FILE);
    expect(ignored.filter((l) => l !== '' && !l.startsWith('#'))).toEqual([BASIS_FILE]);
    expect(manifest.files.has(ASSETS_IGNORE_FILE)).toBe(false);
    // The local server answers for it as for the manifest: there is no such answer (the run's
    // shared build of the sample, served on loopback).
    const site = sampleSite();
    expect(readFileSync(join(site.publicDir, BASIS_FILE)).length).toBeGreaterThan(0);
    for (const name of [BASIS_FILE, MANIFEST_FILE, ASSETS_IGNORE_FILE]) {
      const res = await fetch(`${site.origin}/${name}`);
      await res.arrayBuffer();
      expect(res.status, name).toBe(404);
    }
  });
});

describe("a rebuild's knowledge of the last build", () => {
  // Was test/patch-basis.test.ts, the same name.
  it('names the records edited, and the fast path then renders exactly the files that differ', async () => {
    const t = await editedAfterBuild((dir) => {
      replaceIn(join(dir, 'entries/1660/1660-01-02.html'), '</p>', ' And a word more.</p>');
      replaceIn(join(dir, 'topics/3.yaml'), /^title: (.*)$/m, 'title: $1 the Younger');
    });
    const basis = runToEnd(patchBasisSteps(t.state, t.model, t.live, t.saved));
    expect(basis).not.toBeNull();
    expect(basis?.edits.entries.map((e) => e.entry.date)).toEqual(['1660-01-02']);
    expect(basis?.edits.topics.map((e) => e.topic.id)).toEqual([3]);
    // The last build's model, made again: it renders the tree that build wrote.
    const then = new Map(renderSite(basis?.site.model as never).map((f) => [f.path, comparable(f.path, f.body)]));
    expect(then).toEqual(new Map(t.before.map((f) => [f.path, comparable(f.path, f.body)])));
    // The files the fast path renders are those in which a full render of the new model differs.
    // The downloads aside: every build makes them whole, from the new model (build.ts).
    const downloads = new Set<string>([...DOWNLOAD_FILES, DOWNLOADS_FILE]);
    const now = renderSite(t.model)
      .filter((f) => !downloads.has(f.path))
      .map((f) => ({ path: f.path, body: comparable(f.path, f.body) }));
    const differing = now.filter((f) => then.get(f.path) !== f.body).map((f) => f.path);
    expect(differing.length).toBeGreaterThan(0);
    const { files } = patchSite(basis?.site as never, basis?.edits as never);
    const patched = new Map(files.map((f) => [f.path, comparable(f.path, f.body)]));
    for (const path of differing) expect(patched.get(path), path).toBe(now.find((f) => f.path === path)?.body);
    // Nothing else differs.
    const rest = [...patched.keys()].filter((p) => !differing.includes(p));
    for (const path of rest) expect(patched.get(path), path).toBe(then.get(path));
  });

  // Was test/patch-basis.test.ts, the same name.
  it('gives nothing for a change the fast path does not take', async () => {
    const edits: Array<[string, (dir: string) => void]> = [
      ['the categories', (dir) => replaceIn(join(dir, 'categories.yaml'), /title: (.*)/, 'title: $1 and more')],
      ['the site', (dir) => replaceIn(join(dir, 'site.yaml'), /^pageSize: .*$/m, 'pageSize: 25')],
      [
        'an entry added',
        (dir) => writeFileSync(join(dir, 'entries/1660/1660-01-03.html'), '---\ndate: 1660-01-03\n---\n<p>Late.</p>\n'),
      ],
      [
        "a topic's categories",
        (dir) => replaceIn(join(dir, 'topics/3.yaml'), 'categories: [people]', 'categories: [household]'),
      ],
    ];
    for (const [what, edit] of edits) {
      const t = await editedAfterBuild(edit);
      // The edit is one: some file's hash differs from the tree's record.
      expect(
        [...(t.state.sources?.files ?? [])].some(([label, hash]) => t.live?.files.get(label) !== hash),
        what,
      ).toBe(true);
      expect(runToEnd(patchBasisSteps(t.state, t.model, t.live, t.saved)), what).toBeNull();
    }
  });

  // Was test/patch-basis.test.ts "gives nothing when a record read back does not render as the
  // tree holds it, or its sources are unknown": nothing is read back now; the record of a file
  // changed by one byte is the case of the basis file itself, below.
  it('gives nothing when its sources are unknown', async () => {
    const t = await editedAfterBuild((dir) =>
      replaceIn(join(dir, 'entries/1660/1660-01-02.html'), '</p>', ' More.</p>'),
    );
    expect(runToEnd(patchBasisSteps(t.state, t.model, t.live, t.saved))).not.toBeNull();
    expect(runToEnd(patchBasisSteps(t.state, t.model, null, t.saved))).toBeNull();
    expect(runToEnd(patchBasisSteps({ ...t.state, sources: null }, t.model, t.live, t.saved))).toBeNull();
  });
});

describe('a basis that cannot be vouched for', () => {
  // Was test/search-basis.test.ts "is nothing when a file is missing, damaged or of another
  // build", for the files the basis was read from then (the site index, the index's statistics
  // and shards, the packs): now for the one file it is read from.
  it('is not read: missing, changed by one byte, cut short, or larger than its tree could need', async () => {
    const { out } = await built();
    const path = join(out, BASIS_FILE);
    const bytes = readFileSync(path);
    const text = bytes.toString('utf8');
    const m = readManifest(out);
    if (m === null) throw new Error('no manifest');
    expect(readBasis(out, m).bytes).toEqual(bytes);
    // None recorded (the manifest of an earlier version), or not there.
    expect(readBasis(out, { ...m, basis: null }).bytes).toBeNull();
    rmSync(path);
    expect(readBasis(out, m).bytes).toBeNull();
    const damaged: Array<[string, string | Buffer]> = [
      ['changed by one byte', text.replace('"format":1', '"format":2')],
      ['cut short', text.slice(0, -1)],
      ['a byte more', Buffer.concat([bytes, Buffer.from([0xff])])],
    ];
    for (const [what, damage] of damaged) {
      writeFileSync(path, damage);
      expect(readBasis(out, m).bytes, what).toBeNull();
    }
    writeFileSync(path, bytes);
    expect(readBasis(out, m).bytes).toEqual(bytes);
    // Larger than the sum of its tree's files and a megabyte: not even read, and said.
    const budget = [...m.files.values()].reduce((n, f) => n + f.size, 1024 * 1024);
    truncateSync(path, budget + 1);
    const big = readBasis(out, m);
    expect(big.bytes).toBeNull();
    expect(big.untrusted).toMatch(/\.pepys-basis\.ndjson is \d+\.\d MiB, more than a basis of its tree needs/);
  });

  it('is not taken when it is not one, whatever its hash', () => {
    const head = '{"format":1,"entries":[],"categories":[],"topics":[]}';
    // An index: its statistics, then a line a shard.
    const index = '{"shards":1,"count":0,"lengths":[]}\n[]';
    const good = `${head}\n${index}\n${index}\n`;
    const of = (text: string) => parseBasis(Buffer.from(text));
    expect(of(good)).not.toBeNull();
    for (const [what, text] of [
      ['another format', good.replace('"format":1', '"format":2')],
      ['fewer lines', `${head}\n${index}\n`],
      ['no newline at the end', good.slice(0, -1)],
      ['keys without their records', good.replace('"entries":[]', '"entries":["1660-01-01"]')],
      ['not JSON', good.replace('"categories":[]', '"categories":[')],
    ] as const)
      expect(of(text), what).toBeNull();
    // A record is taken only as the record of its key (read when a rebuild needs it), and only
    // when it is JSON; an index only when it is of as many documents as the keys.
    const one = (line: string) =>
      of(`${head.replace('"entries":[]', '"entries":["1660-01-01"]')}\n${line}\n${index}\n${index}\n`);
    expect(one('{"date":"1660-01-01"}')?.entry(0)).toEqual({ date: '1660-01-01' });
    expect(one('{"date":"1660-01-02"}')?.entry(0)).toBeNull();
    expect(one('{"date":"1660-01-01"')?.entry(0)).toBeNull();
    expect(one('{"date":"1660-01-01"}')?.index('entries')).toBeNull();
    expect(one('{"date":"1660-01-01"}')?.index('topics')).not.toBeNull();
  });

  // A basis changed, and one of another generator, every day; all four damages (missing and
  // oversized too, which the test above shows are not read) in test/heavy/basis-damage.test.ts.
  const colds = new ColdBuilds();
  for (const what of ['changed', 'of another generator'])
    it(`a rebuild over a basis ${what} renders every file, as a cold build, and saves its own`, () =>
      checkBasisDamage(colds, what));
});

describe("a rebuild's reads of the live tree", () => {
  // Was test/search-basis.test.ts, the same name; liveRecords (the sources and the basis) too.
  it('give nothing of a tree another generator made, or one whose manifest does not say', async () => {
    const { out } = await built();
    const path = searchShardFile('entries', 0);
    const manifest = join(out, MANIFEST_FILE);
    const text = readFileSync(manifest, 'utf8');
    const generator = /"generator":("[0-9a-f]{64}")/.exec(text)?.[1];
    expect(generator).toBeDefined();
    for (const [what, changed] of [
      ['another generator', text.replace(generator as string, `"${'0'.repeat(64)}"`)],
      ['none recorded', text.replace(`"generator":${generator},`, '')],
    ] as const) {
      writeFileSync(manifest, changed);
      const rebuild = beginRebuild(out);
      if (rebuild === null) throw new Error(`${what}: no rebuild`);
      try {
        expect(rebuild.readLive(path), what).toBeNull();
        expect(rebuild.liveRecords(), what).toEqual({ sources: null, basis: null });
      } finally {
        await rebuild.abandon();
      }
      writeFileSync(manifest, text);
    }
    const rebuild = beginRebuild(out);
    try {
      expect(rebuild?.liveRecords().basis).toEqual(readFileSync(join(out, BASIS_FILE)));
    } finally {
      await rebuild?.abandon();
    }
  });

  // Was test/search-basis.test.ts, the same name.
  it('give a file only as its manifest lists it', async () => {
    const { out } = await built();
    const path = searchShardFile('entries', 0);
    const file = join(out, path);
    const bytes = readFileSync(file);
    const rebuild = beginRebuild(out);
    if (rebuild === null) throw new Error('no rebuild');
    try {
      expect(rebuild.readLive(path)).toEqual(bytes);
      expect(rebuild.readLive('not/a/file/of/the/build.json')).toBeNull();
      // Changed in place, its size and time kept: what the manifest's facts of the file cannot
      // tell, the hash of its bytes does.
      const { atime, mtime } = statSync(file);
      const changed = Buffer.from(bytes);
      changed[0] = changed[0] === 0x61 ? 0x62 : 0x61;
      writeFileSync(file, changed);
      utimesSync(file, atime, mtime);
      expect(rebuild.readLive(path)).toBeNull();
    } finally {
      await rebuild.abandon();
    }
  });
});
