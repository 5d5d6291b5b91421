// The byte readers of src/bytes.ts against DataView's, which read the same integers by the platform's
// own rules: every offset of random bytes, signed big-endian int16 and int32, unsigned little-endian 32.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { be16, be32, le32 } from '../src/bytes.js';

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
