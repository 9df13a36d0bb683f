// Content problems: where (file and line) and what. A build collects them all, then stops.

export interface Problem {
  /** Path of the file, relative to the content directory; '' for the content directory itself. */
  file: string;
  /** 1-based line number; 0 when the problem concerns the whole file. */
  line: number;
  message: string;
}

/** `file[:line]: reason`, the file named from the content directory as the user gave it. */
export function formatProblem(p: Problem, contentDir: string): string {
  const file = p.file === '' ? contentDir : `${contentDir}/${p.file}`;
  return `${p.line > 0 ? `${file}:${p.line}` : file}: ${p.message}`;
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
