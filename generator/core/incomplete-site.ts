// A built site that lacks a file an answer needs, or has it damaged: thrown where the file is read
// (an answer's own file in handler.ts, a computed answer's files in filters.ts, search/answer.ts,
// record-page.ts) and answered once, by handle(), with the contract's 503. The 503's words are
// written here only; they differ by what is lacking (each is pinned by the tests as it is).

import type { ApiError } from './errors.ts';

/** The part of the site a computed answer's file belongs to, as its 503 names it. */
export type SitePart = 'site' | 'search index';

export class IncompleteSite extends Error {
  /** The file of the built site (a path relative to it). */
  readonly file: string;
  /**
   * What is wrong with it ('missing', 'damaged', …); null for an answer's own file, which the site
   * index lists and the site lacks.
   */
  readonly why: string | null;
  readonly part: SitePart;

  constructor(file: string, why: string | null, part: SitePart = 'site') {
    super(incompleteDetail(file, why, part));
    this.name = 'IncompleteSite';
    this.file = file;
    this.why = why;
    this.part = part;
  }

  /** The contract's error for it: 503, naming the file and the fix. */
  get error(): ApiError {
    return { status: 503, detail: this.message };
  }
}

function incompleteDetail(file: string, why: string | null, part: SitePart): string {
  const fix = 'Build and publish it again.';
  if (why === null) return `The built site is incomplete: it lacks ${file}, which its index lists. ${fix}`;
  const what = part === 'site' ? 'The built site' : "The built site's search index";
  return `${what} is incomplete: ${file} is ${why}. ${fix}`;
}
