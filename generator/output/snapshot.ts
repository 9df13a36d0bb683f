// What `npm start -- --no-build` serves: the output as it was when the server started, whatever
// another command writes there afterwards. A tree of hard links beside it (instant, no copy: the
// writers never change a file in place, they write new ones and rename), or of copies where links
// cannot be made (another device, a file system without them). Named `.<name>-snap-<pid>`, so that
// a server killed before it removed it leaves a leftover the next build sweeps (trash.ts).

import { copyFileSync, linkSync, mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

function linkTree(from: string, to: string): void {
  mkdirSync(to);
  for (const d of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, d.name);
    const target = join(to, d.name);
    if (d.isDirectory()) linkTree(source, target);
    else if (d.isFile()) {
      try {
        linkSync(source, target);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw err;
        copyFileSync(source, target);
      }
    }
  }
}

/** A frozen copy of the tree at `outDir` (followed if it is a link): its path, and its removal. */
export function snapshotOutput(outDir: string): { dir: string; remove: () => void } {
  const source = realpathSync(outDir);
  const dir = join(dirname(outDir), `.${basename(outDir)}-snap-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  try {
    linkTree(source, dir);
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
