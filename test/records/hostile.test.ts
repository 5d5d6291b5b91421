import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { decodeRecordBatches, encodeRecordBatch, compress, RecordsError } from '../../src/records/index.js';
import { rawRecord, rawRecordBody, rawBatch, fixCrc, zigzagVarint, bytes, concat, hex } from './helpers.js';

function expectError(input: Uint8Array, code: string, path?: string, opts = {}): RecordsError {
  try {
    decodeRecordBatches(input, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(RecordsError);
    const err = e as RecordsError;
    expect(err.code).toBe(code);
    if (path !== undefined) expect(err.path).toBe(path);
    expect(err.offset).toBeGreaterThanOrEqual(0);
    return err;
  }
  throw new Error(`expected RecordsError ${code}`);
}

const good = rawRecord({ key: bytes('k'), value: bytes('v'), headers: [{ key: bytes('h'), value: bytes('x') }] });

describe('hostile v2 input throws RecordsError', () => {
  it('bad CRC (and verifyCrc: false skips the check)', () => {
    const b = rawBatch({}, good, 1);
    b[b.length - 1] ^= 0xff;
    const e = expectError(b, 'CRC_MISMATCH', 'batches[0].crc');
    expect(e.offset).toBe(17);
    expect(decodeRecordBatches(b, { verifyCrc: false }).batches[0].records[0].headers[0].value![0]).toBe(0x78 ^ 0xff);
  });

  it('CRC error in the second batch reports its index and offset', () => {
    const a = rawBatch({}, good, 1);
    const b = rawBatch({ crc: 1 }, good, 1);
    const e = expectError(concat(a, b), 'CRC_MISMATCH', 'batches[1].crc');
    expect(e.offset).toBe(a.length + 17);
  });

  it('negative batch length, batch too short, unknown magic', () => {
    const b = rawBatch({}, good, 1);
    new DataView(b.buffer).setInt32(8, -5);
    expectError(b, 'INVALID_LENGTH', 'batches[0].batchLength');
    const short = rawBatch({}, [], 0).slice(0, 40);
    new DataView(short.buffer).setInt32(8, 28);
    expectError(short, 'BATCH_TOO_SHORT', 'batches[0].batchLength');
    expectError(rawBatch({ magic: 3 }, good, 1), 'UNSUPPORTED_MAGIC', 'batches[0].magic');
    expectError(rawBatch({ magic: -1 }, good, 1), 'UNSUPPORTED_MAGIC');
  });

  it('record counts that cannot fit are refused before any loop or allocation', () => {
    for (const count of [2, 1000, 2 ** 31 - 1]) expectError(rawBatch({}, good, count), 'INVALID_RECORD_COUNT', 'batches[0].recordCount');
    expectError(rawBatch({}, good, -1), 'INVALID_LENGTH', 'batches[0].recordCount');
    expectError(rawBatch({}, [...good, ...good], 1), 'TRAILING_BYTES', 'batches[0].records');
    // a compressed batch claiming 2^31-1 records: refused by the limit before decompressing,
    // and by the decompressed size when the limit allows it
    const c = encodeRecordBatch({ baseTimestamp: 0, compression: 'lz4', records: [{ value: 'x' }] });
    new DataView(c.buffer).setInt32(57, 2 ** 31 - 1);
    expectError(fixCrc(c), 'RECORD_LIMIT');
    expect(() => decodeRecordBatches(fixCrc(c), { maxRecordsPerBatch: 2 ** 31 })).toThrow(/record count/);
  });

  it('negative and oversized lengths inside records', () => {
    const body = (f: (b: number[]) => number[]) => { const x = f(rawRecordBody({ key: bytes('k'), value: bytes('v') })); return [...zigzagVarint(x.length, 32), ...x]; };
    // key length -2
    expectError(rawBatch({}, [...zigzagVarint(7, 32), 0, 0, 0, ...zigzagVarint(-2, 32), 0, 0, 0], 1), 'INVALID_LENGTH', 'batches[0].records[0].keyLength');
    // value length beyond the record
    expectError(rawBatch({}, [...zigzagVarint(6, 32), 0, 0, 0, 1, ...zigzagVarint(100, 32), 0], 1), 'TRUNCATED', 'batches[0].records[0].valueLength');
    // record length negative / beyond the batch
    expectError(rawBatch({}, [...zigzagVarint(-3, 32), 0, 0, 0, 0, 0, 0, 0], 1), 'INVALID_LENGTH', 'batches[0].records[0].length');
    expectError(rawBatch({}, [...zigzagVarint(1000, 32), 0, 0, 0, 1, 1, 0, 0], 1), 'TRUNCATED', 'batches[0].records[0].length');
    // header count negative / huge
    expectError(rawBatch({}, [...zigzagVarint(6, 32), 0, 0, 0, 1, 1, ...zigzagVarint(-1, 32)], 1), 'INVALID_LENGTH', 'batches[0].records[0].headerCount');
    expectError(rawBatch({}, [...zigzagVarint(10, 32), 0, 0, 0, 1, 1, ...zigzagVarint(2 ** 31 - 1, 32)], 1), 'TRUNCATED', 'batches[0].records[0].headerCount');
    // header key null, header value length -5
    expectError(rawBatch({}, [...zigzagVarint(8, 32), 0, 0, 0, 1, 1, 2, 1, 0], 1), 'INVALID_LENGTH', 'batches[0].records[0].headers[0].keyLength');
    expectError(rawBatch({}, [...zigzagVarint(9, 32), 0, 0, 0, 1, 1, 2, 0, ...zigzagVarint(-5, 32), 0], 1), 'INVALID_LENGTH', 'batches[0].records[0].headers[0].valueLength');
    // record length larger than its fields: bytes left inside the record
    expectError(rawBatch({}, body((b) => [...b, 0]), 1), 'RECORD_LENGTH_MISMATCH', 'batches[0].records[0]');
  });

  it('varints longer than 5 bytes (10 for varlongs) are errors', () => {
    const tenByte = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    // 10-byte varint as the record length
    expectError(rawBatch({}, [...tenByte, ...new Array(60).fill(0)], 1), 'VARINT_TOO_LONG', 'batches[0].records[0].length');
    // 6-byte varint as offsetDelta
    const rec = [0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 1, 1, 0];
    expectError(rawBatch({}, [...zigzagVarint(rec.length, 32), ...rec], 1), 'VARINT_TOO_LONG', 'batches[0].records[0].offsetDelta');
    // 10-byte varlong is fine, 11 bytes is not
    const ok = [0, ...tenByte, 0, 1, 1, 0];
    const r = decodeRecordBatches(rawBatch({ baseTimestamp: 0n }, [...zigzagVarint(ok.length, 32), ...ok], 1)).batches[0].records[0];
    expect(r.timestamp).toBe(-(2n ** 63n));
    const bad = [0, 0xff, ...tenByte, 0, 1, 1, 0];
    expectError(rawBatch({}, [...zigzagVarint(bad.length, 32), ...bad], 1), 'VARINT_TOO_LONG', 'batches[0].records[0].timestampDelta');
    // a 5-byte varint is fine
    const five = [0, 0, 0x80, 0x80, 0x80, 0x80, 0x00, 1, 1, 0];
    expect(decodeRecordBatches(rawBatch({}, [...zigzagVarint(five.length, 32), ...five], 1)).batches[0].records[0].offsetDelta).toBe(0);
  });

  it('unsupported compression codec', () => {
    for (const codec of [5, 6, 7]) expectError(rawBatch({ attributes: codec }, good, 1), 'UNSUPPORTED_COMPRESSION', 'batches[0].attributes');
  });

  it('corrupt compressed payloads', () => {
    for (const compression of ['gzip', 'snappy', 'lz4', 'zstd'] as const) {
      const b = encodeRecordBatch({ baseTimestamp: 0, compression, records: [{ value: 'hello hello hello hello hello' }] });
      const cut = fixCrc(rawBatch({ attributes: b[22] }, b.subarray(61, b.length - 3), 1));
      expect(() => decodeRecordBatches(cut)).toThrow(RecordsError);
      // decompresses fine but the records inside are garbage
      const wrong = encodeRecordBatch({ baseTimestamp: 0, compression, records: [{ value: 'x' }] });
      new DataView(wrong.buffer).setInt32(57, 0);
      expectError(fixCrc(wrong), 'TRAILING_BYTES');
    }
  });

  it('random mutations never crash or hang: either decode or RecordsError', () => {
    const base = concat(
      encodeRecordBatch({ baseTimestamp: 0, records: [{ key: 'a', value: 'bb', headers: [{ key: 'c', value: 'd' }] }, { value: null }] }),
      encodeRecordBatch({ baseTimestamp: 0, compression: 'lz4', records: [{ key: 'a', value: 'bbbbbbbbbbbbbbbbbbbbbb' }] }),
      encodeRecordBatch({ baseTimestamp: 0, compression: 'snappy', records: [{ key: 'a', value: 'bbbbbbbbbbbbbbbbbbbbbb' }] }),
    );
    let refusedWithCrc = 0;
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
      fc.nat(base.length),
      (muts, cut) => {
        const m = base.slice(0, Math.max(cut, 1));
        for (const [i, v] of muts) if (i < m.length) m[i] = v;
        for (const verifyCrc of [false, true]) {
          try {
            const r = decodeRecordBatches(m, { verifyCrc });
            for (const b of r.batches) for (const rec of b.records) void rec.value;
          } catch (e) {
            if (!(e instanceof RecordsError)) throw e;
            if (verifyCrc) refusedWithCrc++;
          }
        }
      },
    ), { numRuns: 3000 });
    // Most mutations land inside a CRC's span: the CRC check must have refused many of them.
    expect(refusedWithCrc).toBeGreaterThan(1000);
  });
});

