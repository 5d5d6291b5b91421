import { describe, it, expect } from 'vitest';
import { decodeRecordBatches, encodeRecordBatch, recordBatchToJson, crc32c, crc32, RecordsError, type RecordInput } from '../../src/records/index.js';
import { rawRecord, rawBatch, crc32cRef, crc32Ref, hex, bytes, concat, legacyMessage } from './helpers.js';
import { int64, rowTape } from '../../src/records/batch.js';
import * as abi from '../../src/wasm/abi.js';

const T0 = 1_700_000_000_000n;

describe('CRC known vectors', () => {
  it('CRC-32C and CRC-32 of "123456789"', () => {
    expect(crc32c(bytes('123456789'))).toBe(0xe3069283);
    expect(crc32(bytes('123456789'))).toBe(0xcbf43926);
    expect(crc32c(new Uint8Array(0))).toBe(0);
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa); // RFC 3720 B.4: 32 bytes of zeros
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(new Uint8Array(32).map((_, i) => i))).toBe(0x46dd794e);
  });
  it('matches a bitwise reference at every length and alignment', () => {
    const data = new Uint8Array(600).map((_, i) => (i * 197 + 11) & 255);
    for (let start = 0; start < 17; start++) {
      for (const len of [0, 1, 2, 3, 7, 15, 16, 17, 31, 32, 33, 100, 255, 256, 257, 500]) {
        const d = data.subarray(start, start + len);
        expect(crc32c(d)).toBe(crc32cRef(d));
        expect(crc32(d)).toBe(crc32Ref(d));
      }
    }
  });
  it('continues a previous CRC', () => {
    const d = bytes('hello, incremental world');
    expect(crc32c(d.subarray(7), crc32c(d.subarray(0, 7)))).toBe(crc32c(d));
    expect(crc32(d.subarray(5), crc32(d.subarray(0, 5)))).toBe(crc32(d));
  });
});

function sample(n: number, seed = 1): RecordInput[] {
  return Array.from({ length: n }, (_, i) => ({
    key: i % 4 === 0 ? null : bytes(`k${seed}-${i}`),
    value: i % 6 === 5 ? null : new Uint8Array(i * 3 % 50).map((_, j) => (i + j) & 255),
    headers: i % 3 === 0 ? [] : Array.from({ length: i % 3 }, (_, j) => ({ key: `h${j}-é`, value: j ? bytes(`v${i}`) : null })),
    timestampDelta: i * 10,
  }));
}

function expectSame(decoded: ReturnType<typeof decodeRecordBatches>['batches'][number], input: RecordInput[], base: bigint) {
  expect(decoded.recordCount).toBe(input.length);
  decoded.records.forEach((r, i) => {
    const e = input[i];
    expect(r.offset).toBe(base + BigInt(e.offsetDelta ?? i));
    expect(hex(r.key)).toBe(e.key == null ? null : hex(e.key as Uint8Array));
    expect(hex(r.value)).toBe(e.value == null ? null : hex(e.value as Uint8Array));
    expect(hex(at(decoded.data, decoded.keyOffsetAt(i), decoded.keySizeAt(i)))).toBe(hex(r.key));
    expect(hex(at(decoded.data, decoded.valueOffsetAt(i), decoded.valueSizeAt(i)))).toBe(hex(r.value));
    expect(r.headers.map((h) => [h.key, hex(h.value)])).toEqual((e.headers ?? []).map((h) => [h.key, h.value == null ? null : hex(h.value as Uint8Array)]));
  });
}

