// Content problems: where (file and line) and what. A build collects them all, then stops.

export interface Problem {
  /** Path of the file, relative to the content directory. */
  file: string;
  /** 1-based line number; 0 when the problem concerns the whole file. */
  line: number;
  message: string;
}

export function formatProblem(p: Problem, contentDir: string): string {
  const where = p.line > 0 ? `${contentDir}/${p.file}:${p.line}` : `${contentDir}/${p.file}`;
  return `${where}: ${p.message}`;
}

/** Thrown when content is invalid; carries every problem found. */
export class ContentError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[], contentDir: string) {
    const sorted = [...problems].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
    super(
      `${sorted.length} problem${sorted.length === 1 ? '' : 's'} in ${contentDir}:\n` +
        sorted.map((p) => '  ' + formatProblem(p, contentDir)).join('\n'),
    );
    this.name = 'ContentError';
    this.problems = sorted;
  }
}
