// The library's read of given partitions (consumer/assigned.ts readAssigned, from startOffsets):
// every record once and in order per partition to the end, a limit, a stop timestamp, read_committed
// on a log without transactions, and each way startOffsets reads a start (against the memory broker).
import { describe, expect, it } from 'vitest';
import { startMemoryBroker } from '../../src/wire/memory-broker.js';
import { KafkaClient } from '../../src/wire/client.js';
import { encodeRecordBatch, type RecordBatch } from '../../src/records/index.js';
import { readAssigned, startOffsets, type StartAt } from '../../src/consumer/index.js';

const T0 = 1_700_000_000_000;

describe('readAssigned', () => {
  it('reads every partition from its start to its end, stops at a limit or a timestamp, and startOffsets reads each start', async () => {
    const broker = await startMemoryBroker({ topics: { a: 3 } });
    const client = new KafkaClient({ bootstrap: broker.bootstrap });
    try {
      // Partition p holds 300 * (p + 1) records in batches of 100, record i stamped T0 + i.
      for (let p = 0; p < 3; p++) {
        for (let b = 0; b < 3 * (p + 1); b++) {
          broker.append('a', p, encodeRecordBatch({ compression: b % 2 ? 'lz4' : 'none', records: Array.from({ length: 100 }, (_, i) => ({ timestamp: T0 + b * 100 + i, value: `${p}:${b * 100 + i}` })) }));
        }
      }
      const info = await client.topic('a');
      type Extra = { limit?: number; stopAtTimestamp?: bigint; isolationLevel?: number };
      const readWith = async (at: StartAt, extra: Extra, ranged: boolean) => {
        const start = await startOffsets(client, 'a', [0, 1, 2], at, extra.isolationLevel);
        const got = new Map<number, number[]>([[0, []], [1, []], [2, []]]);
        let answers = 0, ranges = 0;
        const record = (partition: number, batch: RecordBatch, i: number, offset: number | bigint) => {
          expect(Buffer.from(batch.valueAt(i)!).toString()).toBe(`${partition}:${offset}`);
          got.get(partition)!.push(Number(offset));
        };
        const n = await readAssigned(client, info, {
          start, exitAtEnd: true, ...extra, record,
          // A range of a batch at once (the CLI's JSON lines in WebAssembly): the same records.
          records: ranged ? (partition, batch, from, to) => {
            ranges++;
            expect(to).toBeGreaterThan(from);
            for (let i = from; i < to; i++) record(partition, batch, i, batch.baseOffsetNumber + batch.offsetDeltaAt(i));
          } : undefined,
          answered: () => { answers++; },
        });
        expect(n).toBe([...got.values()].reduce((s, l) => s + l.length, 0));
        if (n > 0) expect(answers).toBeGreaterThan(0);
        // Ranges are used unless a stop timestamp asks for a look at each record.
        if (ranged && n > 0) expect(ranges > 0).toBe(extra.stopAtTimestamp === undefined);
        return { start, got };
      };
      const read = async (at: StartAt, extra: Extra = {}) => {
        const one = await readWith(at, extra, false);
        expect((await readWith(at, extra, true)).got).toEqual(one.got);
        return one;
      };
      const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

      const all = await read('earliest');
      for (let p = 0; p < 3; p++) {
        expect(all.got.get(p)).toEqual(range(0, 300 * (p + 1)));
        expect(all.start.get(p)).toEqual({ offset: 0n, end: BigInt(300 * (p + 1)) });
      }
      expect((await read('earliest', { isolationLevel: 1 })).got).toEqual(all.got);
      expect([...(await read('latest')).got.values()].flat()).toEqual([]);
      expect((await read({ beforeEnd: 10n })).got.get(2)).toEqual(range(890, 900));
      expect((await read({ beforeEnd: 5000n })).got.get(0)).toEqual(range(0, 300)); // not before the log's start
      expect((await read({ offset: 250n })).got.get(1)).toEqual(range(250, 600));
      expect((await read({ offset: 199n })).got.get(2)).toEqual(range(199, 900)); // from a batch's last record
      expect((await read({ timestamp: BigInt(T0 + 420) })).got.get(1)).toEqual(range(400, 600)); // the memory broker answers the batch that holds it
      const stopped = await read('earliest', { stopAtTimestamp: BigInt(T0 + 150) });
      for (let p = 0; p < 3; p++) expect(stopped.got.get(p)).toEqual(range(0, 150));
      const limited = await read('earliest', { limit: 250 });
      expect([...limited.got.values()].reduce((s, l) => s + l.length, 0)).toBe(250);
    } finally {
      await client.close();
      await broker.close();
    }
  });
});