describe('RecordBatch v2 round trips', () => {
  const codecs = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const;
  for (const compression of codecs) {
    for (const timestampType of ['create', 'logAppend'] as const) {
      for (const flags of [0, 1, 2, 3, 4, 7]) {
        const isTransactional = (flags & 1) !== 0;
        const isControl = (flags & 2) !== 0;
        const hasDeleteHorizon = (flags & 4) !== 0;
        it(`${compression} ${timestampType} tx=${isTransactional} control=${isControl} deleteHorizon=${hasDeleteHorizon}`, () => {
          const records = isControl
            ? [{ control: { type: 'commit' as const, coordinatorEpoch: 9 } }, { control: { type: 'abort' as const } }]
            : sample(37, flags);
          const bytesOut = encodeRecordBatch({
            baseOffset: 9_000_000_000n, partitionLeaderEpoch: 5, compression, timestampType, isTransactional, isControl,
            hasDeleteHorizon, baseTimestamp: T0, maxTimestamp: timestampType === 'logAppend' ? T0 + 99_999n : undefined,
            producerId: 77n, producerEpoch: 2, baseSequence: 1000, records,
          });
          for (const lazy of [false, true]) {
            const { batches, truncatedBytes } = decodeRecordBatches(bytesOut, { lazy });
            expect(truncatedBytes).toBe(0);
            const b = batches[0];
            expect(b.compression).toBe(compression);
            expect(b.timestampType).toBe(timestampType);
            expect([b.isTransactional, b.isControl, b.hasDeleteHorizon]).toEqual([isTransactional, isControl, hasDeleteHorizon]);
            expect([b.baseOffset, b.partitionLeaderEpoch, b.producerId, b.producerEpoch, b.baseSequence]).toEqual([9_000_000_000n, 5, 77n, 2, 1000]);
            expect(b.batchLength).toBe(bytesOut.length - 12);
            expect(b.lastOffsetDelta).toBe(records.length - 1);
            expect(b.crc).toBe(crc32cRef(bytesOut.subarray(21)));
            if (isControl) {
              expect(b.records.map((r) => r.control)).toEqual([
                { version: 0, typeCode: 1, type: 'commit', coordinatorEpoch: 9 },
                { version: 0, typeCode: 0, type: 'abort', coordinatorEpoch: 0 },
              ]);
              expect(hex(b.records[0].key)).toBe('00000001');
            } else {
              expectSame(b, records, 9_000_000_000n);
              const ts = b.records.map((r) => r.timestamp);
              if (timestampType === 'logAppend') {
                expect(b.maxTimestamp).toBe(T0 + 99_999n);
                expect(ts.every((t) => t === T0 + 99_999n)).toBe(true);
              } else {
                expect(ts).toEqual(records.map((_, i) => T0 + BigInt(i * 10)));
                expect(b.maxTimestamp).toBe(T0 + 360n);
              }
            }
          }
        });
      }
    }
  }

  it('re-encodes a decoded batch to the same bytes', () => {
    const original = encodeRecordBatch({ baseOffset: 3n, baseTimestamp: T0, producerId: 1n, producerEpoch: 0, baseSequence: 0, records: sample(25) });
    const b = decodeRecordBatches(original).batches[0];
    expect(hex(encodeRecordBatch(b))).toBe(hex(original));
  });

  it('accepts absolute record timestamps and derives base/max', () => {
    const out = encodeRecordBatch({ records: [{ value: 'a', timestamp: T0 + 5n }, { value: 'b', timestamp: Number(T0) - 3 }, { value: 'c', timestamp: T0 + 9n }] });
    const b = decodeRecordBatches(out).batches[0];
    expect(b.baseTimestamp).toBe(T0 + 5n);
    expect(b.maxTimestamp).toBe(T0 + 9n);
    expect(b.records.map((r) => r.timestamp)).toEqual([T0 + 5n, T0 - 3n, T0 + 9n]);
    expect(b.records.map((r) => r.timestampDelta)).toEqual([0, -8, 4]);
  });

  it('encodes an empty batch', () => {
    const out = encodeRecordBatch({ baseOffset: 10n, baseTimestamp: T0, records: [] });
    expect(out.length).toBe(61);
    const b = decodeRecordBatches(out).batches[0];
    expect(b.recordCount).toBe(0);
    expect(b.records).toEqual([]);
  });

  it('UTF-8 keys, values and header keys', () => {
    const out = encodeRecordBatch({ baseTimestamp: 0, records: [{ key: 'ключ', value: '値🎉', headers: [{ key: 'ヘッダ', value: 'ü' }] }] });
    const r = decodeRecordBatches(out).batches[0].records[0];
    expect(new TextDecoder().decode(r.key!)).toBe('ключ');
    expect(new TextDecoder().decode(r.value!)).toBe('値🎉');
    expect(r.headers[0].key).toBe('ヘッダ');
  });
});

