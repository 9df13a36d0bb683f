// The watch mode keeps each record's detail and NDJSON line between its downloads (render/downloads.ts,
// a memo of render-memo.ts): an edit's downloads make again only those of the records it changed.
// Whatever the memo holds, the downloads are those made without it, byte for byte: after a text
// edit, a change of the entries that mention a topic, a record added and one removed, another origin.

import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { databaseRunsCopied, holdDatabaseThread } from '../generator/render/database-thread.ts';
import { downloadFiles, downloadFilesInThread, sqlOnThisThread } from '../generator/render/downloads.ts';
import { RenderMemo } from '../generator/render/render-memo.ts';
import { modelOf, replaceIn } from './helpers/content.ts';
import { downloadsBytes } from './helpers/files.ts';
import { tempDir } from './helpers/temp.ts';

const SAMPLE = join(import.meta.dirname, '..', 'content');

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the downloads made with the watch mode's memo", () => {
  it('are those made without it after every kind of change, and reuse the lines of the records unchanged', async () => {
    await sqlOnThisThread();
    const content = join(tempDir('pepys-downloads-memo-'), 'content');
    cpSync(SAMPLE, content, { recursive: true });
    const memo = new RenderMemo();
    /** Checks the memo's downloads against fresh ones; returns how many JSON texts the memo's made. */
    const check = async (what: string, apiOrigin?: string) => {
      const model = await modelOf(content, apiOrigin === undefined ? {} : { apiOrigin });
      const stringify = vi.spyOn(JSON, 'stringify');
      const got = downloadsBytes(downloadFiles(model, memo));
      const made = stringify.mock.calls.length;
      stringify.mockRestore();
      const fresh = downloadsBytes(downloadFiles(model));
      expect([...got.keys()], what).toEqual([...fresh.keys()]);
      for (const [path, bytes] of fresh) expect(got.get(path)?.equals(bytes), `${what}: ${path}`).toBe(true);
      return { model, made };
    };
    const first = await check('first');
    const { entries, topics, categories } = first.model;
    expect(first.made).toBeGreaterThan(entries.length + topics.length + categories.length);
    // The same content again, read into new objects: every entry's and topic's line is the one
    // kept; only the categories' are made again (and the downloads' list).
    expect((await check('the same')).made).toBeLessThanOrEqual(categories.length + 1);

    // An entry's text; a topic no longer mentioned by an entry (its detail lists its entries).
    replaceIn(join(content, 'entries/1660/1660-01-02.html'), '</p>', ' And a word more.</p>');
    replaceIn(join(content, 'entries/1660/1660-01-02.html'), 'topics: [78, 43, 77, 40]', 'topics: [78, 43, 77]');
    await check('a text and a mention');
    // An entry added, one removed.
    writeFileSync(
      join(content, 'entries/1660/1660-12-30.html'),
      '---\ndate: 1660-12-30\ntopics: [40]\n---\n<p>A day added.</p>\n',
    );
    rmSync(join(content, 'entries/1660/1660-01-02.html'));
    await check('an entry added and one removed');
    // Another origin: every link differs.
    await check('another origin', 'https://mirror.example.net');
  });

  it("made on the database's thread, keep a collection's gzip and a table's rows while they are the same, and only then", async () => {
    await sqlOnThisThread();
    const content = join(tempDir('pepys-downloads-gzip-memo-'), 'content');
    cpSync(SAMPLE, content, { recursive: true });
    const memo = new RenderMemo();
    let last = new Map<string, Uint8Array>();
    let copied: string[] = [];
    const EVERY_TABLE = [
      'entries',
      'entries_fts',
      'categories',
      'topics',
      'topics_fts',
      'entry_topics',
      'topic_categories',
    ];
    const but = (...changed: string[]) => EVERY_TABLE.filter((t) => !changed.includes(t));
    /**
     * The memo's downloads against fresh ones; the files whose bytes are the very last ones' (kept),
     * and the tables whose rows the database copied from the last one's (sqlite-steps.mjs `reuse`).
     */
    const check = async (what: string) => {
      const model = await modelOf(content);
      const made = await downloadFilesInThread(model, { memo });
      copied = [...databaseRunsCopied()];
      const got = new Map(made.files.map((f) => [f.path, f.body]));
      const fresh = downloadsBytes(downloadFiles(model));
      for (const [path, bytes] of fresh)
        if (path !== made.list.path)
          expect(Buffer.from(got.get(path) ?? []).equals(bytes), `${what}: ${path}`).toBe(true);
      expect(Buffer.from(made.list.body).equals(fresh.get(made.list.path) as Buffer), what).toBe(true);
      const kept = [...got]
        .filter(([path, body]) => last.get(path) === body)
        .map(([path]) => path.replace(/^.*\//, ''));
      last = got;
      return kept;
    };
    // The thread is held for the test, as a watch session holds it: the same thread from job to
    // job. A job without a memo first closes the database that an earlier file's session may have
    // left on it (files share their worker's modules, and so its threads).
    const release = holdDatabaseThread();
    try {
      await downloadFilesInThread(await modelOf(content));
      expect(await check('first')).toEqual([]);
      expect(copied).toEqual([]);
      // Read again: every entry's and topic's line is the one kept, so their gzip is too; the
      // categories' lines are made again every time.
      expect(await check('the same')).toEqual(['entries.ndjson.gz', 'topics.ndjson.gz']);
      // And every table's rows are copied from the last database.
      expect(copied).toEqual(EVERY_TABLE);
      // An entry's text: the entries' lines differ, the topics' do not.
      replaceIn(join(content, 'entries/1660/1660-01-02.html'), '</p>', ' And a word more.</p>');
      expect(await check('a text')).toEqual(['topics.ndjson.gz']);
      expect(copied).toEqual(but('entries', 'entries_fts'));
      // A mention removed: the topic's line (its entries) differs, and the entry's.
      replaceIn(join(content, 'entries/1660/1660-01-02.html'), 'topics: [78, 43, 77, 40]', 'topics: [78, 43, 77]');
      expect(await check('a mention')).toEqual([]);
      // The mentions are a table of their own (an entry's row has no column of them).
      expect(copied).toEqual(but('entry_topics'));
      // The last topic removed: every line the same, one fewer.
      const model = await modelOf(content);
      const lastTopic = model.topics.at(-1);
      expect(model.topicEntries.get(lastTopic?.id ?? -1) ?? []).toEqual([]);
      await check('before the removal');
      rmSync(join(content, 'topics', `${lastTopic?.id}.yaml`));
      expect(await check('a topic removed')).toEqual(['entries.ndjson.gz']);
      // A category's row counts its topics.
      expect(copied).toEqual(but('categories', 'topics', 'topics_fts', 'topic_categories'));
    } finally {
      release();
    }
  });
});
