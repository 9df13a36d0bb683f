// The pages of each category's and each kind's topics (core/topic-lists.ts): the build writes
// them, and a request for one filter alone is answered from its page, one file read, with the
// bytes the same request gets computed from the topics' details (an index without the counts).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../generator/content/load.ts';
import type { ReadFile } from '../generator/core/answer-types.ts';
import { SITE_INDEX_FILE } from '../generator/core/files.ts';
import { handle } from '../generator/core/handler.ts';
import type { Model } from '../generator/core/model.ts';
import { TOPIC_KINDS } from '../generator/core/record-fields.ts';
import { loadSiteIndex, type SiteIndex } from '../generator/core/site-index.ts';
import { type TopicList, topicListFile } from '../generator/core/topic-lists.ts';
import { renderedSite } from './helpers/rendered.ts';

const CONTENT = join(import.meta.dirname, '..', 'content');
const decoder = new TextDecoder();

/** The sample rendered at a page size, its files, and its index with and without the lists' counts. */
async function rendered(pageSize: number) {
  const { model: sample } = await loadContent(CONTENT);
  const model: Model = { ...sample, config: { ...sample.config, pageSize } };
  const { files, site } = renderedSite(model, { withoutDownloads: true });
  const raw = JSON.parse(decoder.decode(files.get(SITE_INDEX_FILE))) as Record<string, unknown>;
  const { categoryTopics: _c, kindTopics: _k, ...older } = raw;
  const computed = loadSiteIndex(older);
  if (!computed.ok) throw new Error(computed.error);
  return { model, files, site, computed: computed.value };
}

async function get(site: SiteIndex, files: ReadonlyMap<string, Uint8Array>, target: string) {
  const reads: string[] = [];
  const read: ReadFile = (file) => {
    reads.push(file);
    return files.get(file) ?? null;
  };
  const [path, query = ''] = target.split('?');
  const r = await handle({ method: 'GET', path: path as string, query, header: () => null }, site, read);
  return { answer: `${r.status} ${decoder.decode(r.body)}`, reads };
}

describe('the pages of a category’s and a kind’s topics', () => {
  for (const pageSize of [50, 3]) {
    it(`are the computed pages, byte for byte, each one file read (page size ${pageSize})`, async () => {
      const { model, files, site, computed } = await rendered(pageSize);
      const lists: TopicList[] = [
        ...model.categories.map((c): TopicList => ({ filter: 'category', value: c.slug })),
        ...TOPIC_KINDS.map((value): TopicList => ({ filter: 'kind', value })),
      ];
      const written = new Set<string>();
      let multiPage = 0;
      for (const list of lists) {
        const count =
          list.filter === 'kind'
            ? model.topics.filter((t) => t.kind === list.value).length
            : (model.categoryTopics.get(list.value) ?? []).length;
        expect(site.topicListCount(list), list.value).toBe(count);
        expect(computed.topicListCount(list), list.value).toBeNull();
        const pages = Math.max(1, Math.ceil(count / pageSize));
        if (pages > 1) multiPage++;
        const filter = `${list.filter}=${list.value}`;
        const every = Array.from({ length: pages }, (_, i) => String(i + 1));
        for (const page of ['', '01', 'last', '0', String(pages + 1), 'x', ...every]) {
          const target = `/api/v1/topics?${filter}${page === '' ? '' : `&page=${page}`}`;
          const fromPage = await get(site, files, target);
          const fromDetails = await get(computed, files, target);
          expect(fromPage.answer, target).toBe(fromDetails.answer);
          const found = fromPage.answer.startsWith('200 ');
          // One file when there are topics and the page is one of theirs; none for an error or an
          // empty list (no page written: the computed one reads the category's detail).
          if (found && count > 0) {
            expect(fromPage.reads, target).toHaveLength(1);
            written.add(fromPage.reads[0] as string);
          } else if (count > 0) expect(fromPage.reads, target).toEqual([]);
        }
        // Every page is written, and no other.
        for (let page = 1; page <= pages; page++)
          expect(files.has(topicListFile(list, page)), `${filter} ${page}`).toBe(count > 0);
        expect(files.has(topicListFile(list, pages + 1)), filter).toBe(false);
      }
      const all = [...files.keys()].filter((f) => /^api\/v1\/topics\/(categories|kinds)\//.test(f));
      expect(all.sort()).toEqual([...written].sort());
      if (pageSize === 3) expect(multiPage).toBeGreaterThan(3);
    });
  }

  it("give a category's topics of one kind, out of that category's pages, not the topics' details", async () => {
    for (const pageSize of [50, 3]) {
      const { model, files, site, computed } = await rendered(pageSize);
      let shown = 0;
      for (const c of model.categories)
        for (const kind of TOPIC_KINDS)
          for (const page of ['', '2', 'last']) {
            const target = `/api/v1/topics?category=${c.slug}&kind=${kind}&page=${page}`;
            const a = await get(site, files, target);
            expect(a.answer, target).toBe((await get(computed, files, target)).answer);
            if (!a.answer.startsWith('200 ')) continue;
            shown += (JSON.parse(a.answer.slice(4)) as { results: unknown[] }).results.length;
            // The category's detail, the kinds file, and pages of the category's topics alone.
            const packs = a.reads.filter((f) => f.startsWith('_data/records/'));
            const pages = a.reads.filter((f) => f.startsWith(`api/v1/topics/categories/${c.slug}/pages/`));
            expect(packs.length + pages.length + 1, target).toBe(a.reads.length);
            expect(
              packs.filter((f) => f.startsWith('_data/records/topics/')),
              target,
            ).toEqual([]);
            // The category's detail once: it both narrows the list and places its items.
            expect(packs.filter((f) => f.startsWith('_data/records/categories/')).length, target).toBe(1);
          }
      expect(shown).toBeGreaterThan(10);
    }
    // With a search, the page's items are read out of the topics' details (their text is searched).
    const { files, site, computed } = await rendered(3);
    const target = '/api/v1/topics?kind=person&search=the';
    const a = await get(site, files, target);
    expect(a.answer.startsWith('200 ')).toBe(true);
    expect(a.answer).toBe((await get(computed, files, target)).answer);
  });

  it('an index whose counts are not counts is refused, saying which', async () => {
    const { files } = await rendered(50);
    const raw = JSON.parse(decoder.decode(files.get(SITE_INDEX_FILE))) as Record<string, unknown>;
    const refused = (file: Record<string, unknown>) => {
      const r = loadSiteIndex(file);
      return r.ok ? 'loaded' : r.error;
    };
    const counts = raw.categoryTopics as number[];
    expect(refused({ ...raw, categoryTopics: counts.slice(1) })).toBe(
      '"categoryTopics" is not a count of topics for each category',
    );
    expect(refused({ ...raw, categoryTopics: [-1, ...counts.slice(1)] })).toBe(
      '"categoryTopics" is not a count of topics for each category',
    );
    expect(refused({ ...raw, kindTopics: { person: 1, place: 2 } })).toBe(
      '"kindTopics" is not a count of topics for each kind',
    );
    expect(refused({ ...raw, kindTopics: { person: 1, place: 2, default: 0.5 } })).toBe(
      '"kindTopics" is not a count of topics for each kind',
    );
  });
});
