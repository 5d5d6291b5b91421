// The library consumer's rules as an app meets them, against librdkafka's mock cluster (a classic
// group, autoCommit 'manual', so only close() commits; each case a fresh group over one 40-record
// batch): a loop body left by a throw, or by a break after markOffset(), finishes what was marked
// (or nothing), never the whole batch; run()'s eachRecord commits up to the last record it
// finished. On the memory broker (no groups): an assigned topic that does not exist is a typed
// ConsumerError UNKNOWN_TOPIC. (Subscribed missing topics are in group-kafka.test.ts: the mock
// cluster creates every topic a Metadata names.)

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockClusterAvailable, startMockCluster, type MockCluster } from '../wire/mock-cluster.js';
import { peer } from '../helpers/peer.js';
import { Consumer, ConsumerError, SerdeError, serdes, jsonSafe, type ConsumerOptions, type ConsumerRecord } from '../../src/consumer/index.js';
import { createProducer } from '../../src/producer/index.js';
import { fetchCommitted } from '../../src/consumer/offsets.js';
import { findCoordinator } from '../../src/consumer/classic.js';
import { KafkaClient } from '../../src/wire/client.js';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { produceNumbered } from './group-helpers.js';

const mockOk = peer('librdkafka mock cluster', (await mockClusterAvailable()).ok, 'apt-get install librdkafka-dev and a C compiler');

const TOPIC = 'once';
const RECORDS = 40;

