// The watch mode's rebuild after every kind of edit (test/helpers/incremental-edits.ts), moved
// from test/incremental.test.ts, which makes four of them every day (two builds an edit).

import { join } from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { BuildSession } from '../../generator/watch/session.ts';
import { writeContent } from '../helpers/content.ts';
import { checkEdits, fullBuilds } from '../helpers/incremental-edits.ts';
import { mediumSite } from '../helpers/medium-site.ts';
import { tempDir } from '../helpers/temp.ts';

const sessions: BuildSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

describe('incremental rebuilds', () => {
  it('after every kind of edit, equals a full build and rewrites exactly the files that differ', async () => {
    const contentDir = writeContent(mediumSite(120, 60));
    const outDir = join(tempDir('pepys-watch-'), 'public');
    // Downloads made within each rebuild, as test/incremental.test.ts' sessions.
    const session = await BuildSession.open({ contentDir, outDir, env: {}, downloadsDelayMs: -1 });
    sessions.push(session);
    await checkEdits(session, contentDir, outDir, fullBuilds());
  });
});
