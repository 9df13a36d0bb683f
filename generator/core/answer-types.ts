// The two types every part of the request path shares: how a runtime reads a file of the built
// site, and what an answer is. At the bottom on purpose: it imports nothing, so the modules that
// make answers (answer.ts, filters.ts, search/answer.ts), read files (read-files.ts, packs.ts) and
// serve them (handler.ts) all import it and none of them has to import another back.

/** Reads one file of the built site (a path relative to it); null when there is no such file. */
export type ReadFile = (file: string) => Uint8Array | null | Promise<Uint8Array | null>;

export type Answer =
  /** Serve this pre-rendered file (a path relative to the output directory), status 200. */
  | { kind: 'file'; file: string; type?: string }
  /** Send these bytes with this status. */
  | { kind: 'body'; status: number; body: string }
  /**
   * An answer that needs files of the built site first (e.g. shards of an index): the handler
   * runs it with its runtime's ReadFile. Pure otherwise, like every answer. A file it needs and
   * cannot use is thrown as an IncompleteSite (core/incomplete-site.ts), which the handler answers.
   */
  | { kind: 'compute'; run: (readFile: ReadFile) => Promise<Answer> };
