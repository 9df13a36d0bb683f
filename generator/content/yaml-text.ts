// YAML parsing with located errors.

import { parse, YAMLParseError } from 'yaml';
import type { Problem } from './problems.ts';
import { NO_FAST_PATH, parseSimpleYaml } from './yaml-fast.ts';

/** Parses YAML text; on a syntax error records it (with its line) and returns undefined. */
export function parseYaml(text: string, file: string, firstLine: number, problems: Problem[]): unknown {
  // The simple YAML that content files use is parsed in a few µs; anything else, and every
  // error, goes to the yaml package (test/yaml-fast.test.ts holds the two to the same answers).
  const fast = parseSimpleYaml(text);
  if (fast !== NO_FAST_PATH) return fast;
  try {
    return parse(text, { prettyErrors: true });
  } catch (err) {
    if (err instanceof YAMLParseError) {
      const line = err.linePos?.[0]?.line ?? 1;
      const message = err.message.split('\n')[0] ?? 'malformed YAML';
      problems.push({ file, line: firstLine + line - 1, message: `malformed YAML: ${message.replace(/ at line \d+, column \d+:?$/, '')}` });
      return undefined;
    }
    throw err;
  }
}
