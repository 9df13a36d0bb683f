/** What a file gives a build's fingerprint: its bytes, or why there are none (absent when no failure is named). */
export interface Input {
  bytes: Uint8Array | null;
  failure?: string;
}

/** A file read now, as the build reads content: its bytes, or the failure that stopped it, or neither when absent. */
export function readInput(path: string, maxBytes: number): Input;

/** An input's bytes' SHA-256, or `!` and its failure (`!absent` for a file that is not there). */
export function inputDigest(input: Input): string;

/** The digest of the file at `path`, or null when it is absent without a failure. */
export function fileDigest(path: string, maxBytes: number): string | null;
