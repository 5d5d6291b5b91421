import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'fflate';
import { compress, decompress, RecordsError, encodeRecordBatch, decodeRecordBatches, type CompressionName } from '../../src/records/index.js';
import fc from 'fast-check';
import { concat, hasTool } from './helpers.js';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const text = fixture('text.txt');
const big = new TextEncoder().encode(Array.from({ length: 5000 }, (_, i) => `record-${String(i).padStart(6, '0')} value=${(i * i) % 977};\n`).join(''));

function corpus(): Uint8Array[] {
  const rnd = new Uint8Array(70_000);
  let x = 12345;
  for (let i = 0; i < rnd.length; i++) { x = (x * 1103515245 + 12345) >>> 0; rnd[i] = x >>> 24; }
  return [
    new Uint8Array(0), new Uint8Array([7]), new Uint8Array(13).fill(1), new Uint8Array(100_000).fill(0x61),
    text, big, rnd, concat(rnd.subarray(0, 5000), rnd.subarray(0, 5000), text),
    new TextEncoder().encode('abcabcabcabcabcabcabcabcabcabcabcab'),
  ];
}

function expectRecordsError(f: () => unknown, code: string): RecordsError {
  try { f(); } catch (e) {
    expect(e).toBeInstanceOf(RecordsError);
    expect((e as RecordsError).code).toBe(code);
    return e as RecordsError;
  }
  throw new Error(`expected RecordsError ${code}`);
}

describe('round trips of every codec', () => {
  for (const codec of ['gzip', 'snappy', 'lz4', 'zstd'] as const) {
    it(codec, () => {
      for (const data of corpus()) {
        const c = compress(codec, data);
        expect(Buffer.from(decompress(codec, c)).equals(Buffer.from(data))).toBe(true);
      }
    });
  }
  it('snappy raw framing', () => {
    for (const data of corpus()) {
      const c = compress('snappy', data, { snappyFraming: 'raw' });
      expect(Buffer.from(decompress('snappy', c)).equals(Buffer.from(data))).toBe(true);
    }
  });
  it('actually compresses (snappy, lz4)', () => {
    expect(compress('snappy', big).length).toBeLessThan(big.length / 2.5);
    expect(compress('lz4', big).length).toBeLessThan(big.length / 3);
    expect(compress('lz4', new Uint8Array(100_000)).length).toBeLessThan(1000);
  });
});

describe('snappy', () => {
  it('decodes hand-built raw blocks (literal, copy-1, copy-2, copy-4, long literal)', () => {
    // "abcabcabcabc": preamble 12, literal 'abc', copy1 (len 9, offset 3)
    expect(new TextDecoder().decode(decompress('snappy', new Uint8Array([0x0c, 0x08, 0x61, 0x62, 0x63, 0x15, 0x03])))).toBe('abcabcabcabc');
    // copy2: tag 2 | (len-1)<<2, offset LE16; copy4: tag 3 | (len-1)<<2, offset LE32
    expect(new TextDecoder().decode(decompress('snappy', new Uint8Array([0x0a, 0x04, 0x78, 0x79, 0x1e, 0x02, 0x00])))).toBe('xyxyxyxyxy');
    expect(new TextDecoder().decode(decompress('snappy', new Uint8Array([0x0a, 0x04, 0x78, 0x79, 0x1f, 0x02, 0x00, 0x00, 0x00])))).toBe('xyxyxyxyxy');
    const lit = new Uint8Array(300).map((_, i) => 65 + (i % 26));
    // literal of 300 bytes: tag 61<<2, length-1 as 2 bytes LE
    const raw = concat(new Uint8Array([0xac, 0x02, 61 << 2, 299 & 255, 299 >> 8]), lit);
    expect(Buffer.from(decompress('snappy', raw)).equals(Buffer.from(lit))).toBe(true);
  });

  it('decodes the xerial framing Java clients write', () => {
    const header = new Uint8Array([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1]);
    const b1 = new Uint8Array([0x0c, 0x08, 0x61, 0x62, 0x63, 0x15, 0x03]);
    const b2 = new Uint8Array([0x03, 0x08, 0x78, 0x79, 0x7a]);
    const framed = concat(header, new Uint8Array([0, 0, 0, b1.length]), b1, new Uint8Array([0, 0, 0, b2.length]), b2);
    expect(new TextDecoder().decode(decompress('snappy', framed))).toBe('abcabcabcabcxyz');
    const ours = compress('snappy', big);
    expect(Array.from(ours.subarray(0, 16))).toEqual(Array.from(header));
  });

  it('rejects corrupt input', () => {
    expectRecordsError(() => decompress('snappy', new Uint8Array([0x0c, 0x08, 0x61, 0x62, 0x63, 0x15, 0x04])), 'CORRUPT_COMPRESSED_DATA'); // offset > produced
    expectRecordsError(() => decompress('snappy', new Uint8Array([0x0d, 0x08, 0x61, 0x62, 0x63, 0x15, 0x03])), 'CORRUPT_COMPRESSED_DATA'); // short
    expectRecordsError(() => decompress('snappy', new Uint8Array([0x0c, 0x08, 0x61])), 'CORRUPT_COMPRESSED_DATA');
    expectRecordsError(() => decompress('snappy', new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff])), 'CORRUPT_COMPRESSED_DATA');
    const framed = compress('snappy', big);
    expectRecordsError(() => decompress('snappy', framed.subarray(0, framed.length - 3)), 'CORRUPT_COMPRESSED_DATA');
  });
});

