// Content validation's checks shared by the everyday suite (test/validation.test.ts) and its
// full-scale run (test/heavy/validation-scale.test.ts).

import { expect } from 'vitest';
import type { Problem } from '../../generator/content/problems.ts';
import { problemsOf, smallSite } from './content.ts';

export function expectProblem(problems: Problem[], file: string, line: number, message: RegExp): void {
  const match = problems.find((p) => p.file === file && p.line === line && message.test(p.message));
  expect(
    match,
    `expected ${file}:${line} ${message} in\n${problems.map((p) => `${p.file}:${p.line}: ${p.message}`).join('\n')}`,
  ).toBeDefined();
}

/**
 * Milliseconds of CPU this process (the test file's own fork: vitest.config.ts `pool: 'forks'`)
 * spent since `start`: the work done, not the wall time, which a loaded machine stretches (a run
 * of the whole suite beside a CI run and a build loop, load average 8, took 20.2 s of wall time
 * for the category tree of test/heavy/validation-scale.test.ts, 5 s alone).
 */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * A category chain of `depth` levels and a cycle of `cycle` categories in one categories.yaml:
 * one problem each, located, their messages bounded. Returns the CPU milliseconds the load took.
 */
export async function checkHostileTree(depth: number, cycle: number): Promise<number> {
  const chain = Array.from(
    { length: depth },
    (_, i) => `- slug: c${i}\n  title: C${i}\n${i > 0 ? `  parent: c${i - 1}\n` : ''}`,
  );
  const ring = Array.from(
    { length: cycle },
    (_, i) => `- slug: r${i}\n  title: R${i}\n  parent: r${(i + 1) % cycle}\n`,
  );
  const started = process.cpuUsage();
  const problems = await problemsOf({ ...smallSite(), 'categories.yaml': [...chain, ...ring].join('') });
  const cpuMs = cpuMsSince(started);
  const tree = problems.filter((p) => p.file === 'categories.yaml');
  // One for the chain (at its fourth level), one for the cycle.
  expect(tree).toHaveLength(2);
  expectProblem(
    problems,
    'categories.yaml',
    9,
    new RegExp(`"c3" is at depth 4; .*c0 → c1 → c2 → c3\\), and ${depth - 4} categories lie below it`),
  );
  // The chain's lines: three a category, but the first's two.
  expectProblem(
    problems,
    'categories.yaml',
    3 * depth,
    new RegExp(`"r0" is in a cycle of ${cycle} categories: r0 → r1 → r2 → r3 → r4 → r5 → … → r0`),
  );
  expect(tree.reduce((n, p) => n + p.message.length, 0)).toBeLessThan(1_000);
  return cpuMs;
}