describe.skipIf(!mockOk)('the library consumer on the mock cluster', () => {
  let mc: MockCluster;
  beforeAll(async () => {
    mc = await startMockCluster({ brokers: 1, topics: [`${TOPIC}:1`] });
    await produceNumbered(mc.bootstrap, TOPIC, 1, 0, RECORDS, 'r', RECORDS); // one record batch
  });
  afterAll(async () => { await mc?.stop(); });

  let groups = 0;
  const consumer = <K = Uint8Array, V = Uint8Array>(extra: Partial<ConsumerOptions<K, V>> = {}) => new Consumer<K, V>({
    bootstrap: mc.bootstrap, groupId: `once-${++groups}`, topics: [TOPIC], groupProtocol: 'classic',
    sessionTimeoutMs: 6000, heartbeatIntervalMs: 500, resetPolicy: 'earliest', autoCommit: 'manual', ...extra,
  });

  /** What the consumer's group has committed for partition 0 (undefined: nothing). */
  async function committed(c: Consumer<unknown, unknown>): Promise<bigint | undefined> {
    const groupId = c.options.groupId!;
    const client = new KafkaClient({ bootstrap: mc.bootstrap });
    try {
      const conn = await findCoordinator(client, groupId);
      const offsets = await fetchCommitted(conn, groupId, [{ topic: TOPIC, partitions: [0] }], false);
      await conn.close();
      return offsets.get(TOPIC)?.get(0);
    } finally {
      await client.close();
    }
  }

  it('a loop body that throws at the 10th record commits nothing', async () => {
    const c = consumer();
    const boom = new Error('handler failed');
    let seen = 0;
    await expect((async () => {
      for await (const batch of c) {
        expect(batch.recordCount).toBe(RECORDS);
        for (const _ of batch.records()) if (++seen === 10) throw boom;
      }
    })()).rejects.toBe(boom);
    await c.close();
    expect(await committed(c)).toBeUndefined();
  });

  it('a loop body that marks offset 9 done and then throws commits 10', async () => {
    const c = consumer();
    await expect((async () => {
      for await (const batch of c) {
        for (const r of batch.records()) {
          if (r.offset === 10n) throw new Error('handler failed');
          c.markOffset(batch.topic, batch.partition, r.offset + 1n);
        }
      }
    })()).rejects.toThrow('handler failed');
    await c.close();
    expect(await committed(c)).toBe(10n);
  });

  it('a break right after markOffset() at offset 9 commits 10, not the batch', async () => {
    const c = consumer();
    outer: for await (const batch of c) {
      for (const r of batch.records()) {
        if (r.offset === 9n) { c.markOffset(batch.topic, batch.partition, 10n); break outer; }
      }
    }
    await c.close();
    expect(await committed(c)).toBe(10n);
  });

  it('a break after markFinished(batch) commits the whole batch', async () => {
    const c = consumer();
    for await (const batch of c) {
      c.markFinished(batch);
      break;
    }
    await c.close();
    expect(await committed(c)).toBe(BigInt(RECORDS));
  });

  it('run({ eachRecord }) that throws at the 10th record commits the 9 before it', async () => {
    const c = consumer();
    const seen: bigint[] = [];
    const err = await c.run({ eachRecord: (r) => { if (seen.push(r.offset) === 10) throw new Error('record handler failed'); } }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('record handler failed');
    await c.close();
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => BigInt(i)));
    expect(await committed(c)).toBe(9n);
  });

  it('run({ eachRecord }) with a value deserializer that fails at offset 5: SerdeError, 5 committed', async () => {
    const c = consumer({
      keyDeserializer: serdes.string,
      valueDeserializer: (bytes) => { const v = Buffer.from(bytes).toString(); if (v === 'r5') throw new Error('not a number'); return Number(v.slice(1)); },
    });
    const values: number[] = [];
    const err = await c.run({ eachRecord: (r) => { values.push(r.value!); } }).catch((e: unknown) => e);
    await c.close();
    expect(values).toEqual([0, 1, 2, 3, 4]);
    expect(err).toBeInstanceOf(SerdeError);
    expect(err).toMatchObject({ code: 'DESERIALIZE', topic: TOPIC, partition: 0, offset: 5n, field: 'value' });
    expect(await committed(c)).toBe(5n);
  });

  it('positions that say what they are: fetched runs ahead of processed, committed follows commit()', async () => {
    const c = consumer();
    for await (const batch of c) {
      c.markOffset(batch.topic, batch.partition, 4n); // processed 0..3 of 40
      expect(c.fetchPositions()).toMatchObject([{ topic: TOPIC, partition: 0, offset: BigInt(RECORDS), highWatermark: BigInt(RECORDS) }]);
      expect(c.positions()).toEqual(c.fetchPositions());
      expect(c.processedPositions()).toEqual([{ topic: TOPIC, partition: 0, offset: 4n }]);
      expect(c.committed()).toEqual([]);
      await c.commit();
      expect(c.committed()).toEqual([{ topic: TOPIC, partition: 0, offset: 4n }]);
      break;
    }
    await c.close();
    expect(await committed(c)).toBe(4n);
  });

  it('a loop body that asks for the next batch finishes the one before', async () => {
    const c = consumer({ maxWaitMs: 50 });
    let batches = 0;
    for await (const _ of c) {
      batches++;
      setTimeout(() => { void c.close(); }, 100); // the loop is waiting for the next batch by then
    }
    await c.close();
    expect(batches).toBe(1);
    expect(await committed(c)).toBe(BigInt(RECORDS));
  });
});