describe('lz4 frames', () => {
  it('decodes frames written by the lz4 CLI', () => {
    for (const name of ['l_default.lz4', 'l_dep_cs.lz4', 'l_bx.lz4', 'l_hc.lz4']) {
      expect(Buffer.from(decompress('lz4', fixture(name))).equals(Buffer.from(text))).toBe(true);
    }
    for (const name of ['l_big_dep.lz4', 'l_big_b6.lz4']) {
      expect(Buffer.from(decompress('lz4', fixture(name))).equals(Buffer.from(big))).toBe(true);
    }
  });

  it('writes a valid frame header (magic, FLG, BD, xxhash32 header checksum)', () => {
    const c = compress('lz4', text);
    expect(Array.from(c.subarray(0, 6))).toEqual([0x04, 0x22, 0x4d, 0x18, 0x60, 0x40]);
    expect(c[6]).toBe(0x82); // (xxh32([0x60, 0x40], 0) >> 8) & 0xff
    expect(Array.from(c.subarray(c.length - 4))).toEqual([0, 0, 0, 0]);
  });

  it('verifies header, block and content checksums', () => {
    const bad = fixture('l_default.lz4').slice();
    bad[6] ^= 1;
    expectRecordsError(() => decompress('lz4', bad), 'CHECKSUM_MISMATCH');
    const content = fixture('l_default.lz4').slice();
    content[content.length - 1] ^= 1;
    expectRecordsError(() => decompress('lz4', content), 'CHECKSUM_MISMATCH');
    const block = fixture('l_bx.lz4').slice();
    block[20] ^= 0x40;
    expect(() => decompress('lz4', block)).toThrow(RecordsError);
  });

  it('accepts the pre-0.10 header checksum only when asked (legacy magic 0)', () => {
    const c = compress('lz4', text).slice();
    // Kafka's old checksum covered the magic too: recompute it that way.
    const wrong = legacyHeaderChecksum(c.subarray(0, 6));
    c[6] = wrong;
    expectRecordsError(() => decompress('lz4', c), 'CHECKSUM_MISMATCH');
    expect(Buffer.from(decompress('lz4', c, { legacyLz4HeaderChecksum: true })).equals(Buffer.from(text))).toBe(true);
  });

  it('rejects truncated and corrupt frames', () => {
    const c = fixture('l_default.lz4');
    for (const n of [0, 3, 6, 7, 11, 100, c.length - 5]) expect(() => decompress('lz4', c.subarray(0, n))).toThrow(RecordsError);
    const bogusOffset = new Uint8Array([0x04, 0x22, 0x4d, 0x18, 0x60, 0x40, 0x82, 4, 0, 0, 0, 0x10, 0x61, 0x09, 0x00, 0, 0, 0, 0]);
    expectRecordsError(() => decompress('lz4', bogusOffset), 'CORRUPT_COMPRESSED_DATA');
  });
});

function legacyHeaderChecksum(desc: Uint8Array): number {
  // xxh32 over magic+FLG+BD computed with a tiny independent JS implementation
  const P1 = 2654435761, P2 = 2246822519, P3 = 3266489917, P4 = 668265263, P5 = 374761393;
  const rotl = (x: number, r: number) => ((x << r) | (x >>> (32 - r))) >>> 0;
  const mul = (a: number, b: number) => Math.imul(a, b) >>> 0;
  let h = (0 + P5 + desc.length) >>> 0;
  let p = 0;
  for (; p + 4 <= desc.length; p += 4) {
    const w = (desc[p] | (desc[p + 1] << 8) | (desc[p + 2] << 16) | (desc[p + 3] << 24)) >>> 0;
    h = mul(rotl((h + mul(w, P3)) >>> 0, 17), P4);
  }
  for (; p < desc.length; p++) h = mul(rotl((h + mul(desc[p], P5)) >>> 0, 11), P1);
  h ^= h >>> 15; h = mul(h, P2); h ^= h >>> 13; h = mul(h, P3); h ^= h >>> 16;
  return (h >>> 8) & 0xff;
}

