// The watch mode warms its fast path up when a session starts (watch/fast-path.ts warmFastPath): a
// patch of the first entry and topic with a word put before their text, whose result is dropped.
// It must run the code a real edit runs (the search index changed, its shards written), and
// nothing of it may reach the basis the next edit is patched from.

import { join } from 'node:path';
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { readContent, validate } from '../generator/content/load.ts';
import type { Entry } from '../generator/core/model.ts';
import { postingsMap } from '../generator/render/layered-postings.ts';
import { patchSite } from '../generator/render/patch.ts';
import { type Fragments, renderSite } from '../generator/render/render-site.ts';
import type { CollectionIndex, SiteSearchIndex } from '../generator/render/search-index.ts';
import { basisOf, type RenderBasis, warmFastPath } from '../generator/watch/fast-path.ts';
import { comparable } from './helpers/files.ts';

const SAMPLE = join(import.meta.dirname, '..', 'content');

/** The sample as a session holds it once it has rendered it: its records, lists and search index. */
async function sampleBasis(): Promise<RenderBasis> {
  const state = await readContent(SAMPLE, { env: {} });
  const v = validate(state);
  if (!v.ok) throw new Error(v.problems[0]?.message);
  let fragments: Fragments | null = null;
  let search: SiteSearchIndex | null = null;
  renderSite(v.model, undefined, {
    fragments: (f) => (fragments = f),
    searchIndex: (i) => (search = i),
    withoutDownloads: true,
  });
  if (fragments === null || search === null) throw new Error('no fragments or index');
  return basisOf(state, { model: v.model, fragments, search });
}

/** Everything the basis holds, as bytes: its model, every item of its lists, its index's postings. */
function snapshot(b: RenderBasis): Buffer {
  const lists = Object.entries(b.site.fragments).map(([name, list]) => [
    name,
    Array.from({ length: list.length }, (_, i) => list.at(i)),
  ]);
  const index = (c: CollectionIndex) => ({ ...c, postings: postingsMap(c) });
  const search = b.site.search;
  return serialize({
    model: b.site.model,
    lists,
    search: search === undefined ? null : { entries: index(search.entries), topics: index(search.topics) },
  });
}

describe('the fast path warmed up', () => {
  it('renders what an edit of an entry’s and a topic’s words renders, and leaves the basis as it was', async () => {
    const basis = await sampleBasis();
    const before = snapshot(basis);
    const { site } = basis;
    const [entry] = site.model.entries;
    const paths = warmFastPath(basis);
    // The index changed and its shards made, as after an edit that moves every word of a record.
    expect(paths.filter((p) => p.startsWith('_data/search/entries/') && p.endsWith('.txt')).length).toBeGreaterThan(0);
    expect(paths.filter((p) => p.startsWith('_data/search/topics/') && p.endsWith('.txt')).length).toBeGreaterThan(0);
    // Nothing of it kept: the same site, records and index.
    expect(basis.site).toBe(site);
    expect(basis.site.model.entries[0]).toBe(entry);
    expect(snapshot(basis).equals(before)).toBe(true);
    // The next edit renders what it renders from a basis never warmed up.
    const edit = { ...(entry as Entry), entryHTML: (entry as Entry).entryHTML.replace('</p>', ' And more.</p>') };
    const files = (b: RenderBasis) =>
      patchSite(b.site, { entries: [{ position: 0, entry: edit }], topics: [] }).files.map((f) => [
        f.path,
        comparable(f.path, f.body),
      ]);
    const next = files(basis);
    expect(next.length).toBeGreaterThan(1);
    expect(next).toEqual(files(await sampleBasis()));
  });
});
