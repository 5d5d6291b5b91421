// CRC-32C at every length where its method changes: slicing for short inputs, folding modulo a
// sparse multiple of the polynomial for long ones (with its chunked scratch and its remainder),
// checked against a bitwise reference at every length, at every alignment in WebAssembly memory,
// continued from a previous result, on the benchmark's 1 MiB, and through batch CRC verification.
import { describe, it, expect } from 'vitest';
import { crc32c, decodeRecordBatches, encodeRecordBatch } from '../../src/records/index.js';
import { alloc, mem, setTop, top, wasm } from '../../src/records/engine.js';
import { crc32cRef } from './helpers.js';
// @ts-ignore: a plain .mjs module (typed by its JSDoc), shared with the benchmark data
import { prng } from '../../bench/lib/prng.mjs';
// @ts-ignore: a plain .mjs module, the benchmark's own workload bytes
import { crcBytes } from '../../bench/lib/data.mjs';

const POLY = 0x82f63b78;

function randomBytes(n: number, seed: number): Uint8Array {
  const rnd = prng(seed);
  return new Uint8Array(n).map(() => Math.floor(rnd() * 256));
}

/** Bitwise CRC-32C of every prefix of `data`: entry n is the CRC of its first n bytes. */
function prefixCrcs(data: Uint8Array): Uint32Array {
  const out = new Uint32Array(data.length + 1);
  let c = 0xffffffff;
  out[0] = 0;
  for (let i = 0; i < data.length; i++) {
    c ^= data[i];
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    out[i + 1] = ~c >>> 0;
  }
  return out;
}

// Every length up to here: past the fold threshold and several of its scratch chunks.
const SWEEP = 70_000;

describe('CRC-32C against a bitwise reference', () => {
  const data = randomBytes(SWEEP + 64, 18);

  it('at every length from 0 to 70000', () => {
    const expected = prefixCrcs(data.subarray(0, SWEEP));
    const wrong: number[] = [];
    for (let n = 0; n <= SWEEP; n++) if (crc32c(data.subarray(0, n)) !== expected[n]) wrong.push(n);
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it('at every alignment in WebAssembly memory, random lengths', () => {
    const rnd = prng(7);
    const mark = top;
    try {
      const p = alloc(SWEEP + 64);
      for (let i = 0; i < 400; i++) {
        const off = i % 8;
        const n = Math.floor(rnd() * SWEEP);
        const d = data.subarray(i % 61, (i % 61) + n);
        mem().set(d, p + off);
        expect((wasm().crc32c(p + off, n, 0) >>> 0), `length ${n} at offset ${off}`).toBe(crc32cRef(d));
      }
    } finally {
      setTop(mark);
    }
  });

  it('continues a previous result across the fold threshold', () => {
    const whole = crc32cRef(data.subarray(0, 50_000));
    for (const cut of [0, 1, 3000, 3344, 3345, 20_000, 46_600, 49_999, 50_000]) {
      expect(crc32c(data.subarray(cut, 50_000), crc32c(data.subarray(0, cut))), `cut at ${cut}`).toBe(whole);
    }
  });

  it('on the benchmark 1 MiB and on uniform buffers', () => {
    const mib: Uint8Array = crcBytes();
    expect(crc32c(mib)).toBe(crc32cRef(mib));
    for (const fill of [0, 0xff]) {
      const d = new Uint8Array(100_003).fill(fill);
      expect(crc32c(d)).toBe(crc32cRef(d));
    }
  });
});

describe('batch CRC verification on long batches', () => {
  const value = randomBytes(40_000, 5);
  const batch = encodeRecordBatch({ records: [{ key: null, value }, { key: null, value: value.subarray(0, 9_000) }] });

  it('encodes the reference CRC, accepts the batch and rejects any corrupted byte', () => {
    expect(new DataView(batch.buffer, batch.byteOffset).getUint32(17)).toBe(crc32cRef(batch.subarray(21)));
    expect(decodeRecordBatches(batch).batches[0].records[0].value).toEqual(value);
    // The CRC covers bytes from offset 21: the first quotient words, a chunk boundary, the remainder, the tail.
    for (const at of [21, 22, 30, 16_405, 16_406, batch.length - 1700, batch.length - 9, batch.length - 1]) {
      const bad = batch.slice();
      bad[at] ^= 0x10;
      expect(() => decodeRecordBatches(bad), `byte ${at}`).toThrow(expect.objectContaining({ code: 'CRC_MISMATCH', path: 'batches[0].crc' }));
    }
  });
});