describe('zstd', () => {
  it('decodes frames written by the zstd CLI', () => {
    for (const name of ['z19.zst', 'z1.zst']) expect(Buffer.from(decompress('zstd', fixture(name))).equals(Buffer.from(text))).toBe(true);
    expect(Buffer.from(decompress('zstd', fixture('z_big.zst'))).equals(Buffer.from(big))).toBe(true);
    expect(Buffer.from(decompress('zstd', concat(fixture('z1.zst'), fixture('z19.zst')))).equals(Buffer.from(concat(text, text)))).toBe(true);
  });
  it.runIf(hasTool('zstd'))('the zstd CLI accepts our frames', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kw-zstd-'));
    try {
      for (const data of corpus()) {
        writeFileSync(join(dir, 'a.zst'), compress('zstd', data));
        const out = execFileSync('zstd', ['-d', '-c', '-q', join(dir, 'a.zst')], { maxBuffer: 1 << 24 });
        expect(Buffer.compare(out, Buffer.from(data))).toBe(0);
      }
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });
});

describe.runIf(hasTool('lz4'))('the lz4 CLI', () => {
  it('accepts our frames', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kw-lz4-'));
    try {
      for (const data of corpus()) {
        writeFileSync(join(dir, 'a.lz4'), compress('lz4', data));
        const out = execFileSync('lz4', ['-d', '-c', '-q', join(dir, 'a.lz4')], { maxBuffer: 1 << 24 });
        expect(Buffer.compare(out, Buffer.from(data))).toBe(0);
      }
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });
});

describe('decompression bomb limit', () => {
  const zeros = new Uint8Array(4 * 1024 * 1024);
  for (const codec of ['gzip', 'snappy', 'lz4', 'zstd'] as const) {
    it(codec, () => {
      const c = compress(codec, zeros);
      const e = expectRecordsError(() => decompress(codec, c, { maxDecompressedBytes: 1024 * 1024 }), 'DECOMPRESSED_TOO_LARGE');
      expect(e.message).toMatch(/1048576/);
      expect(decompress(codec, c, { maxDecompressedBytes: zeros.length }).length).toBe(zeros.length);
    });
  }
  it('applies to batches, with a path', () => {
    for (const compression of ['gzip', 'snappy', 'lz4', 'zstd'] as const) {
      const batch = encodeRecordBatch({ baseTimestamp: 0, compression, records: [{ value: zeros }] });
      const e = expectRecordsError(() => decodeRecordBatches(batch, { maxDecompressedBytes: 100_000 }), 'DECOMPRESSED_TOO_LARGE');
      expect(e.path).toBe('batches[0].records');
      expect(e.offset).toBeGreaterThanOrEqual(61);
    }
  });
  it('zstd frame declaring a huge content size is refused before allocating', () => {
    const f = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0x01, 0x00, 0x00]); // FCS 2^60
    expectRecordsError(() => decompress('zstd', f), 'DECOMPRESSED_TOO_LARGE');
    const w = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xf8, 0x01, 0x00, 0x00]); // 2^41 window
    expectRecordsError(() => decompress('zstd', w), 'DECOMPRESSED_TOO_LARGE');
  });
  it('zstd frame stating more content than its blocks can hold is corrupt', () => {
    // single segment, 2-byte content size 256 + 744 = 1000, then one last raw block of 3 bytes
    const f = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x60, 0xe8, 0x02, 0x19, 0x00, 0x00, 1, 2, 3]);
    const e = expectRecordsError(() => decompress('zstd', f), 'CORRUPT_COMPRESSED_DATA');
    expect(e.message).toMatch(/states 1000 bytes/);
  });
  it('gzip multi-member streams decode', () => {
    const a = gzipSync(text);
    expect(decompress('gzip', concat(a, a)).length).toBe(text.length * 2);
  });
});

