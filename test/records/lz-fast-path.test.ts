// The edges of the lz4 and snappy decoders' 16-byte fast paths (assembly/records/common.ts wild
// copies): blocks built sequence by sequence from random literals and matches, with offsets of
// 1..15 (matches overlapping their own output) as often as longer ones, decoded with the limit set
// to exactly the output's size (the last literals end at the cap) and one byte less; compared with
// a byte-by-byte reference expansion written here.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compress, decompress, RecordsError } from '../../src/records/index.js';

interface Sequence { literals: number[]; offset: number; length: number }

const literal = fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 40 });
const sequence = fc.record({
  literals: literal,
  offset: fc.oneof(fc.integer({ min: 1, max: 15 }), fc.integer({ min: 16, max: 80 })),
  length: fc.integer({ min: 4, max: 64 }),
});
const block = fc.record({ sequences: fc.array(sequence, { minLength: 1, maxLength: 40 }), tail: literal });

/** Makes every match valid (offset within what is already output) and expands the block byte by byte. */
function expand(sequences: Sequence[], tail: number[]): { sequences: Sequence[]; output: Uint8Array } {
  const out: number[] = [];
  const fixed = sequences.map((s) => {
    const literals = out.length + s.literals.length === 0 ? [7] : s.literals;
    out.push(...literals);
    const offset = Math.min(s.offset, out.length);
    for (let i = 0; i < s.length; i++) out.push(out[out.length - offset]);
    return { literals, offset, length: s.length };
  });
  out.push(...tail);
  return { sequences: fixed, output: Uint8Array.from(out) };
}

function lz4Length(out: number[], n: number): void {
  for (n -= 15; n >= 255; n -= 255) out.push(255);
  out.push(n);
}

/** One LZ4 block: each sequence as token, literals, offset, then the tail as a literals-only sequence. */
function lz4Block(sequences: Sequence[], tail: number[]): number[] {
  const b: number[] = [];
  for (const s of sequences) {
    const ml = s.length - 4;
    b.push((Math.min(s.literals.length, 15) << 4) | Math.min(ml, 15));
    if (s.literals.length >= 15) lz4Length(b, s.literals.length);
    b.push(...s.literals, s.offset & 255, s.offset >> 8);
    if (ml >= 15) lz4Length(b, ml);
  }
  b.push(Math.min(tail.length, 15) << 4);
  if (tail.length >= 15) lz4Length(b, tail.length);
  b.push(...tail);
  return b;
}

/** An LZ4 frame holding one compressed block: the frame header of our own encoder (64 KiB blocks, no checksums). */
function lz4Frame(blockBytes: number[]): Uint8Array {
  const header = compress('lz4', new Uint8Array(1)).subarray(0, 7);
  const n = blockBytes.length;
  return Uint8Array.from([...header, n & 255, (n >> 8) & 255, (n >> 16) & 255, n >>> 24, ...blockBytes, 0, 0, 0, 0]);
}