describe('timestamps and offsets', () => {
  it('timestampDelta at and beyond 2^31, 2^32 and 2^53 stays exact', () => {
    const deltas = [2n ** 31n, 2n ** 31n + 5n, 2n ** 32n + 1n, -(2n ** 31n) - 1n, 2n ** 40n + 3n, 2n ** 53n - 1n, 2n ** 53n + 1n, 2n ** 62n, -(2n ** 62n)];
    const base = 1000n;
    const out = encodeRecordBatch({ baseTimestamp: base, records: deltas.map((d) => ({ value: 'x', timestampDelta: d })) });
    for (const lazy of [false, true]) {
      const b = decodeRecordBatches(out, { lazy }).batches[0];
      expect(b.records.map((r) => r.timestamp)).toEqual(deltas.map((d) => BigInt.asIntN(64, base + d)));
      expect(deltas.map((_, i) => b.timestampAt(i))).toEqual(deltas.map((d) => BigInt.asIntN(64, base + d)));
      expect(b.records[0].timestampDelta).toBe(2 ** 31);
      expect(b.records[2].timestampNumber).toBe(1000 + 2 ** 32 + 1);
      expect(b.records[6].timestampDeltaBig).toBe(2n ** 53n + 1n);
      expect(b.records[5].timestampDeltaBig).toBe(undefined);
      expect(b.records[7].timestampDeltaBig).toBe(2n ** 62n);
    }
    // independent check of the varlong bytes of the first record
    expect(hex(out.subarray(61, 61 + rawRecord({ timestampDelta: 2n ** 31n, offsetDelta: 0, key: null, value: bytes('x') }).length)))
      .toBe(hex(new Uint8Array(rawRecord({ timestampDelta: 2n ** 31n, offsetDelta: 0, key: null, value: bytes('x') }))));
  });

  it('numeric timestamps far apart, batch max computed exactly', () => {
    const t = Number(T0);
    const out = encodeRecordBatch({ records: [{ value: 'a', timestamp: t }, { value: 'b', timestamp: t + 2 ** 31 + 17 }] });
    const b = decodeRecordBatches(out).batches[0];
    expect(b.maxTimestamp).toBe(T0 + 2n ** 31n + 17n);
    expect(b.records[1].timestamp).toBe(T0 + 2n ** 31n + 17n);
  });

  it('offsets near int64 limits and int32 offsetDelta extremes', () => {
    const base = 2n ** 62n;
    const out = encodeRecordBatch({ baseOffset: base, baseTimestamp: 0, records: [{ value: 'a', offsetDelta: 0 }, { value: 'b', offsetDelta: 2 ** 31 - 1 }, { value: 'c', offsetDelta: -(2 ** 31) }] });
    const b = decodeRecordBatches(out).batches[0];
    expect(b.records.map((r) => r.offset)).toEqual([base, base + 2n ** 31n - 1n, base - 2n ** 31n]);
    expect(b.lastOffsetDelta).toBe(-(2 ** 31));
  });
});

describe('blobs with several batches and partial tails', () => {
  const a = encodeRecordBatch({ baseOffset: 0n, baseTimestamp: T0, records: sample(5) });
  const b = encodeRecordBatch({ baseOffset: 5n, baseTimestamp: T0, compression: 'lz4', records: sample(7, 2) });
  const c = encodeRecordBatch({ baseOffset: 12n, baseTimestamp: T0, compression: 'gzip', records: sample(3, 3) });
  const blob = concat(a, b, c);

  it('decodes all batches', () => {
    const r = decodeRecordBatches(blob);
    expect(r.batches.map((x) => x.baseOffset)).toEqual([0n, 5n, 12n]);
    expect(r.batches.map((x) => x.byteOffset)).toEqual([0, a.length, a.length + b.length]);
    expect(r.batches.flatMap((x) => x.records.map((y) => y.offset))).toEqual(Array.from({ length: 15 }, (_, i) => BigInt(i)));
    expect(r.consumedBytes).toBe(blob.length);
  });

  it('reports a partial tail at every cut point without throwing', () => {
    for (let k = 0; k <= blob.length; k++) {
      const r = decodeRecordBatches(blob.subarray(0, k));
      const whole = [a.length, a.length + b.length, blob.length].filter((e) => e <= k);
      expect(r.batches.length).toBe(whole.length);
      const consumed = whole.length ? whole[whole.length - 1] : 0;
      expect(r.consumedBytes).toBe(consumed);
      expect(r.truncatedBytes).toBe(k - consumed);
    }
  });

  it('empty input', () => {
    expect(decodeRecordBatches(new Uint8Array(0))).toEqual({ batches: [], truncatedBytes: 0, consumedBytes: 0 });
  });
});