describe('properties of the WebAssembly codecs', () => {
  // Data with structure: runs, repeats at various distances, random bytes.
  const structured = fc.array(fc.oneof(
    fc.uint8Array({ minLength: 0, maxLength: 40 }),
    fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 3000 })).map(([b, n]) => new Uint8Array(n).fill(b)),
    fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 400 })).map(([p, n]) => {
      const out = new Uint8Array(p.length * n);
      for (let i = 0; i < n; i++) out.set(p, i * p.length);
      return out;
    }),
  ), { maxLength: 40 }).map((parts) => concat(...parts));

  for (const codec of ['snappy', 'lz4'] as const) {
    it(`${codec} round-trips structured data`, () => {
      fc.assert(fc.property(structured, (data) => {
        const c = compress(codec, data);
        expect(Buffer.from(decompress(codec, c)).equals(Buffer.from(data))).toBe(true);
        if (codec === 'snappy') {
          const raw = compress(codec, data, { snappyFraming: 'raw' });
          expect(Buffer.from(decompress(codec, raw)).equals(Buffer.from(data))).toBe(true);
        }
      }), { numRuns: 300 });
    });

    it(`${codec} decoder survives mutated input (decodes or throws RecordsError)`, () => {
      survivesMutation(codec, compress(codec, concat(text, big.subarray(0, 3000))), 1500);
    });
  }
});

describe('gzip and zstd decoders survive mutated input', () => {
  const seeds = { gzip: gzipSync(concat(text, big.subarray(0, 3000))), zstd: concat(fixture('z19.zst'), fixture('z1.zst')) };
  for (const codec of ['gzip', 'zstd'] as const) {
    it(codec, () => {
      survivesMutation(codec, seeds[codec], 1000);
    });
  }
});

describe('gzip fast path and forged trailers', () => {
  const crc = (d: Uint8Array) => { let c = 0xffffffff; for (const b of d) { c ^= b; for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1; } return (c ^ 0xffffffff) >>> 0; };
  const trailer = (g: Uint8Array, c: number, size: number) => {
    const out = g.slice();
    const v = new DataView(out.buffer);
    v.setUint32(out.length - 8, c, true);
    v.setUint32(out.length - 4, size, true);
    return out;
  };
  it('a trailer claiming fewer bytes than the stream inflates to is not trusted', () => {
    const data = new Uint8Array(200_000).fill(0x41);
    const prefix = data.subarray(0, 1000);
    const forged = trailer(gzipSync(data), crc(prefix), prefix.length);
    expect(() => decompress('gzip', forged)).toThrow(expect.objectContaining({ code: 'CHECKSUM_MISMATCH' }));
    expect(() => decompress('gzip', forged, { maxDecompressedBytes: 100_000 })).toThrow(expect.objectContaining({ code: 'DECOMPRESSED_TOO_LARGE' }));
  });
  it('wrong CRC or size in the trailer', () => {
    const g = gzipSync(text);
    expect(() => decompress('gzip', trailer(g, crc(text) ^ 1, text.length))).toThrow(expect.objectContaining({ code: 'CHECKSUM_MISMATCH' }));
    expect(() => decompress('gzip', trailer(g, crc(text), text.length + 1))).toThrow(expect.objectContaining({ code: 'CHECKSUM_MISMATCH' }));
  });
  it('large inputs take the streaming path and agree', () => {
    const rnd = new Uint8Array(600_000);
    let x = 7;
    for (let i = 0; i < rnd.length; i++) { x = (x * 1103515245 + 12345) >>> 0; rnd[i] = (x >>> 24) & 0x3f; }
    const g = gzipSync(rnd);
    expect(g.length * 1032).toBeGreaterThan(4 * 1024 * 1024);
    expect(Buffer.from(decompress('gzip', g, { maxDecompressedBytes: 1024 * 1024 })).equals(Buffer.from(rnd))).toBe(true);
  });
});

/** Truncated, byte-substituted compressed data either decompresses within the limit or throws RecordsError. */
function survivesMutation(codec: CompressionName, seed: Uint8Array, numRuns: number): void {
  let refused = 0;
  fc.assert(fc.property(
    fc.array(fc.tuple(fc.nat(seed.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
    fc.nat(seed.length),
    (muts, cut) => {
      const m = seed.slice(0, Math.max(1, cut));
      for (const [i, v] of muts) if (i < m.length) m[i] = v;
      try {
        const out = decompress(codec, m, { maxDecompressedBytes: 1 << 20 });
        expect(out.length).toBeLessThanOrEqual(1 << 20);
      } catch (e) {
        if (!(e instanceof RecordsError)) throw e;
        refused++;
      }
    },
  ), { numRuns });
  // Damage is noticed: a decoder that accepted every mutation would be checking nothing.
  expect(refused).toBeGreaterThan(0);
}
