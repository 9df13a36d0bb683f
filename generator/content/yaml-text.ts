// YAML parsing with located errors.
//
// The `yaml` package is loaded when a text first needs it, not before: with the fast path
// (yaml-fast.ts) a build of content in the usual forms never does, and loading it (74 modules)
// costs ≈35 ms, 3% of a cold build of the whole diary.

import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { refuseCharacters, refuseEscapedCharacters } from './characters.ts';
import { asMapping } from './fields.ts';
import type { Problem } from './problems.ts';
import { NO_FAST_PATH, parseSimpleYaml, parseSimpleYamlList } from './yaml-fast.ts';

let yamlPackage: typeof Yaml | null = null;
function yaml(): typeof Yaml {
  yamlPackage ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yamlPackage;
}

/**
 * Parses YAML text; on a syntax error records it (with its line) and returns undefined. A
 * character content may not hold (characters.ts), in the text or written as an escape, is a
 * problem at its line too, whichever parser read the text.
 */
export function parseYaml(text: string, file: string, firstLine: number, problems: Problem[]): unknown {
  const refused = refuseCharacters(text, file, firstLine, problems);
  const data = parseYamlText(text, file, firstLine, problems);
  const mapping = refused ? null : asMapping(data);
  if (mapping !== null) refuseEscapedCharacters({ file, text, firstLine, data: mapping, problems });
  return data;
}

function parseYamlText(text: string, file: string, firstLine: number, problems: Problem[]): unknown {
  // The simple YAML that content files use is parsed in a few µs; anything else, and every
  // error, goes to the yaml package (test/yaml-fast.test.ts holds the two to the same answers).
  const fast = parseSimpleYaml(text);
  if (fast !== NO_FAST_PATH) return fast;
  const { parse, YAMLParseError } = yaml();
  try {
    return parse(text, { prettyErrors: true });
  } catch (err) {
    if (err instanceof YAMLParseError) {
      problems.push(located(err, file, firstLine));
      return undefined;
    }
    problems.push(unlocatable(err, file, firstLine));
    return undefined;
  }
}

/**
 * An error the yaml package throws while it resolves the document rather than parses it (an
 * alias to nothing, or aliases that would expand beyond its limit: the "billion laughs"): a
 * problem of the file, at the text's first line, like any other.
 */
function unlocatable(err: unknown, file: string, firstLine: number): Problem {
  const message = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
  return { file, line: firstLine, message: `malformed YAML: ${message}` };
}

function located(err: Yaml.YAMLParseError, file: string, firstLine: number): Problem {
  const line = err.linePos?.[0]?.line ?? 1;
  const message = err.message.split('\n')[0] ?? 'malformed YAML';
  return {
    file,
    line: firstLine + line - 1,
    message: `malformed YAML: ${message.replace(/ at line \d+, column \d+:?$/, '')}`,
  };
}

/**
 * Parses a YAML list in one pass, with the line of each of its items (for the category file,
 * whose problems are located item by item). On a syntax error records it and returns undefined.
 */
export function parseYamlList(
  text: string,
  file: string,
  problems: Problem[],
): { data: unknown; itemLines: number[] } | undefined {
  const refused = refuseCharacters(text, file, 1, problems);
  const parsed = parseYamlListText(text, file, problems);
  if (!refused && parsed !== undefined && Array.isArray(parsed.data))
    parsed.data.forEach((item, i) => {
      const mapping = asMapping(item);
      const baseLine = parsed.itemLines[i] ?? 1;
      if (mapping !== null) refuseEscapedCharacters({ file, text, firstLine: 1, baseLine, data: mapping, problems });
    });
  return parsed;
}

function parseYamlListText(
  text: string,
  file: string,
  problems: Problem[],
): { data: unknown; itemLines: number[] } | undefined {
  const fast = parseSimpleYamlList(text);
  if (fast !== NO_FAST_PATH) return fast;
  const { isNode, isSeq, LineCounter, parseDocument } = yaml();
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true });
  const error = doc.errors[0];
  if (error !== undefined) {
    problems.push(located(error, file, 1));
    return undefined;
  }
  const itemLines = isSeq(doc.contents)
    ? doc.contents.items.map((node) => counter.linePos(isNode(node) ? (node.range?.[0] ?? 0) : 0).line)
    : [];
  let data: unknown;
  try {
    data = doc.toJS();
  } catch (err) {
    problems.push(unlocatable(err, file, 1));
    return undefined;
  }
  return { data, itemLines };
}
