// FramePool (src/wire/frame-pool.ts): large frames received into buffers their reader gave back,
// only the pool's own buffers taken back; and kafka-wire consume's use of it through readAssigned's
// releaseBatches, every record read right though each answer's frame is received into the one before's.
import { describe, expect, it } from 'vitest';
import { FramePool } from '../../src/wire/frame-pool.js';
import { FrameSplitter } from '../../src/wire/frame-splitter.js';
import { startMemoryBroker } from '../../src/wire/memory-broker.js';
import { KafkaClient } from '../../src/wire/client.js';
import { encodeRecordBatch, type RecordBatch } from '../../src/records/index.js';
import { readAssigned, startOffsets } from '../../src/consumer/index.js';

const MiB = 1 << 20;

describe('FramePool', () => {
  it('hands a given-back buffer to the next frame it can hold, and takes back only its own buffers', () => {
    const pool = new FramePool({ keep: 2 });
    const a = pool.take(3 * MiB + 5);
    expect(a.length).toBe(3 * MiB + 5);
    pool.giveBack(a.buffer);
    pool.giveBack(a.buffer); // twice: kept once
    const b = pool.take(3 * MiB + 100); // rounded up to whole MiB: a's buffer holds it
    expect(b.buffer).toBe(a.buffer);
    expect(pool.reused).toBe(1);
    expect(pool.take(MiB).buffer).not.toBe(a.buffer); // a's buffer is taken
    // A frame larger than any buffer given back gets a new one.
    pool.giveBack(b.buffer);
    expect(pool.take(5 * MiB).buffer).not.toBe(b.buffer);
    // Small frames are not pooled; foreign buffers are ignored.
    const small = pool.take(1000);
    pool.giveBack(small.buffer);
    pool.giveBack(new ArrayBuffer(8 * MiB));
    expect(pool.take(1000).buffer).not.toBe(small.buffer);
    expect(pool.take(7 * MiB).buffer).not.toBe(b.buffer); // b's buffer holds 4 MiB
    // At most `keep` buffers are kept.
    const many = [pool.take(2 * MiB), pool.take(2 * MiB), pool.take(2 * MiB)];
    for (const m of many) pool.giveBack(m.buffer);
    const again = [pool.take(2 * MiB), pool.take(2 * MiB), pool.take(2 * MiB)].map((m) => m.buffer);
    expect(again.filter((x) => many.some((m) => m.buffer === x))).toHaveLength(2);
  });

  it('is where a splitter receives its large frames', () => {
    const pool = new FramePool();
    const s = new FrameSplitter({ allocate: (n) => pool.take(n), chunksReused: true });
    const frame = new Uint8Array(2 * MiB);
    new DataView(frame.buffer).setInt32(0, frame.length - 4);
    frame.fill(7, 4);
    const first = [...s.push(frame.subarray(0, 1000)), ...s.push(frame.subarray(1000))];
    expect(first).toHaveLength(1);
    pool.giveBack(first[0]!.buffer);
    frame.fill(9, 4);
    const second = [...s.push(frame.subarray(0, 1000)), ...s.push(frame.subarray(1000))];
    expect(second[0]!.buffer).toBe(first[0]!.buffer);
    expect(second[0]![frame.length - 1]).toBe(9);
  });
});

describe('readAssigned with a FramePool (what kafka-wire consume does)', () => {
  it('with releaseBatches, reads every record right with frames received into given-back buffers; without, gives nothing back', async () => {
    const broker = await startMemoryBroker({ topics: { big: 4 } });
    try {
      // Each partition 6 MB in batches of 200 records of 5 kB: answers of several MiB, several per partition.
      const value = (p: number, i: number) => `${p}:${i}:`.padEnd(5000, String.fromCharCode(0x61 + ((p + i) % 26)));
      for (let p = 0; p < 4; p++) {
        for (let b = 0; b < 6; b++) broker.append('big', p, encodeRecordBatch({ records: Array.from({ length: 200 }, (_, i) => ({ value: value(p, b * 200 + i) })) }));
      }
      for (const releaseBatches of [true, false]) {
        const pool = new FramePool();
        const client = new KafkaClient({ bootstrap: broker.bootstrap, frames: pool });
        try {
          const info = await client.topic('big');
          const start = await startOffsets(client, 'big', [0, 1, 2, 3], 'earliest');
          let records = 0;
          const check = (partition: number, batch: RecordBatch, i: number) => {
            expect(Buffer.from(batch.valueAt(i)!).toString()).toBe(value(partition, batch.baseOffsetNumber + batch.offsetDeltaAt(i)));
            records++;
          };
          await readAssigned(client, info, {
            start, exitAtEnd: true, releaseBatches,
            record: (partition, batch, i) => check(partition, batch, i),
            records: (partition, batch, from, to) => { for (let i = from; i < to; i++) check(partition, batch, i); },
          });
          expect(records).toBe(4 * 6 * 200);
          if (releaseBatches) expect(pool.reused).toBeGreaterThan(0);
          else expect(pool.reused).toBe(0);
        } finally {
          await client.close();
        }
      }
    } finally {
      await broker.close();
    }
  });
});
