// read_committed: batches of aborted transactions and control batches are dropped, committed
// transactions and non-transactional batches kept, an aborted producer's later transaction kept.

import { describe, it, expect } from 'vitest';
import { decodeRecordBatches, encodeRecordBatch } from '../../src/records/index.js';
import { committedBatches } from '../../src/consumer/aborted.js';

function log(...batches: Parameters<typeof encodeRecordBatch>[0][]): Uint8Array {
  const parts = batches.map((b) => encodeRecordBatch(b));
  return Buffer.concat(parts);
}
const values = (bs: ReturnType<typeof committedBatches>) => bs.flatMap((b) => b.records.map((r) => Buffer.from(r.value!).toString()));

describe('committedBatches', () => {
  it('drops aborted transactions and markers, keeps the rest', () => {
    const bytes = log(
      { baseOffset: 0, records: [{ value: 'plain' }] },
      { baseOffset: 1, producerId: 7, isTransactional: true, records: [{ value: 'p7-aborted-1' }, { value: 'p7-aborted-2' }] },
      { baseOffset: 3, producerId: 8, isTransactional: true, records: [{ value: 'p8-committed' }] },
      { baseOffset: 4, producerId: 7, isTransactional: true, isControl: true, records: [{ control: { type: 'abort' } }] },
      { baseOffset: 5, producerId: 8, isTransactional: true, isControl: true, records: [{ control: { type: 'commit' } }] },
      { baseOffset: 6, producerId: 7, isTransactional: true, records: [{ value: 'p7-later-committed' }] },
      { baseOffset: 7, producerId: 7, isTransactional: true, isControl: true, records: [{ control: { type: 'commit' } }] },
    );
    const batches = decodeRecordBatches(bytes).batches;
    expect(values(committedBatches(batches, [{ producerId: 7n, firstOffset: 1n }]))).toEqual(['plain', 'p8-committed', 'p7-later-committed']);
    // Without the broker's list nothing is aborted (markers still dropped).
    expect(values(committedBatches(batches, null))).toEqual(['plain', 'p7-aborted-1', 'p7-aborted-2', 'p8-committed', 'p7-later-committed']);
  });

  it('an aborted transaction that starts after a batch does not drop it', () => {
    const bytes = log(
      { baseOffset: 0, producerId: 7, isTransactional: true, records: [{ value: 'committed-before' }] },
      { baseOffset: 1, producerId: 7, isTransactional: true, isControl: true, records: [{ control: { type: 'commit' } }] },
      { baseOffset: 2, producerId: 7, isTransactional: true, records: [{ value: 'aborted' }] },
      { baseOffset: 3, producerId: 7, isTransactional: true, isControl: true, records: [{ control: { type: 'abort' } }] },
    );
    expect(values(committedBatches(decodeRecordBatches(bytes).batches, [{ producerId: 7n, firstOffset: 2n }]))).toEqual(['committed-before']);
  });
});
