// Holding a watch session to a cold build: the live output tree, and what a local server answers
// from it, against a fresh build of the same content directory (or, for invalid content, the
// problems a fresh load reports).

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from '../../generator/build.ts';
import type { ConfigOverrides } from '../../generator/content/config.ts';
import { loadContent } from '../../generator/content/load.ts';
import { ContentError, formatProblem, type Problem } from '../../generator/content/problems.ts';
import { createApiServer } from '../../generator/server/server.ts';
import { isDetailName, readTree } from './files.ts';
import { tempDir } from './temp.ts';

export type Tree = Map<string, string>;

/** Paths whose text differs between two trees (present in one only, or with other bytes). */
export function differing(a: Tree, b: Tree): string[] {
  // Files on disk: not the details readTree reads out of the packs.
  const paths = new Set([...a.keys(), ...b.keys()].filter((p) => !isDetailName(p)));
  return [...paths].filter((p) => a.get(p) !== b.get(p)).sort();
}

export const problemLines = (problems: readonly Problem[]) => problems.map((p) => formatProblem(p, 'content'));

export type Cold = { ok: true; tree: Tree } | { ok: false; problems: string[] };

/** A cold build of `contentDir` into a directory of its own: its tree, or the content's problems. */
export async function coldBuild(
  contentDir: string,
  overrides: ConfigOverrides,
  outDir = join(tempDir('pepys-cold-'), 'public'),
): Promise<Cold & { outDir: string }> {
  try {
    await loadContent(contentDir, { overrides, env: {} });
  } catch (err) {
    if (err instanceof ContentError) return { ok: false, problems: problemLines(err.problems), outDir };
    throw err;
  }
  await build({ contentDir, outDir, quiet: true, overrides, env: {} });
  return { ok: true, tree: readTree(outDir), outDir };
}

export interface Served {
  origin: string;
  stop(): Promise<void>;
}

/** The local server over `publicDir`, on a loopback port of its own. */
export async function serve(publicDir: string): Promise<Served> {
  const server: Server = createApiServer({ publicDir, log: () => {} });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** What a server answers, in the parts that must not differ between two servers of the same site. */
export async function answer(origin: string, path: string): Promise<string> {
  const res = await fetch(origin + path);
  const body = await res.text();
  return `${res.status} ${res.headers.get('content-type')} ${res.headers.get('etag')}\n${body}`;
}

/** A few answers worth comparing for a site: lists, computed ranges, details, errors. */
export function samplePaths(tree: ReadonlyMap<string, unknown>, pick: (n: number) => number): string[] {
  const paths = [
    '/api/v1',
    '/api/v1/entries',
    '/api/v1/entries?page=2',
    '/api/v1/entries?start=1660-01-02&end=1661-01-09',
    '/api/v1/entries?start=1659-12-01&end=1660-01-05&page=last',
    '/api/v1/topics',
    '/api/v1/categories',
    '/api/v1/topics/1',
    '/api/v1/categories/people',
    '/api/v1/entries/1660-01-01',
  ];
  const details = [...tree.keys()].filter((p) => /^api\/v1\/(entries|topics|categories)\/[^/]+\.json$/.test(p));
  for (let i = 0; i < 3 && details.length > 0; i++)
    paths.push(`/${(details[pick(details.length)] as string).replace(/\.json$/, '')}`);
  return paths;
}
