// The tests' toEqual on byte arrays (test/helpers/bytes-equality.ts, added by per-file.ts): the
// same answers as vitest's own element-by-element equality, the bytes compared at once.

import { describe, expect, it } from 'vitest';
import { bytesEqual } from './helpers/bytes-equality.ts';

describe('byte arrays in toEqual', () => {
  it('are equal when of the same kind, length and bytes, and only then', () => {
    expect(bytesEqual(Buffer.from('abc'), Buffer.from('abc'))).toBe(true);
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(bytesEqual(Buffer.from('abc'), Buffer.from('abd'))).toBe(false);
    expect(bytesEqual(Buffer.from('abc'), Buffer.from('abcd'))).toBe(false);
    expect(bytesEqual(Buffer.alloc(0), Buffer.alloc(0))).toBe(true);
    // A view of part of a larger buffer: its own bytes only.
    const big = Buffer.from('xxabcxx');
    expect(bytesEqual(big.subarray(2, 5), Buffer.from('abc'))).toBe(true);
    // Anything else, or a Buffer beside a plain Uint8Array: vitest decides, as before.
    expect(bytesEqual(Buffer.from('a'), new Uint8Array([97]))).toBeUndefined();
    expect(bytesEqual(Buffer.from('a'), 'a')).toBeUndefined();
    expect(bytesEqual(new Uint16Array([1]), new Uint16Array([1]))).toBeUndefined();
  });

  it('decide toEqual, inside maps too, as vitest did', () => {
    const tree = (last: number) => new Map([['a.json', Buffer.from([1, 2, last])]]);
    expect(tree(3)).toEqual(tree(3));
    expect(tree(3)).not.toEqual(tree(4));
    expect(new Map([['a.json', Buffer.from([1])]])).not.toEqual(new Map([['b.json', Buffer.from([1])]]));
    // vitest tells a Buffer from a plain Uint8Array of the same bytes: still so.
    expect(Buffer.from('abc')).not.toEqual(new Uint8Array([97, 98, 99]));
    expect(Buffer.alloc(300_000, 7)).toEqual(Buffer.alloc(300_000, 7));
    expect(Buffer.alloc(300_000, 7)).not.toEqual(Buffer.concat([Buffer.alloc(299_999, 7), Buffer.from([8])]));
  });
});
