// Records fields decoded inline: a Fetch response whose partitions carry RecordBatches, through
// the decode option and through `kafka-wire decode --records`.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { decodeResponse, encodeResponse, newMessage } from '../../src/index.js';
import { encodeRecordBatch } from '../../src/records/index.js';
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
