// Content problems: where (file and line) and what. A build collects them all, then stops.

export interface Problem {
  /** Path of the file, relative to the content directory; '' for the content directory itself. */
  file: string;
  /** 1-based line number; 0 when the problem concerns the whole file. */
  line: number;
  message: string;
}

// Control characters (C0 but line feed and tab, DEL, C1) and the bidirectional overrides and
// isolates, which a terminal would obey rather than show.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters escaped
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from content or the file system made safe to print: each control character written as
 * `\u{…}`. A key or a file name may hold escape sequences; a message never sends them raw.
 */
/** The 1-based line of an offset of a text. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u{${(c.codePointAt(0) as number).toString(16)}}`);
}

/** `file[:line]: reason`, the file named from the content directory as the user gave it. */
export function formatProblem(p: Problem, contentDir: string): string {
  const file = p.file === '' ? contentDir : `${contentDir}/${p.file}`;
  return printable(`${p.line > 0 ? `${file}:${p.line}` : file}: ${p.message.replaceAll('\n', ' ')}`);
}

/** Problems in the order they are reported: by file, then line, then message. */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort((a, b) =>
    a.file < b.file
      ? -1
      : a.file > b.file
        ? 1
        : a.line !== b.line
          ? a.line - b.line
          : a.message < b.message
            ? -1
            : a.message > b.message
              ? 1
              : 0,
  );
}

/** Thrown when content is invalid; carries every problem found. */
export class ContentError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[], contentDir: string) {
    const sorted = sortProblems(problems);
    super(
      `${sorted.length} problem${sorted.length === 1 ? '' : 's'} in ${contentDir}:\n` +
        sorted.map((p) => `  ${formatProblem(p, contentDir)}`).join('\n'),
    );
    this.name = 'ContentError';
    this.problems = sorted;
  }
}
