// A rebuild where symlinks cannot be made (Windows without developer mode, some file systems):
// symlink(2) fails with EPERM here, as it does there. The rebuild's tree then takes the plain
// directory's place itself: the output stays a plain directory, right after every rebuild.

import fs, { lstatSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { smallSite, writeContent } from './helpers/content.ts';
import { readTreeBytes } from './helpers/files.ts';
import { tempDir } from './helpers/temp.ts';

// symlinkSync replaced in node:fs itself for this file's tests, and put back after them: Node
// gives a built-in module's named exports (the generator's `import { symlinkSync }`) the default
// export's properties at syncBuiltinESMExports(). Not vi.mock, which would need a module registry
// of its own (a fresh process, ≈2 s: vitest.config.ts); this file shares its worker's, and the
// files after it in the worker get the real one back.
const realSymlinkSync = fs.symlinkSync;
beforeAll(() => {
  fs.symlinkSync = () => {
    throw Object.assign(new Error('EPERM: operation not permitted, symlink'), { code: 'EPERM', syscall: 'symlink' });
  };
  syncBuiltinESMExports();
});
afterAll(() => {
  fs.symlinkSync = realSymlinkSync;
  syncBuiltinESMExports();
});

describe('a rebuild where symlinks cannot be made', () => {
  it('keeps a plain output directory, written only where bytes change, and right each time', async () => {
    // Replaced as the generator imports it (by name), not only on the default export.
    expect(() => symlinkSync('target', join(tempDir('pepys-nolinks-'), 'link'))).toThrow(/^EPERM/);
    const content = writeContent(smallSite());
    const out = join(tempDir('pepys-nolinks-'), 'public');
    const run = () => build({ contentDir: content, outDir: out, quiet: true, env: {} });
    await run();
    for (const text of ['One.', 'Two.', 'Three.']) {
      const entry = join(content, 'entries/1660/1660-01-01.html');
      writeFileSync(entry, readFileSync(entry, 'utf8').replace('<p>', `<p>${text} `));
      const report = await run();
      expect(report.mode).toBe('rebuild');
      expect(lstatSync(out).isDirectory()).toBe(true);
      const cold = join(tempDir('pepys-nolinks-cold-'), 'public');
      await build({ contentDir: content, outDir: cold, quiet: true, env: {} });
      expect(readTreeBytes(out)).toEqual(readTreeBytes(cold));
      rmSync(cold, { recursive: true, force: true });
    }
    expect((await run()).mode).toBe('unchanged');
  });
});
