// The YAML fast path (generator/content/yaml-fast.ts) held to the yaml package's answers: each
// text the fast path takes must parse to exactly what the package gives (an assertion), or it
// declines. Used by test/yaml-fast.test.ts and, on the whole diary, by test/heavy/full-diary.test.ts.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { isNode, isSeq, LineCounter, parse, parseDocument } from 'yaml';
import { NO_FAST_PATH, parseSimpleYaml, parseSimpleYamlList } from '../../generator/content/yaml-fast.ts';

/** The package's answer, or an error marker. */
function reference(text: string): unknown {
  try {
    return { ok: parse(text, { prettyErrors: true }) as unknown };
  } catch {
    return { error: true };
  }
}

export function agrees(text: string): boolean {
  const fast = parseSimpleYaml(text);
  if (fast === NO_FAST_PATH) return false;
  expect({ ok: fast }, JSON.stringify(text)).toStrictEqual(reference(text));
  return true;
}

/** The package's answer for a list: its items and the line of each, or an error marker. */
function listReference(text: string): unknown {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true });
  if (doc.errors.length > 0) return { error: true };
  const itemLines = isSeq(doc.contents)
    ? doc.contents.items.map((n) => counter.linePos(isNode(n) ? (n.range?.[0] ?? 0) : 0).line)
    : [];
  return { data: doc.toJS() as unknown, itemLines };
}

export function listAgrees(text: string): boolean {
  const fast = parseSimpleYamlList(text);
  if (fast === NO_FAST_PATH) return false;
  expect(fast, JSON.stringify(text)).toStrictEqual(listReference(text));
  return true;
}

/** Every YAML text (topic files, front matter) under `dir`; returns [taken, total]. */
export function agreesOnTree(dir: string): [number, number] {
  let taken = 0;
  let total = 0;
  const visit = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) visit(path);
      else if (e.name.endsWith('.yaml') || e.name.endsWith('.html')) {
        let text = readFileSync(path, 'utf8');
        if (e.name.endsWith('.html')) text = text.slice(4, text.indexOf('\n---\n', 3) + 1);
        total++;
        if (e.name === 'categories.yaml' ? listAgrees(text) : agrees(text)) taken++;
      }
    }
  };
  visit(dir);
  return [taken, total];
}