/** A raw snappy block: preamble, literal elements, and copies with 1- or 2-byte offsets. */
function snappyRaw(sequences: Sequence[], tail: number[], size: number): Uint8Array {
  const b: number[] = [];
  for (let v = size; ; v >>>= 7) { if (v < 0x80) { b.push(v); break; } b.push((v & 0x7f) | 0x80); }
  const literals = (l: number[]) => {
    if (l.length === 0) return;
    if (l.length <= 60) b.push((l.length - 1) << 2);
    else b.push(60 << 2, l.length - 1);
    b.push(...l);
  };
  for (const s of sequences) {
    literals(s.literals);
    if (s.length <= 11 && s.offset < 2048) b.push(((s.offset >> 8) << 5) | ((s.length - 4) << 2) | 1, s.offset & 255);
    else b.push(((s.length - 1) << 2) | 2, s.offset & 255, s.offset >> 8);
  }
  literals(tail);
  return Uint8Array.from(b);
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
const code = (f: () => unknown) => { try { f(); } catch (e) { return (e as RecordsError).code; } return 'decoded'; };

describe('lz4 and snappy fast paths: overlapping matches and literals ending at the cap', () => {
  it('lz4: every block decodes as the byte-by-byte expansion, with the limit at exactly its size; one byte less is refused', () => {
    fc.assert(fc.property(block, ({ sequences, tail }) => {
      const { sequences: s, output } = expand(sequences, tail);
      const frame = lz4Frame(lz4Block(s, tail));
      expect(same(decompress('lz4', frame, { maxDecompressedBytes: output.length }), output)).toBe(true);
      expect(same(decompress('lz4', frame), output)).toBe(true);
      expect(code(() => decompress('lz4', frame, { maxDecompressedBytes: output.length - 1 }))).toBe('DECOMPRESSED_TOO_LARGE');
    }), { numRuns: 300 });
  });

  it('snappy: the same, and a stated size one byte short is refused', () => {
    fc.assert(fc.property(block, ({ sequences, tail }) => {
      const { sequences: s, output } = expand(sequences, tail);
      const raw = snappyRaw(s, tail, output.length);
      expect(same(decompress('snappy', raw, { maxDecompressedBytes: output.length }), output)).toBe(true);
      expect(code(() => decompress('snappy', raw, { maxDecompressedBytes: output.length - 1 }))).toBe('DECOMPRESSED_TOO_LARGE');
      // The preamble states one byte less than the elements produce: the last element overruns it.
      expect(code(() => decompress('snappy', snappyRaw(s, tail, output.length - 1)))).toBe('CORRUPT_COMPRESSED_DATA');
    }), { numRuns: 300 });
  });

  it('a match reaching one byte before the output start is corrupt, at any point of a block', () => {
    fc.assert(fc.property(block, fc.nat(), ({ sequences, tail }, pick) => {
      const { sequences: s } = expand(sequences, tail);
      const i = pick % s.length;
      const before = s.slice(0, i).reduce((n, x) => n + x.literals.length + x.length, 0) + s[i].literals.length;
      const bad = s.map((x, j) => (j === i ? { ...x, offset: before + 1 } : x));
      fc.pre(before + 1 <= 0xffff);
      expect(code(() => decompress('lz4', lz4Frame(lz4Block(bad, tail))))).toBe('CORRUPT_COMPRESSED_DATA');
      const size = expand(s, tail).output.length;
      expect(code(() => decompress('snappy', snappyRaw(bad, tail, size)))).toBe('CORRUPT_COMPRESSED_DATA');
    }), { numRuns: 300 });
  });
});

describe('lz4 on hostile blocks: nothing is written past the cap', () => {
  it('mutated frames of 64 KiB of text, decoded straight into WebAssembly memory with a canary after the cap', async () => {
    const { wasm, alloc, mem, copyIn, top, setTop } = await import('../../src/records/engine.js');
    const words = Array.from({ length: 9000 }, (_, i) => `w${(i * 7919) % 613} ${i % 17 === 0 ? 'x'.repeat(i % 40) : ''}`).join(' ');
    const data = new TextEncoder().encode(words).subarray(0, 65536);
    const seed = compress('lz4', data); // our frames carry no content checksum: damage reaches the block decoder
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.nat(seed.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 1, max: 70_000 }),
      (muts, cap) => {
        const m = seed.slice();
        for (const [i, v] of muts) if (i >= 11) m[i] = v; // past the frame header and block length
        const w = wasm();
        const mark = top;
        try {
          const sp = copyIn(m);
          const dst = alloc(cap + 4096); // the output and the canary after it
          mem().fill(0xa5, dst + cap, dst + cap + 4096);
          try { w.lz4Decode(sp, m.length, dst, cap, 0); } catch { /* refused: fine */ }
          expect(mem().subarray(dst + cap, dst + cap + 4096).every((b) => b === 0xa5)).toBe(true);
        } finally {
          setTop(mark);
        }
      },
    ), { numRuns: 2000 });
  });
});
