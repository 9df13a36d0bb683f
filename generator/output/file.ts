// One file of the output, as the renderers make it and the writers write it: the writers' unit,
// defined here so that output/ needs nothing of render/ (which sits above it: see
// docs/architecture.md, "Layers and the import check").

export interface OutputFile {
  /** Relative to the output directory, `/`-separated. */
  path: string;
  /** Text (written as UTF-8), or bytes for the few binary files (the downloads). */
  body: string | Uint8Array;
}

/** A file of text: every file but the downloads. */
export interface TextFile extends OutputFile {
  body: string;
}

/**
 * Bytes made a piece at a time, anew each time they are asked for: a large record of the build
 * (its basis: 16 MB on the whole diary, 124 MB at thirty times the topics) written and hashed
 * as it is made, never held whole.
 */
export interface Pieces {
  pieces(): Iterable<Uint8Array>;
}

/**
 * Bytes written ahead into a temporary file on the file system of the tree they go to, with their
 * hash (replace-file.ts writeAhead): renamed into place later (a record by writeManifest).
 */
export interface WrittenAhead {
  temp: string;
  hash: string;
}

/** A record's bytes: whole, in pieces, or already written ahead. */
export type RecordBytes = Uint8Array | Pieces | WrittenAhead;
