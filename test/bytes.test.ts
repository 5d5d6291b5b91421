// The byte readers of src/bytes.ts against DataView's, which read the same integers by the platform's
// own rules: every offset of random bytes, signed big-endian int16 and int32, unsigned little-endian 32;
// and the byte search in Node (Buffer's) and without it, against a plain loop.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { be16, be32, indexOfBytes, le32, searchBytes } from '../src/bytes.js';

describe('src/bytes.ts integer readers', () => {
  it('read what DataView reads at every offset', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 4, maxLength: 64 }), fc.nat(), (bytes, shift) => {
      // A view that does not start at its buffer's first byte, as frames cut from a chunk do.
      const framed = new Uint8Array(bytes.length + 3);
      framed.set(bytes, 3);
      const view = framed.subarray(3);
      const dv = new DataView(view.buffer, view.byteOffset, view.byteLength);
      const p = shift % (bytes.length - 3);
      expect(be16(view, p)).toBe(dv.getInt16(p));
      expect(be32(view, p)).toBe(dv.getInt32(p));
      expect(le32(view, p)).toBe(dv.getUint32(p, true));
    }), { numRuns: 2000 });
  });

  it('sign-extends at the edges', () => {
    const edges = Uint8Array.of(0x80, 0x00, 0x00, 0x00, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff);
    expect(be16(edges, 0)).toBe(-32768);
    expect(be16(edges, 4)).toBe(32767);
    expect(be16(edges, 8)).toBe(-1);
    expect(be32(edges, 0)).toBe(-2147483648);
    expect(be32(edges, 4)).toBe(2147483647);
    expect(be32(edges, 6)).toBe(-1);
  });
});

describe('src/bytes.ts byte search', () => {
  const naive = (hay: Uint8Array, needle: Uint8Array, from: number) => {
    for (let at = from; at + needle.length <= hay.length; at++) if (needle.every((b, i) => hay[at + i] === b)) return at;
    return -1;
  };
  it('finds what a plain loop finds, in Node and without Buffer, from every start (property)', () => {
    // Few distinct bytes, so needles occur, overlap and straddle.
    const small = (max: number) => fc.uint8Array({ maxLength: max }).map((b) => b.map((x) => x % 3));
    fc.assert(fc.property(small(40), small(4).filter((n) => n.length > 0), fc.nat(45), (bytes, needle, from) => {
      const hay = new Uint8Array(bytes.length + 2).subarray(2); // a view off its buffer's start
      hay.set(bytes);
      const want = naive(hay, needle, from);
      expect(indexOfBytes(hay, needle, from)).toBe(want);
      expect(searchBytes(hay, needle, from)).toBe(want);
    }), { numRuns: 3000 });
  });
});
