// The import structure of generator/: no import circles and no arrow back up (issue 33, item 5).
// The graph is drawn from the import statements of every .ts/.mjs file (type-only imports count:
// a circle of types is still a circle a reader has to hold in mind). docs/architecture.md,
// "Layers and the import check", says what the layers are and why.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const GENERATOR = join(import.meta.dirname, '..', 'generator');

/**
 * The layers, lowest first: a module may import its own layer or a lower one, never a higher one.
 * core answers requests on every runtime (no Node); paths.ts is a Node leaf (stat without
 * exceptions); content reads the diary into a model; output writes a tree of files (it knows a
 * file, output/file.ts, not how one is rendered); render turns a model into files; build.ts and
 * unchanged.ts run one build (build-types.ts: its options, report and progress reporter); the
 * programs (server, watch, verify, deploy, import) use the build or the core; the CLI, on top,
 * parses arguments and prints (import/cli.ts is `npm run import`'s CLI).
 * A file named exactly wins over its folder.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['core/'],
  ['paths.ts'],
  ['content/'],
  ['output/'],
  ['render/'],
  ['build-types.ts', 'build.ts', 'unchanged.ts'],
  ['server/', 'watch/', 'verify/', 'deploy/', 'import/'],
  ['cli/', 'import/cli.ts'],
];

/** The layer of a file (path relative to generator/, with '/'). */
function layerOf(file: string): number {
  const exact = LAYERS.findIndex((names) => names.includes(file));
  if (exact >= 0) return exact;
  const layer = LAYERS.findIndex((names) => names.some((name) => name.endsWith('/') && file.startsWith(name)));
  if (layer < 0) throw new Error(`${file} is in no layer: add it to LAYERS in test/architecture.test.ts`);
  return layer;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((dirent) => {
    const path = join(dir, dirent.name);
    if (dirent.isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(dirent.name) && !dirent.name.endsWith('.d.mts') ? [path] : [];
  });
}

// Static imports and re-exports (`import … from`, `export … from`, `import '…'`) and dynamic
// `import('…')`; only relative specifiers name generator files.
const STATIC = /^\s*(?:import|export)\b[^;'"]*?(?:from\s*)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The generator files a source imports (relative to generator/), from its text. */
function importsOf(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(STATIC), ...text.matchAll(DYNAMIC)].map((match) => match[1] ?? '');
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) =>
      relative(GENERATOR, resolve(dirname(join(GENERATOR, file)), specifier))
        .split('\\')
        .join('/'),
    )
    .map((target) => (target.endsWith('.d.mts') ? target.replace(/\.d\.mts$/, '.mjs') : target));
}

type Graph = Map<string, string[]>;

function generatorGraph(): Graph {
  const graph: Graph = new Map();
  for (const path of sourceFiles(GENERATOR)) {
    const file = relative(GENERATOR, path).split('\\').join('/');
    graph.set(file, [...new Set(importsOf(file, readFileSync(path, 'utf8')))].sort());
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan), each sorted: the import circles. */
function circles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** Every import from a lower layer to a higher one, as 'from -> to'. */
function arrowsBackUp(graph: Graph): string[] {
  return [...graph].flatMap(([from, targets]) =>
    targets.filter((to) => graph.has(to) && layerOf(to) > layerOf(from)).map((to) => `${from} -> ${to}`),
  );
}

describe('the import structure of generator/', () => {
  const graph = generatorGraph();

  it('finds a circle and an arrow back up when there is one (the check itself)', () => {
    const sample: Graph = new Map([
      ['core/a.ts', ['core/b.ts']],
      ['core/b.ts', ['core/a.ts', 'render/c.ts']],
      ['render/c.ts', ['core/a.ts']],
      ['cli/d.ts', ['render/c.ts']],
    ]);
    expect(circles(sample)).toEqual([['core/a.ts', 'core/b.ts', 'render/c.ts']]);
    expect(arrowsBackUp(sample)).toEqual(['core/b.ts -> render/c.ts']);
    expect(
      importsOf('render/x.ts', "import type {\n  A,\n} from '../core/a.ts';\nexport { b } from './b.ts';"),
    ).toEqual(['core/a.ts', 'render/b.ts']);
  });

  it('reads every file and places each in a layer', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('build.ts')).toContain('content/load.ts');
    for (const file of graph.keys()) expect(() => layerOf(file)).not.toThrow();
  });

  it('has no import circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('has no arrow back up', () => {
    expect(arrowsBackUp(graph)).toEqual([]);
  });
});
