// The producer against the memory broker (which checks sequences as Kafka does): offsets per
// record, Java's partitioning, batches numbered per partition, retries after lost answers that
// neither duplicate nor reorder, a lost sequence surfacing as a typed error and a new epoch,
// backpressure, acks 0, and the typed errors for bad input.
import { describe, expect, it } from 'vitest';
import type { MemoryBroker } from '../../src/wire/memory-broker.js';
import { partitionForKey } from '../../src/wire/partitioner.js';
import { decodeRecordBatches } from '../../src/records/index.js';
import { ProducerError, type BatchAck } from '../../src/producer/index.js';
import { closeAfter, testBroker, testProducer } from './scope.js';
import { startLossyProxy, type LossyProxy } from './lossy-proxy.js';

const text = new TextDecoder();
const enc = new TextEncoder();
function broker(topics: Record<string, number>, options: { autoCreateTopics?: boolean } = {}): Promise<MemoryBroker> {
  return testBroker({ topics, ...options });
}

const producer = testProducer;

/** Every record stored in a partition, in offset order, with its batch's producer fields. */
function stored(b: MemoryBroker, topic: string, partition: number) {
  const out: { offset: bigint; key: string | null; value: string; producerId: bigint; epoch: number; sequence: number }[] = [];
  for (const sb of b.topics.get(topic)!.partitions[partition]!.batches) {
    for (const batch of decodeRecordBatches(sb.bytes).batches) {
      batch.records.forEach((r, i) => out.push({
        offset: r.offset, key: r.key === null ? null : text.decode(r.key), value: text.decode(r.value!),
        producerId: batch.producerId, epoch: batch.producerEpoch, sequence: batch.baseSequence + i,
      }));
    }
  }
  return out;
}

