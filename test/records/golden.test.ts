import { describe, it, expect } from 'vitest';
import { decodeRecordBatches, encodeRecordBatch, recordBatchToJson, crc32c } from '../../src/records/index.js';
import { kafkajsBatch, kafkajsDecode, hex, bytes } from './helpers.js';

const T0 = 1_700_000_000_123;

function sampleRecords(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    key: i % 3 === 0 ? null : Buffer.from(`key-${i}`),
    value: i % 5 === 4 ? null : Buffer.from(`value-${i}-`.repeat(i % 7 + 1)),
    headers: i % 2 ? { 'h-a': Buffer.from(`x${i}`), 'trace-id': `t${i}` } : undefined,
    offsetDelta: i,
    timestampDelta: i * 1000 + (i % 4) * 7,
  }));
}

describe('golden bytes against kafkajs RecordBatch v2 encoder', () => {
  it('decodes a kafkajs batch', async () => {
    const records = sampleRecords(20);
    const ref = await kafkajsBatch({
      firstOffset: 1234567890123n, firstTimestamp: T0, maxTimestamp: T0 + 19_021,
      partitionLeaderEpoch: 7, lastOffsetDelta: 19, producerId: 4242n, producerEpoch: 3, firstSequence: 99,
      transactional: true, records,
    });
    const { batches, truncatedBytes } = decodeRecordBatches(ref);
    expect(truncatedBytes).toBe(0);
    expect(batches).toHaveLength(1);
    const b = batches[0];
    expect(b.baseOffset).toBe(1234567890123n);
    expect(b.partitionLeaderEpoch).toBe(7);
    expect(b.magic).toBe(2);
    expect(b.isTransactional).toBe(true);
    expect(b.isControl).toBe(false);
    expect(b.compression).toBe('none');
    expect(b.timestampType).toBe('create');
    expect(b.lastOffsetDelta).toBe(19);
    expect(b.baseTimestamp).toBe(BigInt(T0));
    expect(b.maxTimestamp).toBe(BigInt(T0 + 19_021));
    expect(b.producerId).toBe(4242n);
    expect(b.producerEpoch).toBe(3);
    expect(b.baseSequence).toBe(99);
    expect(b.recordCount).toBe(20);
    expect(b.crc).toBe(crc32c(ref.subarray(21)));
    b.records.forEach((r, i) => {
      const e = records[i];
      expect(r.offset).toBe(1234567890123n + BigInt(i));
      expect(r.timestamp).toBe(BigInt(T0 + e.timestampDelta));
      expect(hex(r.key)).toBe(e.key ? e.key.toString('hex') : null);
      expect(hex(r.value)).toBe(e.value ? e.value.toString('hex') : null);
      const hs = e.headers ? Object.entries(e.headers).map(([k, v]) => ({ key: k, value: Buffer.from(v).toString('hex') })) : [];
      expect(r.headers.map((h) => ({ key: h.key, value: hex(h.value) }))).toEqual(hs);
      // views into the caller's buffer
      if (r.value) expect(r.value.buffer).toBe(ref.buffer);
    });
  });

  it('encodes byte for byte what kafkajs encodes', async () => {
    const records = sampleRecords(50);
    const ref = await kafkajsBatch({
      firstOffset: 77n, firstTimestamp: T0, maxTimestamp: T0 + 49_007, partitionLeaderEpoch: 0,
      lastOffsetDelta: 49, producerId: -1n, producerEpoch: 0, firstSequence: 0, records,
    });
    const ours = encodeRecordBatch({
      baseOffset: 77n, partitionLeaderEpoch: 0, baseTimestamp: T0, maxTimestamp: T0 + 49_007,
      producerId: -1n, producerEpoch: 0, baseSequence: 0,
      records: records.map((r) => ({
        key: r.key, value: r.value, offsetDelta: r.offsetDelta, timestampDelta: r.timestampDelta,
        headers: r.headers ? Object.entries(r.headers).map(([key, value]) => ({ key, value: typeof value === 'string' ? value : value })) : undefined,
      })),
    });
    expect(hex(ours)).toBe(hex(ref));
  });

  it('kafkajs decodes what we encode (gzip too)', async () => {
    for (const compression of ['none', 'gzip'] as const) {
      const ours = encodeRecordBatch({
        baseOffset: 5n, baseTimestamp: T0, compression,
        records: [
          { key: 'k1', value: 'v1', timestamp: T0 + 5, headers: [{ key: 'a', value: 'b' }] },
          { key: null, value: bytes('second'), timestamp: T0 + 10 },
        ],
      });
      const d = await kafkajsDecode(ours);
      expect(d.records.map((r: any) => [r.offset, r.timestamp, r.key?.toString() ?? null, r.value.toString()])).toEqual([
        ['5', String(T0 + 5), 'k1', 'v1'],
        ['6', String(T0 + 10), null, 'second'],
      ]);
      expect(d.records[0].headers.a.toString()).toBe('b');
    }
  });

  it('decodes kafkajs gzip batches', async () => {
    const records = sampleRecords(30);
    const ref = await kafkajsBatch({ compression: 1, firstTimestamp: T0, maxTimestamp: T0 + 29_007, lastOffsetDelta: 29, records });
    const b = decodeRecordBatches(ref).batches[0];
    expect(b.compression).toBe('gzip');
    expect(b.records.map((r) => hex(r.value))).toEqual(records.map((r) => (r.value ? r.value.toString('hex') : null)));
  });

  it('maps to the CLI JSON shape', async () => {
    const ref = await kafkajsBatch({
      firstOffset: 10n, firstTimestamp: T0, maxTimestamp: T0 + 1, lastOffsetDelta: 1,
      records: [
        { key: Buffer.from([1, 2]), value: null, offsetDelta: 0, timestampDelta: 0, headers: { h: Buffer.from([0xff]) } },
        { key: null, value: Buffer.from('hi'), offsetDelta: 1, timestampDelta: 1 },
      ],
    });
    const json = recordBatchToJson(decodeRecordBatches(ref).batches[0]);
    expect(JSON.parse(JSON.stringify(json))).toEqual({
      baseOffset: '10', partitionLeaderEpoch: 0, magic: 2, crc: crc32c(ref.subarray(21)), compression: 'none',
      timestampType: 'create', isTransactional: false, isControl: false, lastOffsetDelta: 1,
      baseTimestamp: String(T0), maxTimestamp: String(T0 + 1), producerId: '-1', producerEpoch: 0, baseSequence: 0,
      records: [
        { offset: '10', timestamp: String(T0), key: '0102', value: null, headers: [{ key: 'h', value: 'ff' }] },
        { offset: '11', timestamp: String(T0 + 1), key: null, value: '6869', headers: [] },
      ],
    });
    expect(Object.keys(json)).toEqual(['baseOffset', 'partitionLeaderEpoch', 'magic', 'crc', 'compression', 'timestampType',
      'isTransactional', 'isControl', 'lastOffsetDelta', 'baseTimestamp', 'maxTimestamp', 'producerId', 'producerEpoch',
      'baseSequence', 'records']);
  });
});