describe('zigzag varint / varlong properties', () => {
  const edges32: number[] = [];
  for (const p of [6, 7, 13, 14, 20, 21, 27, 28, 30, 31]) for (const d of [-1, 0, 1]) {
    const v = 2 ** p + d;
    if (v <= 2 ** 31 - 1) edges32.push(v);
    if (-v >= -(2 ** 31)) edges32.push(-v);
  }
  edges32.push(0, -1, 1, 2 ** 31 - 1, -(2 ** 31));
  const edges64: bigint[] = [];
  for (const p of [6, 13, 20, 27, 31, 34, 41, 48, 53, 55, 62, 63]) for (const d of [-1n, 0n, 1n]) {
    const v = 2n ** BigInt(p) + d;
    edges64.push(BigInt.asIntN(64, v), BigInt.asIntN(64, -v));
  }
  const int32 = fc.oneof(fc.constantFrom(...edges32), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }));
  const int64 = fc.oneof(fc.constantFrom(...edges64), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }));

  it('offsetDelta (varint) and timestampDelta (varlong) round-trip and match an independent encoder', () => {
    fc.assert(fc.property(fc.array(fc.tuple(int32, int64), { minLength: 1, maxLength: 20 }), (pairs) => {
      const records = pairs.map(([od, td]) => ({ offsetDelta: od, timestampDelta: td, key: null, value: bytes('v') }));
      const out = encodeRecordBatch({ baseOffset: 0n, baseTimestamp: 0n, maxTimestamp: 0n, lastOffsetDelta: 0, records });
      const expected = rawBatch({ partitionLeaderEpoch: -1, baseOffset: 0n, baseTimestamp: 0n, maxTimestamp: 0n, lastOffsetDelta: 0, producerId: -1n },
        records.flatMap((r) => rawRecord(r)), records.length);
      expect(hex(out)).toBe(hex(expected));
      const b = decodeRecordBatches(out).batches[0];
      b.records.forEach((r, i) => {
        expect(r.offsetDelta).toBe(pairs[i][0]);
        expect(r.timestamp).toBe(pairs[i][1]);
        expect(r.timestampDeltaBig ?? BigInt(r.timestampDelta)).toBe(pairs[i][1]);
      });
    }), { numRuns: 400 });
  });

  it('key/value/header lengths at varint width edges', () => {
    for (const n of [0, 1, 63, 64, 65, 8191, 8192, 8193, 100_000]) {
      const v = new Uint8Array(n).fill(7);
      const out = encodeRecordBatch({ baseTimestamp: 0, records: [{ key: v, value: v, headers: [{ key: 'k', value: v }] }] });
      const r = decodeRecordBatches(out).batches[0].records[0];
      expect([r.key!.length, r.value!.length, r.headers[0].value!.length]).toEqual([n, n, n]);
      expect(hex(out.subarray(61))).toBe(hex(new Uint8Array(rawRecord({ key: v, value: v, headers: [{ key: bytes('k'), value: v }] }))));
    }
  });
});

