// The benchmark's workload, prepared by the project's own tools: the whole diary through the
// importer, plus the full-scale encyclopedia fixture; and a synthetic 4x version (N times the
// topics and categories, from the fixture's --scale N, and each entry's text repeated N times: the
// diary's dates cannot grow). Prepared once under .cache/bench/ and reused while the tools and
// the corpus are unchanged.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail } from '../generator/cli/exit.ts';
import { FOOTNOTES_MARKER } from '../generator/content/parse-entry.ts';
import { mustRun, Trash } from './measure.ts';

/** The `--corpus` option of the benches that prepare the workload, and its line of their usage. */
export const CORPUS_HELP =
  '  --corpus <dir>       the Standard Ebooks edition (default: ../shared/corpus/standard-ebooks-pepys-diary)';
export function corpusOption(repo: string) {
  return { type: 'string', default: join(repo, '..', 'shared', 'corpus', 'standard-ebooks-pepys-diary') } as const;
}

/** The options of a bench that prepares the workload and writes its figures: --corpus, --json, --no-wait. */
export function benchOptions(repo: string) {
  return {
    corpus: corpusOption(repo),
    json: { type: 'string' },
    'no-wait': { type: 'boolean', default: false },
  } as const;
}

/** Their lines of its usage. */
export const BENCH_HELP = `${CORPUS_HELP}
  --json <file>        also write the figures as JSON
  --no-wait            do not wait for the file system to settle after the last run's clean-up`;

/**
 * Where the benches work (`.cache/bench`, where the workloads are prepared and kept), the trash of
 * old trees in it and a log to stderr; the corpus must exist first.
 */
export function benchPlace(repo: string, corpus: string): { work: string; trash: Trash; log: (line: string) => void } {
  if (!existsSync(corpus)) fail(`--corpus: ${corpus} does not exist`);
  const work = join(repo, '.cache', 'bench');
  return { work, trash: new Trash(join(work, 'trash')), log: (line) => process.stderr.write(`${line}\n`) };
}

export interface Workload {
  scale: number;
  contentDir: string;
  files: number;
  bytes: number;
}

const TOOLS = ['generator/import', 'scripts/fixture-encyclopedia.ts', 'bench/workload.ts'];

/** Visits every file under `dir`, depth first. */
export function walk(dir: string, visit: (path: string) => void): void {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, d.name);
    if (d.isDirectory()) walk(path, visit);
    else visit(path);
  }
}

/** Changes whenever the tools that make the workload, or the corpus, change. */
function stampOf(repo: string, corpus: string, scale: number): string {
  const h = createHash('sha256');
  h.update(`scale ${scale}\n`);
  for (const tool of TOOLS) {
    const path = join(repo, tool);
    const files: string[] = [];
    if (statSync(path).isDirectory()) walk(path, (p) => files.push(p));
    else files.push(path);
    for (const f of files.sort()) h.update(f).update(readFileSync(f));
  }
  walk(corpus, (p) => h.update(`${p} ${statSync(p).size}\n`));
  return h.digest('hex');
}

/** The number and total size of the files under `dir`. */
export function sizeOf(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  walk(dir, (p) => {
    files++;
    bytes += statSync(p).size;
  });
  return { files, bytes };
}

/** Each entry's HTML and footnotes, `times` over: that many times the text, the same dates. */
function multiplyEntries(contentDir: string, times: number): void {
  walk(join(contentDir, 'entries'), (path) => {
    const text = readFileSync(path, 'utf8');
    const close = text.indexOf('\n---\n', 3);
    if (close === -1) return;
    const head = text.slice(0, close + 5);
    const body = text.slice(close + 5);
    const marker = body.indexOf(`\n${FOOTNOTES_MARKER}`);
    const html = marker === -1 ? body : body.slice(0, marker);
    const notes = marker === -1 ? '' : body.slice(marker + FOOTNOTES_MARKER.length + 1);
    const many = (s: string) => Array.from({ length: times }, () => s).join('\n');
    writeFileSync(
      path,
      head + many(html.trimEnd()) + (marker === -1 ? '\n' : `\n${FOOTNOTES_MARKER}\n${many(notes.trim())}\n`),
    );
  });
}

/**
 * The workload at `scale`: N times the topics and categories and, unless `topicsOnly`, each entry's
 * text N times (bench/layout.ts grows the encyclopedia alone, as an archive grows).
 */
export async function prepareWorkload(
  repo: string,
  corpus: string,
  workDir: string,
  scale: number,
  trash: Trash,
  topicsOnly = false,
): Promise<Workload> {
  const name = `content-${scale}x${topicsOnly && scale !== 1 ? '-topics' : ''}`;
  const contentDir = join(workDir, name);
  const stampFile = join(workDir, `${name}.stamp`);
  const stamp = stampOf(repo, corpus, scale) + (topicsOnly ? ' topics only' : '');
  const fresh = existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp && existsSync(contentDir);
  if (!fresh) {
    process.stderr.write(`preparing the ${scale}x workload in ${contentDir} …\n`);
    trash.put(contentDir);
    const ts = 'generator/cli/node-ts.mjs';
    await mustRun(process.execPath, [ts, 'generator/import/cli.ts', 'standard-ebooks', corpus, '--out', contentDir], {
      cwd: repo,
    });
    await mustRun(process.execPath, [ts, 'scripts/fixture-encyclopedia.ts', contentDir, '--scale', String(scale)], {
      cwd: repo,
    });
    if (scale !== 1 && !topicsOnly) multiplyEntries(contentDir, scale);
    writeFileSync(stampFile, stamp);
  }
  return { scale, contentDir, ...sizeOf(contentDir) };
}
