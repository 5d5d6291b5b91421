// PartitionBatch.release() (consumer/fetcher.ts) on the memory broker: a Consumer whose caller
// releases each batch reads later answers into the frames and row tables it gave back, and
// every record still reads right; an answer's frame is not reused while any partition's batch of
// it is unreleased (that batch's records stay intact); a caller that never releases gets nothing
// reused, and every batch it keeps stays right; a released batch has no batches left; and eager
// (not lazy) batches release the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { encodeRecordBatch } from '../../src/records/index.js';
import { Consumer, type PartitionBatch } from '../../src/consumer/index.js';
import type { FramePool } from '../../src/wire/frame-pool.js';

const PARTITIONS = 4;
const BATCHES = 9;
const PER_BATCH = 1000;
const TOTAL = PARTITIONS * BATCHES * PER_BATCH;
/** 100 B a record, three batches of each partition per answer: answers over 1 MiB and row tables over 64 KiB (both pooled). */
const value = (p: number, i: number) => `${p}:${i}:`.padEnd(100, String.fromCharCode(0x61 + ((p + i) % 26)));

/** Every record of the batch checked against what was written; how many. */
function check(batch: PartitionBatch): number {
  let n = 0;
  for (const b of batch.batches) {
    for (let i = 0; i < b.recordCount; i++) {
      const offset = b.baseOffsetNumber + b.offsetDeltaAt(i);
      if (offset < Number(batch.firstOffset)) continue;
      expect(Buffer.from(b.valueAt(i)!).toString()).toBe(value(batch.partition, offset));
      n++;
    }
  }
  return n;
}

describe('PartitionBatch.release()', () => {
  let broker: MemoryBroker;
  beforeAll(async () => {
    broker = await startMemoryBroker({ autoCreateTopics: false, topics: { t: PARTITIONS } });
    for (let p = 0; p < PARTITIONS; p++) {
      for (let b = 0; b < BATCHES; b++) {
        broker.append('t', p, encodeRecordBatch({ records: Array.from({ length: PER_BATCH }, (_, i) => ({ value: value(p, b * PER_BATCH + i) })) }));
      }
    }
  });
  afterAll(async () => { await broker?.close(); });

  const consumer = (lazy = true) => new Consumer({
    bootstrap: broker.bootstrap, assign: [{ topic: 't' }], resetPolicy: 'earliest', lazy,
    // Three batches of each partition per answer (about 110 kB each): several answers, each
    // holding every partition.
    partitionMaxBytes: 3 * PER_BATCH * 115,
  });
  const framesOf = (c: Consumer) => c.client.options.frames as FramePool;

  it('reads later answers into the released frames and row tables, every record right', async () => {
    const c = consumer();
    const tables = new Set<ArrayBufferLike>();
    let tablesReused = 0;
    let n = 0;
    for await (const batch of c) {
      n += check(batch);
      const rows = batch.batches[0]!._rows!.buffer;
      if (tables.has(rows)) tablesReused++;
      tables.add(rows);
      batch.release();
      expect(batch.batches).toEqual([]);
      expect(batch.records()).toEqual([]);
      batch.release(); // twice: nothing more
      if (n >= TOTAL) break;
    }
    await c.close();
    expect(n).toBe(TOTAL);
    expect(framesOf(c).reused).toBeGreaterThan(0);
    expect(tablesReused).toBeGreaterThan(0);
  });

  it('keeps an answer\'s frame while one of its partitions\' batches is unreleased', async () => {
    const c = consumer();
    let held: PartitionBatch | undefined;
    let sharing = 0;
    let n = 0;
    for await (const batch of c) {
      n += check(batch);
      if (held === undefined) { held = batch; continue; } // the first answer's first partition: kept
      if (batch.batches[0]!.data.buffer === held.batches[0]!.data.buffer) sharing++;
      batch.release();
      if (n >= TOTAL) break;
    }
    await c.close();
    expect(n).toBe(TOTAL);
    expect(sharing).toBe(PARTITIONS - 1); // the answer held every partition: the case is real
    expect(framesOf(c).reused).toBeGreaterThan(0); // later answers' frames were reused...
    expect(check(held!)).toBeGreaterThan(0); // ...but not the held one's: its records are intact
    held!.release();
  });

  it('without release, nothing is reused and every kept batch stays right', async () => {
    const c = consumer();
    const kept: PartitionBatch[] = [];
    let n = 0;
    for await (const batch of c) {
      kept.push(batch);
      n += batch.recordCount;
      if (n >= TOTAL) break;
    }
    await c.close();
    expect(framesOf(c).reused).toBe(0);
    expect(kept.reduce((sum, b) => sum + check(b), 0)).toBe(TOTAL);
  });

  it('releases eager batches too', async () => {
    const c = consumer(false);
    let n = 0;
    for await (const batch of c) {
      for (const r of batch.records()) {
        expect(Buffer.from(r.value!).toString()).toBe(value(batch.partition, Number(r.offset)));
        n++;
      }
      batch.release();
      if (n >= TOTAL) break;
    }
    await c.close();
    expect(n).toBe(TOTAL);
    expect(framesOf(c).reused).toBeGreaterThan(0);
  });
});