/** The bytes a position accessor pair names, or null for size -1. */
function at(data: Uint8Array, offset: number, size: number): Uint8Array | null {
  return size < 0 ? null : data.subarray(offset, offset + size);
}

describe('lazy / columnar access', () => {
  it('matches eager decoding and survives later decodes (WASM memory reuse and growth)', () => {
    const input = sample(200);
    const blob = encodeRecordBatch({ baseOffset: 100n, baseTimestamp: T0, records: input });
    const lazy = decodeRecordBatches(blob, { lazy: true }).batches[0];
    const eager = decodeRecordBatches(blob).batches[0];
    // a large decode in between forces memory reuse and growth
    const huge = encodeRecordBatch({ baseTimestamp: 0, records: [{ value: new Uint8Array(20 * 1024 * 1024) }] });
    expect(decodeRecordBatches(huge).batches[0].records[0].value!.length).toBe(20 * 1024 * 1024);
    for (let i = 0; i < 200; i++) {
      expect(hex(lazy.keyAt(i))).toBe(hex(eager.records[i].key));
      expect(hex(lazy.valueAt(i))).toBe(hex(eager.records[i].value));
      expect(lazy.offsetAt(i)).toBe(eager.records[i].offset);
      expect(lazy.timestampAt(i)).toBe(eager.records[i].timestamp);
      expect(lazy.offsetDeltaAt(i)).toBe(i);
      expect(lazy.timestampDeltaAt(i)).toBe(i * 10);
      expect(lazy.headerCountAt(i)).toBe(eager.records[i].headers.length);
      for (const b of [lazy, eager]) {
        expect(hex(at(b.data, b.keyOffsetAt(i), b.keySizeAt(i)))).toBe(hex(eager.records[i].key));
        expect(hex(at(b.data, b.valueOffsetAt(i), b.valueSizeAt(i)))).toBe(hex(eager.records[i].value));
      }
      expect(lazy.headersAt(i).map((h) => [h.key, hex(h.value)])).toEqual(eager.records[i].headers.map((h) => [h.key, hex(h.value)]));
    }
    expect(lazy.record(7)).toBe(lazy.record(7));
    expect([...lazy].length).toBe(200);
    expectSame(lazy, input, 100n);
    expect(() => lazy.keyAt(200)).toThrow(RangeError);
    expect(lazy.records[3].value!.buffer).toBe(blob.buffer);
  });
  it('rowTape: the words the accessors read, record by record (compressed too); none for a legacy message set', () => {
    for (const compression of ['none', 'lz4'] as const) {
      const blob = encodeRecordBatch({ baseOffset: 100n, baseTimestamp: T0, compression, records: [...sample(40), { key: null, value: null, timestamp: T0 + 2n ** 40n }] });
      const b = decodeRecordBatches(blob, { lazy: true }).batches[0];
      const tape = rowTape(b)!;
      for (let i = 0; i < b.recordCount; i++) {
        const o = tape.base + i * abi.ROW_WORDS;
        expect(tape.rows[o + abi.ROW_OFFSET_DELTA]).toBe(b.offsetDeltaAt(i));
        expect(int64(tape.rows[o + abi.ROW_TIMESTAMP_DELTA], tape.rows[o + abi.ROW_TIMESTAMP_DELTA + 1])).toBe(b.timestampDeltaAt(i));
        expect(tape.rows[o + abi.ROW_KEY_LENGTH]).toBe(b.keySizeAt(i));
        expect(tape.rows[o + abi.ROW_VALUE_LENGTH]).toBe(b.valueSizeAt(i));
        if (b.keySizeAt(i) >= 0) expect(tape.rows[o + abi.ROW_KEY_OFFSET]).toBe(b.keyOffsetAt(i));
        if (b.valueSizeAt(i) >= 0) expect(tape.rows[o + abi.ROW_VALUE_OFFSET]).toBe(b.valueOffsetAt(i));
        expect(tape.rows[o + abi.ROW_HEADER_COUNT]).toBe(b.headerCountAt(i));
      }
    }
    const legacy = decodeRecordBatches(legacyMessage({ offset: 0n, magic: 1, timestamp: T0, key: null, value: bytes('v') }), { lazy: true }).batches[0];
    expect(rowTape(legacy)).toBeUndefined();
  });
});

