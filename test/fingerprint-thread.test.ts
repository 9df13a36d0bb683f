// The check of whether a build has anything to do hashes a big content directory's files on a
// thread of its own (content/fingerprint.ts contentFingerprint, digest-worker.mjs): it must give
// what the build records of the same files, hashed as it reads them (load.ts readContent), or a
// build over its own output would never find it current, or would find a changed one current.

import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentFingerprint } from '../generator/content/fingerprint.ts';
import { readContent } from '../generator/content/load.ts';
import { READ_AHEAD_MIN_FILES } from '../generator/content/read-ahead.ts';
import { writeContent } from './helpers/content.ts';
import { mediumSite } from './helpers/medium-site.ts';

describe('the fingerprint made on a thread of its own', () => {
  it('equals what the build records, sees an edit, and tells a dangling link from a file gone', async () => {
    // Enough files that the check hashes them on its thread.
    const content = writeContent(mediumSite(READ_AHEAD_MIN_FILES, 40));
    // Every file is newer than this: the thread tells so first, once a check.
    let newer = 0;
    const print = () => contentFingerprint(content, { env: {} }, { since: 0, onNewer: () => newer++ });
    const recorded = async () => (await readContent(content, { env: {}, fingerprint: true })).fingerprint;

    const first = await print();
    expect(newer).toBe(1);
    expect(first).toBe(await recorded());

    // An edit of one file of the thousand.
    const file = join(content, 'topics/7.yaml');
    writeFileSync(file, 'id: 7\ntitle: Topic seven\nkind: default\ncategories: [people]\n');
    const edited = await print();
    expect(edited).not.toBe(first);
    expect(edited).toBe(await recorded());

    // The file gone is as if never listed; a link to nothing in its place is not.
    rmSync(file);
    const gone = await print();
    symlinkSync(join(content, 'nowhere.yaml'), file);
    const dangling = await print();
    expect(new Set([first, edited, gone, dangling]).size).toBe(4);
    expect(newer).toBe(4);
    // Nothing newer than now: no hint, the same fingerprint.
    expect(await contentFingerprint(content, { env: {} }, { since: Date.now() + 60_000, onNewer: () => newer++ })).toBe(
      dangling,
    );
    expect(newer).toBe(4);
  });
});
