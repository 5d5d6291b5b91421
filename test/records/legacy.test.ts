import { describe, it, expect } from 'vitest';
import { gzipSync } from 'fflate';
import { decodeRecordBatches, encodeRecordBatch, recordBatchToJson, compress, RecordsError } from '../../src/records/index.js';
import { legacyMessage, bytes, concat, hex, crc32Ref } from './helpers.js';

const T = 1_600_000_000_000n;

describe('legacy message sets (magic 0 and 1)', () => {
  it('magic 0 uncompressed: one batch per message, no timestamps', () => {
    const set = concat(
      legacyMessage({ offset: 10n, magic: 0, key: bytes('k0'), value: bytes('v0') }),
      legacyMessage({ offset: 11n, magic: 0, key: null, value: bytes('v1') }),
      legacyMessage({ offset: 12n, magic: 0, key: bytes(''), value: null }),
    );
    const { batches, truncatedBytes } = decodeRecordBatches(set);
    expect(truncatedBytes).toBe(0);
    expect(batches.map((b) => [b.magic, b.baseOffset, b.recordCount, b.baseTimestamp, b.compression])).toEqual([
      [0, 10n, 1, -1n, 'none'], [0, 11n, 1, -1n, 'none'], [0, 12n, 1, -1n, 'none'],
    ]);
    const recs = batches.flatMap((b) => b.records);
    expect(recs.map((r) => [r.offset, r.timestamp, hex(r.key), hex(r.value)])).toEqual([
      [10n, -1n, hex(bytes('k0')), hex(bytes('v0'))], [11n, -1n, null, hex(bytes('v1'))], [12n, -1n, '', null],
    ]);
    expect(recs[0].value!.buffer).toBe(set.buffer);
    expect(batches[0].crc).toBe(crc32Ref(set.subarray(16, batches[0].byteLength)));
  });

  it('magic 1 uncompressed with timestamps and timestamp type', () => {
    const set = concat(
      legacyMessage({ offset: 5n, magic: 1, timestamp: T, key: null, value: bytes('a') }),
      legacyMessage({ offset: 6n, magic: 1, attributes: 8, timestamp: T + 2n ** 40n, key: bytes('b'), value: bytes('c') }),
    );
    const { batches } = decodeRecordBatches(set);
    expect(batches.map((b) => [b.magic, b.timestampType, b.baseTimestamp, b.maxTimestamp])).toEqual([
      [1, 'create', T, T], [1, 'logAppend', T + 2n ** 40n, T + 2n ** 40n],
    ]);
    expect(batches.map((b) => b.records[0].timestamp)).toEqual([T, T + 2n ** 40n]);
  });

  for (const [name, codec] of [['gzip', 1], ['snappy', 2], ['lz4', 3]] as const) {
    it(`magic 1 ${name} wrapper: relative inner offsets, wrapper holds the last absolute offset`, () => {
      const inner = concat(
        legacyMessage({ offset: 0n, magic: 1, timestamp: T + 1n, key: bytes('a'), value: bytes('first') }),
        legacyMessage({ offset: 1n, magic: 1, timestamp: T + 2n, key: null, value: bytes('second') }),
        legacyMessage({ offset: 2n, magic: 1, timestamp: T + 3n, key: bytes('c'), value: null }),
      );
      const payload = codec === 1 ? gzipSync(inner) : compress(name, inner);
      const wrapper = legacyMessage({ offset: 102n, magic: 1, attributes: codec, timestamp: T + 3n, key: null, value: payload });
      const { batches } = decodeRecordBatches(concat(wrapper, legacyMessage({ offset: 103n, magic: 1, timestamp: T + 4n, key: null, value: bytes('after') })));
      expect(batches).toHaveLength(2);
      const b = batches[0];
      expect([b.magic, b.compression, b.baseOffset, b.lastOffsetDelta, b.recordCount, b.maxTimestamp]).toEqual([1, name, 100n, 2, 3, T + 3n]);
      expect(b.records.map((r) => [r.offset, r.timestamp, hex(r.value)])).toEqual([
        [100n, T + 1n, hex(bytes('first'))], [101n, T + 2n, hex(bytes('second'))], [102n, T + 3n, null],
      ]);
      expect(batches[1].records[0].offset).toBe(103n);
      // Position accessors index the decompressed inner messages, the same bytes the views show.
      for (const batch of batches) {
        batch.records.forEach((r, i) => {
          const k = batch.keySizeAt(i) < 0 ? null : batch.data.subarray(batch.keyOffsetAt(i), batch.keyOffsetAt(i) + batch.keySizeAt(i));
          const v = batch.valueSizeAt(i) < 0 ? null : batch.data.subarray(batch.valueOffsetAt(i), batch.valueOffsetAt(i) + batch.valueSizeAt(i));
          expect([hex(k), hex(v)]).toEqual([hex(r.key), hex(r.value)]);
        });
      }
      const json = recordBatchToJson(b);
      expect(json.magic).toBe(1);
      expect(json.records.map((r) => r.offset)).toEqual(['100', '101', '102']);
    });
  }

  it('magic 1 wrapper with LogAppendTime overrides inner timestamps', () => {
    const inner = concat(
      legacyMessage({ offset: 0n, magic: 1, timestamp: 1n, key: null, value: bytes('x') }),
      legacyMessage({ offset: 1n, magic: 1, timestamp: 2n, key: null, value: bytes('y') }),
    );
    const wrapper = legacyMessage({ offset: 51n, magic: 1, attributes: 1 | 8, timestamp: T, key: null, value: gzipSync(inner) });
    const b = decodeRecordBatches(wrapper).batches[0];
    expect(b.timestampType).toBe('logAppend');
    expect(b.records.map((r) => [r.offset, r.timestamp])).toEqual([[50n, T], [51n, T]]);
  });

  it('magic 0 gzip wrapper: inner offsets are absolute', () => {
    const inner = concat(
      legacyMessage({ offset: 700n, magic: 0, key: null, value: bytes('x') }),
      legacyMessage({ offset: 701n, magic: 0, key: null, value: bytes('y') }),
    );
    const wrapper = legacyMessage({ offset: 701n, magic: 0, attributes: 1, key: null, value: gzipSync(inner) });
    const b = decodeRecordBatches(wrapper).batches[0];
    expect(b.records.map((r) => [r.offset, r.timestamp])).toEqual([[700n, -1n], [701n, -1n]]);
    expect(recordBatchToJson(b)).toMatchObject({ magic: 0, compression: 'gzip', baseOffset: '700', baseTimestamp: '-1', producerId: '-1' });
  });

  it('mixed legacy and v2 in one blob, partial legacy tail', () => {
    const m = legacyMessage({ offset: 1n, magic: 1, timestamp: T, key: null, value: bytes('legacy') });
    const v2 = encodeRecordBatch({ baseOffset: 2n, baseTimestamp: T, records: [{ value: 'v2' }] });
    const blob = concat(m, v2, m.subarray(0, 20));
    const r = decodeRecordBatches(blob);
    expect(r.batches.map((b) => b.magic)).toEqual([1, 2]);
    expect(r.truncatedBytes).toBe(20);
  });

  it('errors: bad CRC-32, inconsistent lengths, nested compression, zstd in legacy', () => {
    const m = legacyMessage({ offset: 1n, magic: 0, key: null, value: bytes('abc') });
    const bad = m.slice();
    bad[bad.length - 1] ^= 1;
    expect(() => decodeRecordBatches(bad)).toThrow(expect.objectContaining({ code: 'CRC_MISMATCH', path: 'batches[0].crc' }));
    expect(decodeRecordBatches(bad, { verifyCrc: false }).batches[0].records[0].value![2]).toBe(0x62);

    // value length says more than the message holds
    const long = legacyMessage({ offset: 1n, magic: 0, key: null, value: bytes('abc') });
    new DataView(long.buffer).setInt32(long.length - 7, 50);
    expect(() => decodeRecordBatches(long, { verifyCrc: false })).toThrow(expect.objectContaining({ code: 'TRUNCATED', path: 'batches[0].valueLength' }));
    const neg = legacyMessage({ offset: 1n, magic: 0, key: null, value: bytes('abc') });
    new DataView(neg.buffer).setInt32(neg.length - 7, -9);
    expect(() => decodeRecordBatches(neg, { verifyCrc: false })).toThrow(expect.objectContaining({ code: 'INVALID_LENGTH' }));

    const innerCompressed = legacyMessage({ offset: 0n, magic: 1, attributes: 1, timestamp: T, key: null, value: gzipSync(bytes('x')) });
    const nested = legacyMessage({ offset: 0n, magic: 1, attributes: 1, timestamp: T, key: null, value: gzipSync(innerCompressed) });
    expect(() => decodeRecordBatches(nested)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_COMPRESSION' }));

    const zstd = legacyMessage({ offset: 0n, magic: 1, attributes: 4, timestamp: T, key: null, value: compress('zstd', bytes('x')) });
    expect(() => decodeRecordBatches(zstd)).toThrow(RecordsError);

    const tooShort = legacyMessage({ offset: 1n, magic: 1, timestamp: T, key: null, value: null }).slice(0, 30);
    new DataView(tooShort.buffer).setInt32(8, 18);
    expect(() => decodeRecordBatches(tooShort)).toThrow(expect.objectContaining({ code: 'BATCH_TOO_SHORT' }));
  });

  it('magic mismatch between wrapper and inner messages is an error', () => {
    const inner = legacyMessage({ offset: 0n, magic: 0, key: null, value: bytes('x') });
    const wrapper = legacyMessage({ offset: 0n, magic: 1, attributes: 1, timestamp: T, key: null, value: gzipSync(inner) });
    expect(() => decodeRecordBatches(wrapper)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_MAGIC' }));
  });
});
