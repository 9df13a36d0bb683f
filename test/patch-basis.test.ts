// What a rebuild in a fresh process knows of the last build (render/patch-basis.ts): the content
// files changed since it (by their hashes in the tree's sources file), the records they held then
// (read back from the tree's details), its list items and its search index. Given those, the
// watch mode's fast path (render/patch.ts) renders exactly the files that differ from that tree.
// Anything it cannot vouch for gives nothing, and the rebuild renders every file.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { readContent, validate } from '../generator/content/load.ts';
import { DOWNLOAD_FILES, DOWNLOADS_FILE } from '../generator/core/files.ts';
import { packText, unpack } from '../generator/core/packs.ts';
import { readManifest, readSources } from '../generator/output/manifest.ts';
import { patchSite } from '../generator/render/patch.ts';
import { patchBasis } from '../generator/render/patch-basis.ts';
import { renderSite } from '../generator/render/render-site.ts';
import { writeContent } from './helpers/content.ts';
import { packPath } from './helpers/files.ts';
import { mediumSite } from './helpers/medium-site.ts';
import { tempDir } from './helpers/temp.ts';

/** A built site, then its content edited by `edit`: the new content read, and the tree's record. */
async function editedAfterBuild(edit: (contentDir: string) => void) {
  const contentDir = writeContent(mediumSite(120, 40));
  const out = join(tempDir('pepys-patch-basis-'), 'public');
  await build({ contentDir, outDir: out, quiet: true, env: {} });
  const before = renderSite(
    (validate(await readContent(contentDir, { env: {}, readAhead: false })) as { ok: true; model: never }).model,
  );
  edit(contentDir);
  const state = await readContent(contentDir, { env: {}, readAhead: false, fingerprint: true });
  const v = validate(state);
  if (!v.ok) throw new Error(v.problems[0]?.message);
  const manifest = readManifest(out);
  if (manifest === null) throw new Error('no manifest');
  const read = (path: string): Uint8Array | null => {
    try {
      return readFileSync(join(out, path));
    } catch {
      return null;
    }
  };
  return { contentDir, out, state, model: v.model, live: readSources(out, manifest), read, before };
}

const replaceIn = (path: string, from: RegExp | string, to: string) =>
  writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));

describe("a rebuild's knowledge of the last build", () => {
  it('names the records edited, and the fast path then renders exactly the files that differ', async () => {
    const t = await editedAfterBuild((dir) => {
      replaceIn(join(dir, 'entries/1660/1660-01-02.html'), '</p>', ' And a word more.</p>');
      replaceIn(join(dir, 'topics/3.yaml'), /^title: (.*)$/m, 'title: $1 the Younger');
    });
    const basis = patchBasis(t.state, t.model, t.live, t.read);
    expect(basis).not.toBeNull();
    expect(basis?.edits.entries.map((e) => e.entry.date)).toEqual(['1660-01-02']);
    expect(basis?.edits.topics.map((e) => e.topic.id)).toEqual([3]);
    // The last build's model, made again: it renders the tree that build wrote.
    const then = new Map(renderSite(basis?.site.model as never).map((f) => [f.path, f.body]));
    expect(then).toEqual(new Map(t.before.map((f) => [f.path, f.body])));
    // The files the fast path renders are those in which a full render of the new model differs.
    // The downloads aside: every build makes them whole, from the new model (build.ts).
    const downloads = new Set<string>([...DOWNLOAD_FILES, DOWNLOADS_FILE]);
    const now = renderSite(t.model).filter((f) => !downloads.has(f.path));
    const differing = now.filter((f) => then.get(f.path) !== f.body).map((f) => f.path);
    expect(differing.length).toBeGreaterThan(0);
    const { files } = patchSite(basis?.site as never, basis?.edits as never);
    const patched = new Map(files.map((f) => [f.path, f.body]));
    for (const path of differing) expect(patched.get(path), path).toBe(now.find((f) => f.path === path)?.body);
    // Nothing else differs.
    const rest = [...patched.keys()].filter((p) => !differing.includes(p));
    for (const path of rest) expect(patched.get(path), path).toBe(then.get(path));
  });

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
      expect(patchBasis(t.state, t.model, t.live, t.read), what).toBeNull();
    }
  });

  it('gives nothing when a record read back does not render as the tree holds it, or its sources are unknown', async () => {
    const t = await editedAfterBuild((dir) =>
      replaceIn(join(dir, 'entries/1660/1660-01-02.html'), '</p>', ' More.</p>'),
    );
    expect(patchBasis(t.state, t.model, t.live, t.read)).not.toBeNull();
    expect(patchBasis(t.state, t.model, null, t.read)).toBeNull();
    expect(patchBasis({ ...t.state, sources: null }, t.model, t.live, t.read)).toBeNull();
    // The same record, written with one space more: the same JSON, other bytes than a render.
    const pack = packPath(t.out, 'entries', '1660-01-02');
    const records = unpack(readFileSync(join(t.out, pack))) as Map<string, Uint8Array>;
    const decoder = new TextDecoder();
    const respaced = packText(
      [...records].map(([key, bytes]) => {
        const text = decoder.decode(bytes);
        return [key, key === '1660-01-02' ? text.replace('"date": ', '"date":  ') : text] as const;
      }),
    );
    const read = (path: string) => (path === pack ? new TextEncoder().encode(respaced) : t.read(path));
    expect(patchBasis(t.state, t.model, t.live, read)).toBeNull();
  });
});
