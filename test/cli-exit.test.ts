// How the tools end on a pipe (a CI log): every line of a long failure reaches the reader, the
// last one included. process.stderr on a pipe is asynchronous; before writeErrorSync, an exit
// right after the write lost everything past the pipe's 64 KiB.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.ts';
import { smallSite, writeContent } from './helpers/content.ts';
import { tempDir } from './helpers/temp.ts';

describe('a failing build on a pipe', () => {
  it('prints every problem and the closing line, past 64 KiB', async () => {
    const topics: Record<string, string> = {};
    for (let id = 100; id < 3_100; id++)
      topics[`topics/${id}.yaml`] = `id: ${id}\ntitle: Topic ${id}\ncategories: [no-such-category-of-topic-${id}]\n`;
    const content = writeContent({ ...smallSite(), ...topics });
    const out = join(tempDir('pepys-exit-'), 'public');
    try {
      const r = await runCli('build', ['--content', content, '--out', out, '--quiet']);
      expect(r.code).toBe(1);
      expect(Buffer.byteLength(r.stderr)).toBeGreaterThan(128 * 1024);
      const lines = r.stderr.split('\n').filter((l) => /unknown category "no-such-category-of-topic-\d+"/.test(l));
      expect(lines).toHaveLength(3_000);
      expect(r.stderr).toMatch(/The build stopped; .* was left as it was\.\n$/);
    } finally {
      rmSync(content, { recursive: true, force: true });
    }
  });
});