describe('errors inside compressed batches and control records', () => {
  it('reports the path and an offset within the decompressed records', () => {
    const records = [...rawRecord({ value: bytes('ok') }), ...rawRecord({ key: bytes('k'), value: bytes('v') })];
    records[records.length - 5] = 0x03; // key length -2 (zigzag 3) in the second record
    const good = encodeRecordBatch({ baseTimestamp: 0, compression: 'snappy', records: [{ value: 'ok' }, { key: 'k', value: 'v' }] });
    // rebuild the same batch with the corrupted records section, compressed the same way
    const payload = compress('snappy', new Uint8Array(records));
    const b = fixCrc(concat(good.subarray(0, 61), payload));
    new DataView(b.buffer).setInt32(8, 49 + payload.length);
    fixCrc(b);
    const e = expectError(b, 'INVALID_LENGTH', 'batches[0].records[1].keyLength');
    expect(e.offset).toBe(rawRecord({ value: bytes('ok') }).length + 4);
    expect(e.message).toMatch(/decompressed/);
  });

  it('control records with a short key throw on access', () => {
    const b = decodeRecordBatches(encodeRecordBatch({ baseTimestamp: 0, isControl: true, records: [{ key: new Uint8Array([0, 0]), value: null }] })).batches[0];
    expect(() => b.records[0].control).toThrow(expect.objectContaining({ code: 'INVALID_CONTROL_RECORD' }));
  });
});