describe('the library consumer on the memory broker', () => {
  let broker: MemoryBroker;
  beforeAll(async () => { broker = await startMemoryBroker({ autoCreateTopics: false, topics: { present: 1 } }); });
  afterAll(async () => { await broker?.close(); });

  it('an assigned topic that does not exist: ConsumerError UNKNOWN_TOPIC with Kafka\'s error name', async () => {
    const lines: string[] = [];
    const c = new Consumer({ bootstrap: broker.bootstrap, assign: [{ topic: 'no-such-topic' }], debug: (m) => lines.push(m) });
    const events: string[][] = [];
    c.on('missingTopics', (t) => events.push(t));
    const err = await (async () => { for await (const _ of c) { /* never */ } })().catch((e: unknown) => e);
    await c.close();
    expect(err).toBeInstanceOf(ConsumerError);
    expect(err).toMatchObject({ name: 'ConsumerError', code: 'UNKNOWN_TOPIC', errorCode: 3, errorName: 'UNKNOWN_TOPIC_OR_PARTITION', topic: 'no-such-topic' });
    expect((err as Error).message).toBe('topic no-such-topic does not exist: UNKNOWN_TOPIC_OR_PARTITION (3)');
    expect(events).toEqual([['no-such-topic']]);
    expect(lines).toContain('topic no-such-topic not available: UNKNOWN_TOPIC_OR_PARTITION (3)');
  });

  interface Order { id: number; total: number; placed: bigint }

  it('serdes both ways: the producer serialises, the consumer hands out typed records, jsonSafe writes them', async () => {
    broker.createTopic('orders', 1);
    const producer = await createProducer({ bootstrap: broker.bootstrap, keySerializer: serdes.string, valueSerializer: serdes.json<Order>() });
    await producer.send('orders', [
      { key: 'o-1', value: { id: 1, total: 9.5, placed: 1_700_000_000_000n } },
      { key: 'o-2', value: null }, // a tombstone stays null
      { key: null, value: { id: 3, total: 0, placed: 0n } },
    ]);
    await producer.close();
    const c = new Consumer({ bootstrap: broker.bootstrap, assign: [{ topic: 'orders' }], resetPolicy: 'earliest',
      keyDeserializer: serdes.string, valueDeserializer: serdes.json<Order>() });
    const got: ConsumerRecord<string, Order>[] = [];
    await c.run({ eachRecord: async (r) => { got.push(r); if (got.length === 3) setImmediate(() => { void c.close(); }); } });
    expect(got.map((r) => [r.offset, r.key, r.value])).toEqual([
      [0n, 'o-1', { id: 1, total: 9.5, placed: '1700000000000' }], // JSON has no bigint: written as a decimal string
      [1n, 'o-2', null],
      [2n, null, { id: 3, total: 0, placed: '0' }],
    ]);
    expect(c.processedPositions()).toEqual([{ topic: 'orders', partition: 0, offset: 3n }]);
    expect(() => JSON.stringify(got[0])).toThrow(/BigInt/);
    const safe = JSON.parse(JSON.stringify(got.map((r) => jsonSafe(r))));
    expect(safe[0]).toMatchObject({ topic: 'orders', partition: 0, offset: '0', key: 'o-1', value: { id: 1 }, headers: [] });
    expect(typeof safe[0].timestamp).toBe('string');
  });

  it('a serializer that throws: send() rejects with SerdeError naming the topic and field', async () => {
    const producer = await createProducer({ bootstrap: broker.bootstrap, valueSerializer: (v: number) => { if (v < 0) throw new Error('negative'); return Uint8Array.of(v); } });
    const err = await producer.send('present', [{ value: 1 }, { value: -1 }]).catch((e: unknown) => e);
    await producer.close();
    expect(err).toBeInstanceOf(SerdeError);
    expect(err).toMatchObject({ code: 'SERIALIZE', topic: 'present', field: 'value' });
    expect((err as Error).message).toBe('topic present: the value serializer failed: negative');
  });

  it('atEnd() waits for what is fetched to be handled; the fetch positions alone reach the end first', async () => {
    broker.createTopic('to-the-end', 2);
    const producer = await createProducer({ bootstrap: broker.bootstrap, lingerMs: 0 });
    for (let i = 0; i < 40; i++) await producer.send('to-the-end', Array.from({ length: 50 }, (_, j) => ({ key: `k${i}-${j}`, value: 'x'.repeat(40) })));
    await producer.close();
    const c = new Consumer({ bootstrap: broker.bootstrap, assign: [{ topic: 'to-the-end' }], resetPolicy: 'earliest', partitionMaxBytes: 4096, maxWaitMs: 20 });
    let handled = 0;
    let fetchedToEndFirst = false;
    const check = setInterval(() => {
      const fetched = c.fetchPositions();
      if (fetched.length > 0 && fetched.every((p) => p.highWatermark >= 0n && p.offset >= p.highWatermark) && handled < 2000) fetchedToEndFirst = true;
      if (c.atEnd()) void c.close();
    }, 5);
    await c.run(async (batch) => { await new Promise((r) => setTimeout(r, 5)); handled += batch.recordCount; });
    clearInterval(check);
    expect(handled).toBe(2000);
    expect(fetchedToEndFirst).toBe(true);
  }, 30_000);
});
