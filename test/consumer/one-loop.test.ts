// The library's one fetch loop (consumer/fetcher.ts) under both of its readers, on the memory
// broker: readAssigned (what `kafka-wire consume` runs) and the Consumer in assign mode read the
// same records in the same order; readAssigned goes on past the end without -e, rejects with what
// its record callback threw, stops at once on its signal (not after the Fetch the broker holds),
// and leaves the caller's client usable; the Consumer's buffer limit holds while the loop sends
// each leader's next Fetch before handing an answer on; the first Fetch asks for every partition
// assigned together, so an empty first partition does not hold the others' records back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { KafkaClient } from '../../src/wire/client.js';
import { encodeRecordBatch } from '../../src/records/index.js';
import { Consumer, readAssigned, startOffsets } from '../../src/consumer/index.js';

const PARTITIONS = 3;
const BATCHES = 6;
const PER_BATCH = 50;

describe('one fetch loop, two readers', () => {
  let broker: MemoryBroker;
  let client: KafkaClient;
  beforeAll(async () => {
    broker = await startMemoryBroker({ autoCreateTopics: false, topics: { t: PARTITIONS, later: 1, gap: 2 } });
    broker.append('gap', 1, encodeRecordBatch({ records: [{ value: 'only in partition 1' }] }));
    for (let p = 0; p < PARTITIONS; p++) {
      for (let b = 0; b < BATCHES; b++) {
        broker.append('t', p, encodeRecordBatch({ compression: b % 2 ? 'lz4' : 'none', records: Array.from({ length: PER_BATCH }, (_, i) => ({ value: `${p}:${b * PER_BATCH + i}` })) }));
      }
    }
    client = new KafkaClient({ bootstrap: broker.bootstrap });
  });
  afterAll(async () => {
    await client?.close();
    await broker?.close();
  });

  const startAll = async (topic = 't', partitions = [0, 1, 2]) => startOffsets(client, topic, partitions, 'earliest');

  it('readAssigned and the Consumer in assign mode hand on the same records, in offset order per partition', async () => {
    const viaRead: string[][] = [[], [], []];
    const info = await client.topic('t');
    const n = await readAssigned(client, info, {
      start: await startAll(), exitAtEnd: true,
      record: (p, batch, i, offset) => { viaRead[p]!.push(`${offset} ${Buffer.from(batch.valueAt(i)!).toString()}`); },
    });
    expect(n).toBe(PARTITIONS * BATCHES * PER_BATCH);

    const viaConsumer: string[][] = [[], [], []];
    // Small answers, so the Consumer's loop goes round many times too.
    const c = new Consumer({ bootstrap: broker.bootstrap, assign: [{ topic: 't' }], resetPolicy: 'earliest', partitionMaxBytes: 1024, maxWaitMs: 20, lazy: true });
    let got = 0;
    for await (const batch of c) {
      for (const r of batch.records()) viaConsumer[batch.partition]!.push(`${r.offset} ${Buffer.from(r.value!).toString()}`);
      got += batch.recordCount;
      if (got >= n) break;
    }
    await c.close();
    expect(viaConsumer).toEqual(viaRead);
    for (let p = 0; p < PARTITIONS; p++) expect(viaRead[p]).toEqual(Array.from({ length: BATCHES * PER_BATCH }, (_, i) => `${i} ${p}:${i}`));
  });

  it('readAssigned without exitAtEnd goes on past the end: records appended later are read, up to the limit', async () => {
    const info = await client.topic('later');
    const start = await startAll('later', [0]);
    const got: string[] = [];
    const reading = readAssigned(client, info, { start, exitAtEnd: false, limit: 3, record: (_p, b, i) => { got.push(Buffer.from(b.valueAt(i)!).toString()); } });
    await new Promise((r) => setTimeout(r, 50));
    broker.append('later', 0, encodeRecordBatch({ records: [{ value: 'a' }, { value: 'b' }] }));
    await new Promise((r) => setTimeout(r, 50));
    broker.append('later', 0, encodeRecordBatch({ records: [{ value: 'c' }, { value: 'd' }] }));
    expect(await reading).toBe(3);
    expect(got).toEqual(['a', 'b', 'c']);
  });

  it('readAssigned stops at once on its signal, and rejects with what its record callback threw; the client reads on', async () => {
    const info = await client.topic('t');
    const start = await startOffsets(client, 't', [0, 1, 2], 'latest');
    const ac = new AbortController();
    const waiting = readAssigned(client, info, { start, exitAtEnd: false, signal: ac.signal, record: () => {} });
    await new Promise((r) => setTimeout(r, 50)); // the Fetch is now held by the broker (500 ms)
    const aborted = performance.now();
    ac.abort();
    expect(await waiting).toBe(0);
    expect(performance.now() - aborted).toBeLessThan(250);

    const boom = new Error('the caller failed');
    const failing = readAssigned(client, info, { start: await startAll(), exitAtEnd: true, record: (_p, _b, _i, offset) => { if (offset === 60) throw boom; } });
    await expect(failing).rejects.toBe(boom);

    const limited = await readAssigned(client, info, { start: await startAll(), exitAtEnd: true, limit: 10, record: () => {} });
    expect(limited).toBe(10);
    // After a stop (limit, signal, error) the same client's connection reads everything again.
    const all = await readAssigned(client, info, { start: await startAll(), exitAtEnd: true, record: () => {} });
    expect(all).toBe(PARTITIONS * BATCHES * PER_BATCH);
  });

  it('the Consumer\'s buffer limit holds with the next Fetch sent before an answer is handed on', async () => {
    const limit = 2048;
    const c = new Consumer({ bootstrap: broker.bootstrap, assign: [{ topic: 't' }], resetPolicy: 'earliest', maxBufferedBytes: limit, partitionMaxBytes: 1024, fetchMaxBytes: 1024, maxWaitMs: 20 });
    let maxBuffered = 0;
    let got = 0;
    for await (const batch of c) {
      maxBuffered = Math.max(maxBuffered, c.bufferedBytes);
      got += batch.recordCount;
      await new Promise((r) => setTimeout(r, 2)); // a slow caller: fetching must wait for it
      if (got >= PARTITIONS * BATCHES * PER_BATCH) break;
    }
    await c.close();
    expect(got).toBe(PARTITIONS * BATCHES * PER_BATCH);
    // One leader: at most the limit plus the one answer that crossed it (a Fetch asks for 1024
    // bytes at most, but a first batch larger than that comes whole).
    const largestBatch = Math.max(...[...broker.topics.get('t')!.partitions].flatMap((l) => l.batches.map((b) => b.bytes.length)));
    expect(maxBuffered).toBeLessThanOrEqual(limit + Math.max(1024, largestBatch) * PARTITIONS);
    expect(maxBuffered).toBeGreaterThan(0);
  });

  it('partitions assigned together go into one first Fetch: an empty partition 0 does not hold partition 1\'s records for maxWaitMs', async () => {
    // Partition 0 of 'gap' is empty, so a Fetch for it alone is held by the broker for maxWaitMs.
    const c = new Consumer({ bootstrap: broker.bootstrap, assign: [{ topic: 'gap' }], resetPolicy: 'earliest', maxWaitMs: 3000 });
    const started = performance.now();
    let first: string | undefined;
    for await (const batch of c) { first = `${batch.partition} ${Buffer.from(batch.records()[0]!.value!).toString()}`; break; }
    const ms = performance.now() - started;
    await c.close();
    expect(first).toBe('1 only in partition 1');
    expect(ms).toBeLessThan(1500);
  });
});
