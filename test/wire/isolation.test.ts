// read_committed filtering (src/wire/isolation.ts): logs laid out as Kafka writes them
// (transactional batches, COMMIT/ABORT control batches, interleaved producers, a transaction that
// began before the fetched range), each decoded, lazily and eagerly, and filtered by the
// AbortedTransactions a broker would send. Real Kafka's version of this: test/kafka/clients.test.ts.
import { describe, expect, it } from 'vitest';
import { decodeRecordBatches, encodeRecordBatch, type RecordBatchInput } from '../../src/records/index.js';
import { readCommitted } from '../../src/wire/isolation.js';

type Entry = { offset: number; pid: number; kind: 'data' | 'txn' | 'commit' | 'abort'; count?: number };

/** A partition's log: each entry one batch at its offset (data = non-transactional, with a producer id unless pid < 0). */
function log(entries: Entry[]): Uint8Array {
  const parts = entries.map(({ offset, pid, kind, count = 1 }): Uint8Array => {
    const base: RecordBatchInput = { baseOffset: offset, producerId: pid, producerEpoch: 0, baseSequence: pid < 0 ? -1 : 0, records: [] };
    if (kind === 'commit' || kind === 'abort') {
      return encodeRecordBatch({ ...base, isTransactional: true, isControl: true, records: [{ control: { type: kind, coordinatorEpoch: 0 } }] });
    }
    const records = Array.from({ length: count }, (_, i) => ({ key: null, value: `${kind}@${offset + i}` }));
    return encodeRecordBatch({ ...base, isTransactional: kind === 'txn', records });
  });
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

function delivered(bytes: Uint8Array, aborted: { producerId: bigint; firstOffset: bigint }[] | null, lazy: boolean): string[] {
  const { batches } = decodeRecordBatches(bytes, { lazy });
  return readCommitted(batches, aborted).flatMap((b) => b.records.map((r) => new TextDecoder().decode(r.value!)));
}

const cases: { name: string; entries: Entry[]; aborted: [number, number][] | null; want: string[] }[] = [
  {
    name: 'an aborted transaction, a committed one, and the aborting producer\'s next transaction',
    entries: [
      { offset: 0, pid: 1, kind: 'txn', count: 2 }, { offset: 2, pid: 1, kind: 'abort' },
      { offset: 3, pid: 2, kind: 'txn' }, { offset: 4, pid: 2, kind: 'commit' },
      { offset: 5, pid: 1, kind: 'txn' }, { offset: 6, pid: 1, kind: 'commit' },
    ],
    aborted: [[1, 0]],
    want: ['txn@3', 'txn@5'],
  },
  {
    name: 'interleaved producers, one aborting',
    entries: [
      { offset: 0, pid: 1, kind: 'txn' }, { offset: 1, pid: 2, kind: 'txn' }, { offset: 2, pid: -1, kind: 'data' },
      { offset: 3, pid: 1, kind: 'txn' }, { offset: 4, pid: 2, kind: 'commit' }, { offset: 5, pid: 1, kind: 'abort' },
      { offset: 6, pid: 3, kind: 'data' },
    ],
    aborted: [[1, 0]],
    want: ['txn@1', 'data@2', 'data@6'],
  },
  {
    name: 'a transaction that began before the fetched range (its first offset below the first batch)',
    entries: [{ offset: 10, pid: 7, kind: 'txn' }, { offset: 11, pid: 7, kind: 'abort' }, { offset: 12, pid: 8, kind: 'txn' }],
    aborted: [[7, 4]],
    want: ['txn@12'],
  },
  {
    name: 'an aborted transaction whose first offset is reached only by a later batch',
    entries: [
      { offset: 0, pid: 5, kind: 'txn' }, { offset: 1, pid: 5, kind: 'commit' },
      { offset: 2, pid: 5, kind: 'txn', count: 3 }, { offset: 5, pid: 5, kind: 'abort' },
    ],
    aborted: [[5, 2]],
    want: ['txn@0'],
  },
  {
    name: 'a non-transactional batch of an aborting producer id (idempotent, not in the transaction)',
    entries: [{ offset: 0, pid: 9, kind: 'txn' }, { offset: 1, pid: 9, kind: 'data' }, { offset: 2, pid: 9, kind: 'abort' }],
    aborted: [[9, 0]],
    want: ['data@1'],
  },
  {
    name: 'no AbortedTransactions (null): only the markers go',
    entries: [{ offset: 0, pid: 1, kind: 'txn' }, { offset: 1, pid: 1, kind: 'abort' }, { offset: 2, pid: -1, kind: 'data' }],
    aborted: null,
    want: ['txn@0', 'data@2'],
  },
];

describe('readCommitted', () => {
  for (const c of cases) {
    for (const lazy of [false, true]) {
      it(`${c.name} (${lazy ? 'lazy' : 'eager'} batches)`, () => {
        const aborted = c.aborted && c.aborted.map(([pid, first]) => ({ producerId: BigInt(pid), firstOffset: BigInt(first) }));
        expect(delivered(log(c.entries), aborted, lazy)).toEqual(c.want);
      });
    }
  }

  it('takes AbortedTransactions in any order', () => {
    const entries: Entry[] = [
      { offset: 0, pid: 1, kind: 'txn' }, { offset: 1, pid: 1, kind: 'abort' },
      { offset: 2, pid: 2, kind: 'txn' }, { offset: 3, pid: 2, kind: 'abort' }, { offset: 4, pid: 3, kind: 'txn' },
    ];
    const aborted = [{ producerId: 2n, firstOffset: 2n }, { producerId: 1n, firstOffset: 0n }];
    expect(delivered(log(entries), aborted, true)).toEqual(['txn@4']);
  });
});
