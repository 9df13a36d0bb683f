// The watch mode keeps each record's detail and NDJSON line between its downloads (render/downloads.ts,
// a memo of render-memo.ts): an edit's downloads make again only those of the records it changed.
// Whatever the memo holds, the downloads are those made without it, byte for byte: after a text
// edit, a change of the entries that mention a topic, a record added and one removed, another origin.

import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Downloads, downloadFiles, sqlOnThisThread } from '../generator/render/downloads.ts';
import { RenderMemo } from '../generator/render/render-memo.ts';
import { modelOf, replaceIn } from './helpers/content.ts';
import { tempDir } from './helpers/temp.ts';

const SAMPLE = join(import.meta.dirname, '..', 'content');

function bytesOf(d: Downloads): Map<string, Buffer> {
  return new Map([...d.files, d.list].map((f) => [f.path, Buffer.from(f.body)]));
}

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
      const got = bytesOf(downloadFiles(model, memo));
      const made = stringify.mock.calls.length;
      stringify.mockRestore();
      const fresh = bytesOf(downloadFiles(model));
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
});
