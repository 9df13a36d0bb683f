// Where a byte of a text's bytes stands, for a message that points at it (a content file's bad
// UTF-8, the first byte a mirror's answer differs by): lines counted by `\n`, from 1.

/** The line of byte `at` and the offset its line starts at. */
export function lineOfByte(bytes: Uint8Array, at: number): { line: number; lineStart: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, lineStart };
}
