// core/byte-line.ts lineOfByte: where a byte stands, for the messages that point at one (a content
// file's bad UTF-8; verify's first differing byte of an answer, compare.ts).

import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../generator/content/read-file.ts';
import { lineOfByte } from '../generator/core/byte-line.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('lineOfByte', () => {
  it('counts lines by \\n from 1, a line starting after its \\n', () => {
    const text = bytes('ab\ncd\n\nef');
    expect(lineOfByte(text, 0)).toEqual({ line: 1, lineStart: 0 });
    expect(lineOfByte(text, 2)).toEqual({ line: 1, lineStart: 0 });
    expect(lineOfByte(text, 3)).toEqual({ line: 2, lineStart: 3 });
    expect(lineOfByte(text, 7)).toEqual({ line: 4, lineStart: 7 });
  });

  it("places a content file's bad UTF-8 at its line and column, counted in characters", () => {
    const text = new Uint8Array([...bytes('one\ntwo é '), 0xff, ...bytes('\n')]);
    expect(decodeUtf8(text, 'site.yaml')).toEqual({
      ok: false,
      error: {
        file: 'site.yaml',
        line: 2,
        message: 'not valid UTF-8: byte 0xFF at column 7 (save the file as UTF-8)',
      },
    });
  });
});
