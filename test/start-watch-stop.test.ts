// `npm start -- --watch` stops as `npm run build -- --watch` does (cli/stop-watching.ts): Ctrl-C
// stops serving at once, and the process ends once the last edit's downloads and the build's
// record are written, so that the next start or build over the same directory has nothing to do.

import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { build } from '../generator/build.ts';
import { startCli } from './helpers/cli.ts';
import { writeContent } from './helpers/content.ts';
import { ColdBuilds, differing } from './helpers/edit-sequences.ts';
import { readTreeBytes } from './helpers/files.ts';
import { editText, rebuildSite } from './helpers/rebuild-steps.ts';
import { tempDir } from './helpers/temp.ts';

vi.setConfig({ testTimeout: 60_000 });

const ORIGIN = 'https://pepys.example.org';

describe('npm start -- --watch, stopped', () => {
  it('Ctrl-C right after an edit stops serving, then waits for its downloads and record: the next build has nothing to do', async () => {
    const content = writeContent(rebuildSite());
    const out = join(tempDir('pepys-start-watch-'), 'public');
    const server = startCli('start', [
      '--watch',
      '--port',
      '0',
      '--content',
      content,
      '--out',
      out,
      '--api-origin',
      ORIGIN,
    ]);
    try {
      const listening = await server.waitFor('stdout', /Serving .* at (http:\/\/\S+)\/api\/v1/);
      const origin = listening[1];
      editText(content, 'entries/1660/1660-01-05.html', 'Stopped while serving.');
      // The edit's rebuild is live; its downloads follow a quarter of a second later.
      await server.waitFor('stdout', /1660-01-05\.html: rebuilt/);
      server.child.kill('SIGINT');
      const result = await server.done;
      expect(result.code, result.stderr).toBe(0);
      // It no longer answers.
      await expect(fetch(`${origin}/api/v1`)).rejects.toThrow();
      // Before, the process ended at once, before the downloads and the record: the next build
      // found no manifest and rendered the site again.
      const report = await build({
        contentDir: content,
        outDir: out,
        quiet: true,
        env: {},
        overrides: { apiOrigin: ORIGIN },
      });
      expect(report.mode).toBe('unchanged');
      const cold = await new ColdBuilds({ overrides: { apiOrigin: ORIGIN } }).of(content);
      if (!cold.ok) throw new Error(cold.problems.join('\n'));
      expect(differing(readTreeBytes(out), cold.tree)).toEqual([]);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});
