// Records fields decoded inline: a Fetch response whose partitions carry RecordBatches, through
// the decode option of the by-key and per-API calls and through `kafka-wire decode --records`.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { decodeResponse, encodeResponse, newMessage } from '../../src/index.js';
import { decodeBodyFor, decodeRequestFor, decodeResponseFor, encodeBodyFor, encodeRequestFor } from '../../src/codec/by-definition.js';
import { fetchApi } from '../../src/generated/apis/Fetch.js';
import { produceApi } from '../../src/generated/apis/Produce.js';
import { decodeRecordBatches, encodeRecordBatch } from '../../src/records/index.js';
import { toHex } from '../../src/text.js';

const batch = encodeRecordBatch({
  baseOffset: 100n, baseTimestamp: 1_700_000_000_000n, compression: 'lz4',
  records: [
    { key: 'k1', value: 'v1', headers: [{ key: 'h', value: 'x' }], timestampDelta: 0 },
    { key: null, value: 'v2', timestampDelta: 2n ** 31n + 5n },
  ],
});
const frame = encodeResponse(1, 12, { correlationId: 3 }, newMessage(1, 'response', 12, {
  responses: [{ topic: 'orders', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partitions: [
    { partitionIndex: 0, errorCode: 0, highWatermark: 102n, lastStableOffset: 102n, logStartOffset: 0n,
      abortedTransactions: null, preferredReadReplica: -1, records: Uint8Array.from([...batch, ...batch.subarray(0, 20)]) },
  ] }],
}));

describe('records inline', () => {
  it('decodes records fields as batches when asked, and leaves bytes otherwise', () => {
    const plain = decodeResponse(frame, 1, 12);
    expect(plain.body.responses[0].partitions[0].records).toBeInstanceOf(Uint8Array);
    const decoded: any = decodeResponse(frame, 1, 12, { records: true }).body.responses[0].partitions[0].records;
    expect(decoded.batches).toHaveLength(1);
    expect(decoded.truncatedBytes).toBe(20);
    const records = decoded.batches[0].records;
    expect(records.map((r: any) => r.offset)).toEqual([100n, 101n]);
    expect(records[1].timestamp).toBe(1_700_000_000_000n + 2n ** 31n + 5n);
  });

  it('decodes records the same way through the per-API calls, with the records options', () => {
    const byKey = decodeResponse(frame, 1, 12, { records: true }).body;
    const perApi = decodeResponseFor(fetchApi, frame, 12, { recordsDecoder: decodeRecordBatches }).body;
    expect(perApi).toEqual(byKey);
    const lazy = decodeResponseFor(fetchApi, frame, 12, { recordsDecoder: (b: Uint8Array) => decodeRecordBatches(b, { lazy: true }) }).body.responses[0].partitions[0].records;
    expect(lazy?.batches[0].recordCount).toBe(2);
    expect(lazy?.batches[0].offsetAt(1)).toBe(101n);
    expect(decodeResponseFor(fetchApi, frame, 12, {}).body.responses[0].partitions[0].records).toBeInstanceOf(Uint8Array);
    // The records decoder's own limits apply: a batch of two records over a limit of one fails.
    expect(() => decodeResponseFor(fetchApi, frame, 12, { recordsDecoder: (b: Uint8Array) => decodeRecordBatches(b, { maxRecordsPerBatch: 1 }) })).toThrow(/record/i);

    const produce = encodeRequestFor(produceApi, { requestApiKey: 0, requestApiVersion: 9, correlationId: 1, clientId: null },
      { acks: -1, topicData: [{ name: 'orders', partitionData: [{ index: 0, records: batch }] }] });
    const sent = decodeRequestFor(produceApi, produce, { recordsDecoder: decodeRecordBatches });
    expect(sent.apiKey).toBe(0);
    expect(sent.body.topicData[0].partitionData[0].records).toEqual(decodeRecordBatches(batch));

    const body = encodeBodyFor(produceApi.request, 9, { topicData: [{ name: 'o', partitionData: [{ index: 0, records: batch }] }] });
    expect(decodeBodyFor(produceApi.request, 9, body, { recordsDecoder: decodeRecordBatches }).topicData[0].partitionData[0].records.batches[0].records[0].key)
      .toEqual(new TextEncoder().encode('k1'));
  });

  it('prints batches from the CLI with --records', async () => {
    let out = '';
    const code = await main(['decode', '--jsonl', '--records'], {
      stdin: Readable.from([JSON.stringify({ direction: 'response', hex: toHex(frame), apiKey: 1, apiVersion: 12 }) + '\n']),
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: () => undefined },
    });
    expect(code).toBe(0);
    const [b] = JSON.parse(out).frame.body.responses[0].partitions[0].records;
    expect(b).toMatchObject({ baseOffset: '100', magic: 2, compression: 'lz4', timestampType: 'create', isTransactional: false, isControl: false });
    expect(b.records[0]).toEqual({ offset: '100', timestamp: '1700000000000', key: '6b31', value: '7631', headers: [{ key: 'h', value: '78' }] });
    expect(b.records[1].key).toBeNull();
  });
});
