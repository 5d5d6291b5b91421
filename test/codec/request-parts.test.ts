// encodeRequestParts: a request frame as pieces (the producer writes a Produce request's record
// batches to the socket as they are, with no copy into one frame): the pieces put together are
// encodeRequest's frame byte for byte, and a large byte field is its own piece, the caller's array.
import { describe, expect, it } from 'vitest';
import { encodeRequest, encodeRequestParts } from '../../src/index.js';
import { encodeRecordBatch } from '../../src/records/index.js';

const concat = (parts: Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));

describe('encodeRequestParts', () => {
  it('pieces that join into encodeRequest\'s frame; large record batches passed through uncopied', () => {
    const big = encodeRecordBatch({ records: Array.from({ length: 200 }, (_, i) => ({ key: `k${i}`, value: 'v'.repeat(i) })) });
    const small = encodeRecordBatch({ records: [{ value: 'x' }] });
    for (const version of [3, 9, 12]) {
      const header = { requestApiKey: 0 as const, requestApiVersion: version, correlationId: 7, clientId: 'c' };
      const body = { transactionalId: null, acks: -1, timeoutMs: 1000, topicData: [
        { name: 't', partitionData: [{ index: 0, records: big }, { index: 1, records: small }, { index: 2, records: big }] }] };
      const parts = encodeRequestParts(header, body);
      expect(concat(parts)).toEqual(Buffer.from(encodeRequest(header, body)));
      expect(parts.filter((p) => p === big).length).toBe(2);
    }
    // Nothing large: one piece.
    const header = { requestApiKey: 18 as const, requestApiVersion: 3, correlationId: 1, clientId: 'c' };
    const parts = encodeRequestParts(header, {});
    expect(parts.length).toBe(1);
    expect(Buffer.from(parts[0]!)).toEqual(Buffer.from(encodeRequest(header, {})));
  });
});