describe('framing edge cases', () => {
  it('a length that cannot reach the magic byte is corrupt, not a partial tail', () => {
    const b = new Uint8Array(14);
    new DataView(b.buffer).setInt32(8, 2);
    expectError(b, 'BATCH_TOO_SHORT', 'batches[0].batchLength');
    // fewer than 12 bytes is always a partial tail
    expect(decodeRecordBatches(new Uint8Array(11)).truncatedBytes).toBe(11);
    // 12+ bytes whose length runs past the end: partial
    const p = new Uint8Array(15);
    new DataView(p.buffer).setInt32(8, 100);
    expect(decodeRecordBatches(p)).toMatchObject({ batches: [], truncatedBytes: 15 });
  });
});

describe('maxRecordsPerBatch', () => {
  it('rejects a batch declaring more records than the limit, before walking it', async () => {
    const { encodeRecordBatch, decodeRecordBatches, RecordsError } = await import('../../src/records/index.js');
    const batch = encodeRecordBatch({ compression: 'lz4', records: [{ value: 'a' }, { value: 'b' }, { value: 'c' }] });
    expect(decodeRecordBatches(batch, { maxRecordsPerBatch: 3 }).batches[0].records).toHaveLength(3);
    try {
      decodeRecordBatches(batch, { maxRecordsPerBatch: 2 });
      throw new Error('expected a RecordsError');
    } catch (error) {
      expect(error).toBeInstanceOf(RecordsError);
      expect((error as InstanceType<typeof RecordsError>).code).toBe('RECORD_LIMIT');
      expect((error as InstanceType<typeof RecordsError>).offset).toBe(57);
    }
  });
});