describe('producer against the memory broker', () => {
  it('send() resolves with each record\'s partition and offset; keys go where the Java client puts them', async () => {
    const b = await broker({ t: 6 });
    const p = await producer({ bootstrap: b.bootstrap });
    expect(p.idempotent).toBe(true);
    expect(p.producerId.producerId >= 0n).toBe(true);
    const keys = Array.from({ length: 50 }, (_, i) => `key-${i}`);
    const res = await p.send('t', keys.map((k) => ({ key: k, value: `v-${k}` })));
    const next = new Map<number, bigint>();
    res.forEach((m, i) => {
      expect(m.partition).toBe(partitionForKey(enc.encode(keys[i]!), 6));
      expect(m.offset).toBe(next.get(m.partition) ?? 0n); // in order within the partition
      next.set(m.partition, m.offset + 1n);
    });
    for (const m of res) {
      const rec = stored(b, 't', m.partition).find((r) => r.offset === m.offset)!;
      expect(rec.key).toBe(keys[res.indexOf(m)]);
    }
    const explicit = await p.send('t', { value: 'there' }, { partition: 4 });
    expect(explicit[0]).toMatchObject({ partition: 4 });
  });

  it('streams 60,000 records: every one once, in order per partition, sequences numbered from 0 with several batches in flight', async () => {
    const b = await broker({ s: 3 });
    const acks: BatchAck[] = [];
    const p = await producer({ bootstrap: b.bootstrap, batchBytes: 16 * 1024, maxInFlight: 5, onBatchAcked: (a) => acks.push(a) });
    await p.topic('s');
    const n = 60_000;
    for (let i = 0; i < n; i++) {
      if (!p.write('s', `k${i % 1000}`, `value ${i}`)) await p.ready();
    }
    await p.flush();
    expect(p.stats).toMatchObject({ recordsAppended: n, recordsAcked: n, recordsFailed: 0 });
    expect(p.stats.maxInFlightRequests).toBeGreaterThan(1);
    expect(p.stats.maxInFlightRequests).toBeLessThanOrEqual(5);
    expect(acks.length).toBe(p.stats.batchesAcked);
    expect(acks.every((a) => a.latencyMs >= 0 && a.records > 0 && a.baseOffset >= 0n)).toBe(true);
    let total = 0;
    for (let part = 0; part < 3; part++) {
      const recs = stored(b, 's', part);
      total += recs.length;
      const values = recs.map((r) => Number(r.value.slice(6)));
      expect(values).toEqual([...values].sort((x, y) => x - y)); // append order kept
      expect(recs.map((r) => r.sequence)).toEqual(recs.map((_, i) => i));
      for (const r of recs) expect(partitionForKey(enc.encode(r.key!), 3)).toBe(part);
    }
    expect(total).toBe(n);
    expect(new Set(acks.map((a) => a.partition)).size).toBe(3);
  });

  it('null keys stick to one partition per batch\'s worth of bytes', async () => {
    const b = await broker({ n: 4 });
    const p = await producer({ bootstrap: b.bootstrap, batchBytes: 4096 });
    const res = await p.send('n', Array.from({ length: 400 }, (_, i) => ({ value: `v${i}`.padEnd(100, '.') })));
    // Runs of one partition, each about a batch (4 KiB / ~140 bytes a record).
    let runs = 1;
    for (let i = 1; i < res.length; i++) if (res[i]!.partition !== res[i - 1]!.partition) runs++;
    expect(runs).toBeGreaterThan(4);
    expect(runs).toBeLessThan(40);
  });

  it('lost answers: the batches are sent again and the broker keeps them once, in order', async () => {
    const b = await broker({ r: 2 });
    const cutAt = new Set([3, 8, 9, 20]);
    const proxy: LossyProxy = await startLossyProxy({ host: b.host, port: b.port }, (n) => cutAt.has(n));
    closeAfter(() => proxy.close());
    const p = await producer({ bootstrap: proxy.bootstrap, batchBytes: 2048, lingerMs: 1, maxInFlight: 5, retryBackoffMs: 10 });
    await p.topic('r');
    const n = 5000;
    for (let i = 0; i < n; i++) if (!p.write('r', null, `r${i}`, i % 2)) await p.ready();
    await p.flush();
    expect(proxy.cuts).toBe(4);
    expect(p.stats.retries).toBeGreaterThan(0);
    for (const part of [0, 1]) {
      const values = stored(b, 'r', part).map((r) => Number(r.value.slice(1)));
      expect(values).toEqual(Array.from({ length: n / 2 }, (_, i) => 2 * i + part)); // exactly once, in order
    }
  });

  it('without idempotence the same lost answers duplicate records (what idempotence prevents)', async () => {
    const b = await broker({ d: 1 });
    const proxy = await startLossyProxy({ host: b.host, port: b.port }, (n) => n === 2);
    closeAfter(() => proxy.close());
    const p = await producer({ bootstrap: proxy.bootstrap, idempotent: false, batchBytes: 1024, lingerMs: 1, retryBackoffMs: 10 });
    await p.topic('d');
    for (let i = 0; i < 500; i++) p.write('d', null, `d${i}`);
    await p.flush();
    expect(stored(b, 'd', 0).length).toBeGreaterThan(500);
  });

  it('a lost sequence (UNKNOWN_PRODUCER_ID) fails that batch with a typed error, bumps the epoch and numbers from 0 again', async () => {
    const b = await broker({ e: 1 });
    const errors: ProducerError[] = [];
    const p = await producer({ bootstrap: b.bootstrap, onDeliveryError: (e) => errors.push(e) });
    await p.send('e', [{ value: 'a' }, { value: 'b' }]);
    b.topics.get('e')!.partitions[0]!.producers!.clear(); // the broker forgets the producer (as retention can)
    await expect(p.send('e', { value: 'c' })).rejects.toMatchObject({ code: 'SEQUENCE', topic: 'e', partition: 0, errorCode: 59 });
    await p.flush();
    const [m] = await p.send('e', { value: 'd' });
    expect(p.producerId.epoch).toBe(1);
    const recs = stored(b, 'e', 0);
    expect(recs.map((r) => [r.value, r.epoch, r.sequence])).toEqual([['a', 0, 0], ['b', 0, 1], ['d', 1, 0]]);
    expect(m!.offset).toBe(2n);
  });

  it('backpressure: write() says false at bufferBytes and ready() resolves as batches are acknowledged', async () => {
    const b = await broker({ bp: 1 });
    const p = await producer({ bootstrap: b.bootstrap, bufferBytes: 64 * 1024, batchBytes: 8 * 1024 });
    await p.topic('bp');
    let refusals = 0;
    let maxBuffered = 0;
    for (let i = 0; i < 3000; i++) {
      if (!p.write('bp', null, 'x'.repeat(200))) { refusals++; await p.ready(); }
      maxBuffered = Math.max(maxBuffered, p.bufferedBytes);
    }
    await p.flush();
    expect(refusals).toBeGreaterThan(0);
    expect(maxBuffered).toBeLessThan(64 * 1024 + 8 * 1024);
    expect(p.bufferedBytes).toBe(0);
    expect(stored(b, 'bp', 0).length).toBe(3000);
  });

  it('acks 0 (idempotence off by default then): written, offsets unknown', async () => {
    const b = await broker({ a0: 1 });
    const p = await producer({ bootstrap: b.bootstrap, acks: 0 });
    expect(p.idempotent).toBe(false);
    const res = await p.send('a0', [{ value: 'fire' }, { value: 'forget' }]);
    expect(res.map((r) => r.offset)).toEqual([-1n, -1n]);
    await new Promise((r) => setTimeout(r, 50));
    expect(stored(b, 'a0', 0).map((r) => [r.value, r.producerId])).toEqual([['fire', -1n], ['forget', -1n]]);
    expect(() => new (p.constructor as any)({ bootstrap: b.bootstrap, acks: 1, idempotent: true })).toThrow(/acks 'all'/);
  });

  it('typed errors: a record over the limit, an unknown topic with auto-creation off, a partition the topic lacks', async () => {
    const b = await broker({ ok: 2 }, { autoCreateTopics: false });
    const p = await producer({ bootstrap: b.bootstrap, maxRecordBytes: 1000 });
    await p.send('ok', { value: 'first' });
    await expect(p.send('ok', { value: 'x'.repeat(2000) })).rejects.toMatchObject({ code: 'RECORD_TOO_LARGE' });
    const missing = await p.send('nope', { value: 'v' }).catch((e) => e);
    expect(missing).toBeInstanceOf(ProducerError);
    expect(missing).toMatchObject({ code: 'UNKNOWN_TOPIC', topic: 'nope' });
    expect(missing.message).toMatch(/nope.*UNKNOWN_TOPIC_OR_PARTITION/);
    await expect(p.send('ok', { value: 'v' }, { partition: 7 })).rejects.toMatchObject({ code: 'UNKNOWN_TOPIC', partition: 7 });
    expect(() => p.write('never-loaded', null, 'v')).toThrow(/topic\('never-loaded'\)/);
    expect(stored(b, 'ok', 0).length + stored(b, 'ok', 1).length).toBe(1); // what was sent stays sent
    await p.close();
    await expect(p.send('ok', { value: 'late' })).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it('compresses per batch (lz4, zstd), headers and timestamps kept', async () => {
    const b = await broker({ z: 1 });
    for (const compression of ['lz4', 'zstd', 'gzip', 'snappy'] as const) {
      const p = await producer({ bootstrap: b.bootstrap, compression });
      await p.send('z', [{ key: 'k', value: `v-${compression}`.repeat(50), headers: [{ key: 'h', value: enc.encode(compression) }], timestamp: 1_700_000_000_000 }]);
      await p.close();
    }
    const batches = b.topics.get('z')!.partitions[0]!.batches.flatMap((sb) => decodeRecordBatches(sb.bytes).batches);
    expect(batches.map((x) => x.compression)).toEqual(['lz4', 'zstd', 'gzip', 'snappy']);
    for (const x of batches) {
      const r = x.records[0]!;
      expect(text.decode(r.value!)).toBe(`v-${x.compression}`.repeat(50));
      expect(text.decode(r.headers[0]!.value!)).toBe(x.compression);
      expect(r.timestamp).toBe(1_700_000_000_000n);
    }
  });
});

describe('producer delivery timeout', () => {
  it('a batch that cannot be delivered in deliveryTimeoutMs fails with DELIVERY_TIMEOUT naming its partition', async () => {
    const b = await broker({ gone: 1 });
    const proxy = await startLossyProxy({ host: b.host, port: b.port }, () => true); // every Produce answer lost
    closeAfter(() => proxy.close());
    const p = await producer({ bootstrap: proxy.bootstrap, deliveryTimeoutMs: 500, retryBackoffMs: 20, requestTimeoutMs: 200 });
    const err = await p.send('gone', { value: 'v' }).catch((e) => e);
    expect(err).toBeInstanceOf(ProducerError);
    expect(err).toMatchObject({ code: 'DELIVERY_TIMEOUT', topic: 'gone', partition: 0, records: 1 });
    expect(proxy.produceRequests).toBeGreaterThan(1);
    expect(stored(b, 'gone', 0).length).toBe(1); // written once, whatever the retries
  });
});
