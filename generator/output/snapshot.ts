// What `npm start -- --no-build` serves: the output as it was when the server started, whatever
// another command writes there afterwards. A tree of hard links beside it (instant, no copy: the
// writers never change a file in place, they write new ones and rename), or of copies where links
// cannot be made (another device, a file system without them). Named `.<name>-snap-<pid>`, so that
// a server killed before it removed it leaves a leftover the next build sweeps (trash.ts).

import { realpathSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { linkTree } from './link-tree.ts';

/** A frozen copy of the tree at `outDir` (followed if it is a link): its path, and its removal. */
export function snapshotOutput(outDir: string): { dir: string; remove: () => void } {
  const source = realpathSync(outDir);
  const dir = join(dirname(outDir), `.${basename(outDir)}-snap-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  try {
    linkTree(source, dir, 'copy');
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    process.off('exit', remove);
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', remove);
  return { dir, remove };
}
