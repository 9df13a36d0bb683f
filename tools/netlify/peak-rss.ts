// Runs a command and reports its wall time and the peak of the summed resident memory of its whole
// process tree (the command, and every process it starts: vitest's workers, the emulator's Deno),
// sampled from /proc every 100 ms. Linux only. For the figures of docs/netlify.md:
//
//   node generator/cli/node-ts.mjs tools/netlify/peak-rss.ts -- npx vitest run --config vitest.heavy.config.ts test/heavy/netlify-emulation.test.ts
//
// `/usr/bin/time -v` is no substitute: its "maximum resident set size" is that of the largest
// single process, not of all of them together.

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const dashdash = process.argv.indexOf('--');
const command = dashdash === -1 ? process.argv.slice(2) : process.argv.slice(dashdash + 1);
if (command.length === 0 || process.platform !== 'linux') {
  process.stderr.write(
    'usage (Linux): node generator/cli/node-ts.mjs tools/netlify/peak-rss.ts -- <command> [arguments…]\n',
  );
  process.exit(2);
}

/** Resident kB of every process in the tree under `root` (included), by pid. */
function treeRss(root: number): Map<number, { rss: number; name: string }> {
  const children = new Map<number, number[]>();
  const info = new Map<number, { rss: number; name: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      const rss = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      const name = /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '?';
      info.set(Number(entry), { rss, name });
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while it was being read.
    }
  }
  const tree = new Map<number, { rss: number; name: string }>();
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    const i = info.get(pid);
    if (i !== undefined) tree.set(pid, i);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

const started = performance.now();
const child = spawn(command[0] as string, command.slice(1), { stdio: 'inherit' });
let peak = 0;
let peakProcesses = '';
const sample = () => {
  if (child.pid === undefined) return;
  const tree = treeRss(child.pid);
  const total = [...tree.values()].reduce((sum, p) => sum + p.rss, 0);
  if (total > peak) {
    peak = total;
    const byName = new Map<string, number>();
    for (const p of tree.values()) byName.set(p.name, (byName.get(p.name) ?? 0) + p.rss);
    peakProcesses = [...byName]
      .sort((a, b) => b[1] - a[1])
      .map(([n, kb]) => `${n} ${(kb / 1024).toFixed(0)} MB`)
      .join(', ');
  }
};
const timer = setInterval(sample, 100);
child.on('exit', (code, signal) => {
  clearInterval(timer);
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(
    `\npeak-rss: ${(peak / 1024).toFixed(0)} MB summed over the process tree (then: ${peakProcesses}); wall ${seconds.toFixed(1)} s; exit ${code ?? signal}\n`,
  );
  process.exit(code ?? 1);
});