describe('JSON mapping', () => {
  it('has int64 strings, hex bytes and absolute offsets/timestamps', () => {
    const out = encodeRecordBatch({
      baseOffset: 2n ** 60n, baseTimestamp: T0, producerId: 2n ** 50n, compression: 'snappy',
      records: [{ key: new Uint8Array([0xde, 0xad]), value: null, headers: [{ key: 'k', value: null }], timestampDelta: 2 ** 33 }],
    });
    const json = recordBatchToJson(decodeRecordBatches(out).batches[0]);
    expect(json).toMatchObject({
      baseOffset: String(2n ** 60n), magic: 2, compression: 'snappy', producerId: String(2n ** 50n), partitionLeaderEpoch: -1,
      records: [{ offset: String(2n ** 60n), timestamp: String(T0 + 2n ** 33n), key: 'dead', value: null, headers: [{ key: 'k', value: null }] }],
    });
    expect(() => JSON.stringify(json)).not.toThrow();
  });
});

export { rawBatch };

describe('re-encoding decoded batches', () => {
  it('control and compressed batches keep their content', () => {
    const control = encodeRecordBatch({ baseOffset: 9n, baseTimestamp: T0, isControl: true, isTransactional: true, producerId: 5n, producerEpoch: 1,
      records: [{ control: { type: 'commit', coordinatorEpoch: 3 } }] });
    expect(hex(encodeRecordBatch(decodeRecordBatches(control).batches[0]))).toBe(hex(control));
    for (const compression of ['gzip', 'snappy', 'lz4', 'zstd'] as const) {
      const original = encodeRecordBatch({ baseOffset: 1n, baseTimestamp: T0, compression, records: sample(30) });
      const again = encodeRecordBatch(decodeRecordBatches(original).batches[0]);
      expect(hex(again)).toBe(hex(original));
    }
  });
});

describe('inputs that are views at an offset of a larger buffer', () => {
  it('decodes views (e.g. pooled Buffers) and returns views of the same memory', () => {
    const batch = encodeRecordBatch({ baseOffset: 4n, baseTimestamp: T0, records: sample(10) });
    const big = new Uint8Array(batch.length + 100);
    big.set(batch, 37);
    const view = big.subarray(37, 37 + batch.length);
    for (const lazy of [false, true]) {
      const b = decodeRecordBatches(view, { lazy }).batches[0];
      expectSame(b, sample(10), 4n);
      const v = b.records[1].value!;
      expect(v.buffer).toBe(big.buffer);
      expect(v.byteOffset).toBeGreaterThan(37);
      expect(hex(b.valueAt(1))).toBe(hex(v));
    }
    const pooled = Buffer.from(batch); // may live in Node's shared pool
    expectSame(decodeRecordBatches(pooled).batches[0], sample(10), 4n);
  });
});

describe('RecordColumns (the producer\'s open batch)', () => {
  it('encodes the bytes encodeRecordBatch does: the header fields given, its own timestamps', async () => {
    const { RecordColumns } = await import('../../src/records/columns.js');
    const header = { producerId: 77n, producerEpoch: 3, baseSequence: 41, isTransactional: true, partitionLeaderEpoch: 9, compression: 'none' as const };
    const records = [{ key: 'k', value: 'v1', timestamp: T0 }, { key: null, value: 'v2', timestamp: T0 + 5n }, { key: 'k3', value: null, timestamp: T0 + 2n }];
    const columns = new RecordColumns();
    for (const r of records) columns.add(r.key, r.value, Number(r.timestamp));
    const encoded = columns.encode(header);
    expect(hex(encoded)).toBe(hex(encodeRecordBatch({ ...header, baseTimestamp: T0, maxTimestamp: T0 + 5n, records })));
    const [batch] = decodeRecordBatches(encoded).batches;
    expect([batch!.producerId, batch!.producerEpoch, batch!.baseSequence, batch!.isTransactional, batch!.baseTimestamp, batch!.maxTimestamp])
      .toEqual([77n, 3, 41, true, T0, T0 + 5n]);
  });
});
