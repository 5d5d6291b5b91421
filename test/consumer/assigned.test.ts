// The library's read of given partitions (consumer/assigned.ts readAssigned, from startOffsets):
// every record once and in order per partition to the end, a limit, a stop timestamp, read_committed
// on a log without transactions, and each way startOffsets reads a start (against the memory broker).
import { describe, expect, it } from 'vitest';
import { startMemoryBroker } from '../../src/wire/memory-broker.js';
import { KafkaClient } from '../../src/wire/client.js';
import { encodeRecordBatch } from '../../src/records/index.js';
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
      const read = async (at: StartAt, extra: { limit?: number; stopAtTimestamp?: bigint; isolationLevel?: number } = {}) => {
        const start = await startOffsets(client, 'a', [0, 1, 2], at, extra.isolationLevel);
        const got = new Map<number, number[]>([[0, []], [1, []], [2, []]]);
        let answers = 0;
        const n = await readAssigned(client, info, {
          start, exitAtEnd: true, ...extra,
          record: (partition, batch, i, offset) => {
            expect(Buffer.from(batch.valueAt(i)!).toString()).toBe(`${partition}:${offset}`);
            got.get(partition)!.push(Number(offset));
          },
          answered: () => { answers++; },
        });
        expect(n).toBe([...got.values()].reduce((s, l) => s + l.length, 0));
        if (n > 0) expect(answers).toBeGreaterThan(0);
        return { start, got };
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
