// The client through a hostile network (test/helpers/fault-proxy.ts), one defect per test
// (issue 37, issue 36 #2 #6 #8 and its connection retries, issue 45 goal 1): a timed-out request
// ends its connection, close() leaves nothing open, a failed lookup neither storms nor reorders,
// send() never reports an offset a record is not at, start-up survives one fault, a refused
// bootstrap is waited for, close() finishes after a refused send, an awaited send does not linger.
import { describe, it, expect, afterEach } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { tracingChannel } from 'node:diagnostics_channel';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { ApiKey } from '../../src/generated/types.js';
import { createProducer, type Producer, type RecordMetadata } from '../../src/producer/index.js';
import * as producerEntry from '../../src/producer/index.js';
import { Consumer } from '../../src/consumer/consumer.js';
import { ConnectionError } from '../../src/wire/errors.js';
import { KafkaClient } from '../../src/wire/client.js';
import { connect } from '../../src/wire/connection.js';
import { startOffsets } from '../../src/consumer/offsets.js';
import { startFaultProxy, type FaultProxy, type FaultProxyOptions } from '../helpers/fault-proxy.js';
import { waitUntil } from '../helpers/wait.js';
import { mockClusterAvailable, startMockCluster } from '../wire/mock-cluster.js';
import { judgeAcks, storedRecords } from './log.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => { for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined); });

async function setup(topics: Record<string, number>, proxy: Omit<FaultProxyOptions, 'upstream'> = {}): Promise<{ broker: MemoryBroker; proxy: FaultProxy }> {
  const broker = await startMemoryBroker({ topics });
  cleanups.push(() => broker.close());
  const p = await startFaultProxy({ upstream: broker, ...proxy });
  cleanups.push(() => p.close());
  return { broker, proxy: p };
}

async function producer(options: Parameters<typeof createProducer>[0]): Promise<Producer> {
  const p = await createProducer(options);
  cleanups.push(() => p.close({ force: true }));
  return p;
}

const values = (n: number, tag = 'v') => Array.from({ length: n }, (_, i) => `${tag}${String(i).padStart(5, '0')}`);

describe('a hostile network', () => {
  it('a Produce answer that stalls: the request times out, its connection closes, the producer goes on over a fresh one (37 #1)', async () => {
    const { broker, proxy } = await setup({ t: 1 }, { script: [{ apiKey: ApiKey.Produce, nth: 2, kind: 'stall' }] });
    const p = await producer({ bootstrap: proxy.bootstrap, requestTimeoutMs: 400, deliveryTimeoutMs: 5000, retryBackoffMs: 20 });
    const vs = values(20);
    const acked: RecordMetadata[] = [];
    for (const value of vs) acked.push((await p.send('t', { value }))[0]!);
    expect(judgeAcks(broker, 't', vs, acked)).toEqual({ lost: 0, duplicated: 0, reordered: 0, misplaced: 0 });
    expect(proxy.faults.map((f) => f.kind)).toEqual(['stall']);
    await p.close();
    await waitUntil(() => proxy.open === 0, 'every connection closed');
  });

  it('a Fetch answer that stalls: the consumer\'s next Fetch goes on a new connection and it reads everything (37 #1)', async () => {
    const { broker, proxy } = await setup({ t: 1 }, { script: [{ apiKey: ApiKey.Fetch, nth: 2, kind: 'stall' }] });
    const direct = await producer({ bootstrap: broker.bootstrap, lingerMs: 0 });
    for (let i = 0; i < 5; i++) await direct.send('t', values(20, `b${i}-`).map((value) => ({ value })));
    const consumer = new Consumer({ bootstrap: proxy.bootstrap, assign: [{ topic: 't' }], resetPolicy: 'earliest', requestTimeoutMs: 300, maxWaitMs: 50, partitionMaxBytes: 500 });
    cleanups.push(() => consumer.close());
    const seen: bigint[] = [];
    for await (const batch of consumer) {
      for (const r of batch.records()) seen.push(r.offset);
      if (seen.length >= 100) break;
    }
    expect(seen).toEqual(Array.from({ length: 100 }, (_, i) => BigInt(i)));
    expect(proxy.faults.map((f) => f.kind)).toEqual(['stall']);
    expect(proxy.opened).toBeGreaterThan(1);
  }, 30_000);

  it('after a mid-frame close on a Produce answer, close() leaves no connection open (37 #2)', async () => {
    const { proxy } = await setup({ t: 3 }, { script: [{ apiKey: ApiKey.Produce, nth: 1, kind: 'midframe' }] });
    const p = await createProducer({ bootstrap: proxy.bootstrap, retryBackoffMs: 20 });
    await Promise.all(values(300).map((value) => p.send('t', { value })));
    await p.close();
    await waitUntil(() => proxy.open === 0, 'every client connection closed', 3000);
    expect(proxy.faults.map((f) => f.kind)).toEqual(['midframe']);
  });

  it('500 concurrent first sends look the topic up once (37 #3)', async () => {
    const { proxy } = await setup({ t: 4 });
    const p = await producer({ bootstrap: proxy.bootstrap });
    const before = proxy.answers.get(ApiKey.Metadata) ?? 0;
    await Promise.all(values(500).map((value) => p.send('t', { value })));
    expect((proxy.answers.get(ApiKey.Metadata) ?? 0) - before).toBe(1);
  });

  it('a truncated and a delayed topic lookup: no connection storm, nothing left open, send() order kept per partition (37 #3)', async () => {
    const { broker, proxy } = await setup({ t: 3 }, {
      script: [{ apiKey: ApiKey.Metadata, nth: 2, kind: 'truncate' }, { apiKey: ApiKey.Metadata, nth: 3, kind: 'delay' }], delayMs: 300,
    });
    const p = await createProducer({ bootstrap: proxy.bootstrap, retryBackoffMs: 20 });
    const vs = values(2000);
    const acked = await Promise.all(vs.map((value) => p.send('t', { value }).then((r) => r[0]!)));
    expect(judgeAcks(broker, 't', vs, acked)).toEqual({ lost: 0, duplicated: 0, reordered: 0, misplaced: 0 });
    await p.close();
    expect(proxy.opened).toBeLessThan(6);
    await waitUntil(() => proxy.open === 0, 'every client connection closed', 3000);
  });

  it('swapped Produce answers: send() resolves with the offsets the records are at (37 #8)', async () => {
    const { broker, proxy } = await setup({ t: 1 }, { script: [{ apiKey: ApiKey.Produce, nth: 2, kind: 'swap' }, { apiKey: ApiKey.Produce, nth: 6, kind: 'swap' }] });
    const p = await producer({ bootstrap: proxy.bootstrap, lingerMs: 0, batchBytes: 300, retryBackoffMs: 20 });
    const vs = values(400);
    const acked = await Promise.all(vs.map((value) => p.send('t', { value }).then((r) => r[0]!)));
    expect(proxy.faults.filter((f) => f.kind === 'swap')).toHaveLength(2);
    expect(judgeAcks(broker, 't', vs, acked)).toEqual({ lost: 0, duplicated: 0, reordered: 0, misplaced: 0 });
  });

  it('a Produce answer that names a partition not asked, or one partition twice, is refused whole: its batches go again, written once', async () => {
    const edits = [
      (body: any) => { body.responses[0].partitionResponses[0].index = 9; },
      (body: any) => { body.responses[0].partitionResponses.push({ ...body.responses[0].partitionResponses[0] }); },
      (body: any) => { body.responses.push({ ...body.responses[0] }); },
    ];
    const { broker, proxy } = await setup({ t: 2 }, { script: edits.map((edit, i) => ({ apiKey: ApiKey.Produce, nth: 2 + 2 * i, kind: 'edit' as const, edit })) });
    // One request in flight: the batches sent again are the partition's last (with more in flight
    // a batch sent again this way fails OUT_OF_ORDER_SEQUENCE_NUMBER, before this test's change too).
    const p = await producer({ bootstrap: proxy.bootstrap, lingerMs: 0, batchBytes: 300, retryBackoffMs: 20, maxInFlight: 1 });
    const vs = values(200);
    const acked = await Promise.all(vs.map((value, i) => p.send('t', { value, partition: i % 2 }).then((r) => r[0]!)));
    expect(proxy.faults.filter((f) => f.kind === 'edit')).toHaveLength(3);
    expect(judgeAcks(broker, 't', vs, acked)).toEqual({ lost: 0, duplicated: 0, reordered: 0, misplaced: 0 });
  });

  it('two Produce answers read in one piece, the first through a longer promise chain (a traced request): settled in the order they went out, none sent again', async () => {
    const { broker, proxy } = await setup({ t: 1 }, { script: [{ apiKey: ApiKey.Produce, nth: 2, kind: 'join' }] });
    const p = await producer({ bootstrap: proxy.bootstrap, lingerMs: 0, retryBackoffMs: 20 });
    const vs = ['warm', 'first', 'second'];
    const acked = [(await p.send('t', { value: vs[0]! }))[0]!]; // the connection made: the next requests go out at once
    // The first request traced (its answer comes through one promise step more), the second not.
    const request = tracingChannel('kafka-wire:request');
    let traced = 0;
    const handlers = { start: () => { traced++; } };
    request.subscribe(handlers);
    const first = p.send('t', { value: vs[1]! });
    try { await waitUntil(() => traced > 0, 'the first request written'); } finally { request.unsubscribe(handlers); }
    const second = p.send('t', { value: vs[2]! });
    acked.push(...(await Promise.all([first, second])).map((r) => r[0]!));
    expect(proxy.faults.map((f) => f.kind)).toEqual(['join']);
    expect(proxy.answers.get(ApiKey.Produce)).toBe(3); // the second answer arrived before the first was handled, and nothing went again
    expect(acked.map((m) => m.offset)).toEqual([0n, 1n, 2n]);
    expect(judgeAcks(broker, 't', vs, acked)).toEqual({ lost: 0, duplicated: 0, reordered: 0, misplaced: 0 });
  });

  it('one fault on each start-up answer (ApiVersions, Metadata, InitProducerId) is retried (37 #9)', async () => {
    for (const apiKey of [ApiKey.ApiVersions, ApiKey.Metadata, ApiKey.InitProducerId]) {
      for (const kind of ['midframe', 'truncate', 'garbage'] as const) {
        const { broker, proxy } = await setup({ t: 1 }, { script: [{ apiKey, nth: 1, kind }] });
        const p = await producer({ bootstrap: proxy.bootstrap, retryTimeoutMs: 5000 });
        const [meta] = await p.send('t', { value: 'x' });
        expect(meta!.offset).toBe(0n);
        expect(storedRecords(broker, 't')[0]!.map((r) => r.value)).toEqual(['x']);
        expect(proxy.faults).toHaveLength(1);
        await p.close();
      }
    }
  });

  it('a confused first ListOffsets answer (a partition not asked for, one missing) is asked again, not a failed start (37 #9)', async () => {
    const { broker, proxy } = await setup({ t: 2 }, {
      script: [{ apiKey: ApiKey.ListOffsets, nth: 1, kind: 'edit', edit: (body) => { body.topics[0].partitions[1].partitionIndex = 7; } }],
    });
    const direct = await producer({ bootstrap: broker.bootstrap });
    await Promise.all(values(40).map((value, i) => direct.send('t', { value, partition: i % 2 })));
    const consumer = new Consumer({ bootstrap: proxy.bootstrap, assign: [{ topic: 't' }], resetPolicy: 'earliest', maxWaitMs: 50 });
    cleanups.push(() => consumer.close());
    let n = 0;
    for await (const batch of consumer) { n += batch.records().length; if (n >= 40) break; }
    expect(n).toBe(40);
    expect(proxy.faults.map((f) => f.kind)).toEqual(['edit']);
  });

  it('a ListOffsets answer whose log starts past its end, or at a negative offset, is asked again at start-up (37 #6 #9)', async () => {
    for (const edit of [(body: any) => { body.topics[0].partitions[0].offset = 65280n; }, (body: any) => { body.topics[0].partitions[0].offset = -72057594021216256n; }]) {
      const { broker, proxy } = await setup({ t: 1 }, { script: [{ apiKey: ApiKey.ListOffsets, nth: 1, kind: 'edit', edit }] });
      const direct = await producer({ bootstrap: broker.bootstrap });
      await direct.send('t', values(29).map((value) => ({ value })));
      const client = new KafkaClient({ bootstrap: proxy.bootstrap });
      cleanups.push(() => client.close());
      const start = await startOffsets(client, 't', [0], 'earliest');
      expect(start.get(0)).toEqual({ offset: 0n, end: 29n });
      expect(proxy.faults.map((f) => f.kind)).toEqual(['edit']);
    }
  });

  it('a bootstrap that refuses is retried with backoff, saying so, until the broker is up (36: connection retries)', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const lines: string[] = [];
    const started = createProducer({ bootstrap: `127.0.0.1:${port}`, retryTimeoutMs: 10_000, debug: (line) => lines.push(line) });
    await waitUntil(() => lines.length >= 2, 'two retry lines');
    const broker = await startMemoryBroker({ port, topics: { t: 1 } });
    cleanups.push(() => broker.close());
    const p = await started;
    cleanups.push(() => p.close());
    await p.send('t', { value: 'late' });
    expect(lines[0]).toMatch(new RegExp(`bootstrap 127\\.0\\.0\\.1:${port}: cannot connect .*ECONNREFUSED.*retrying in \\d+ ms`));
  });

  it('a bootstrap that keeps refusing fails after retryTimeoutMs with CONNECT', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const t0 = Date.now();
    const err = await createProducer({ bootstrap: `127.0.0.1:${port}`, retryTimeoutMs: 700 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).code).toBe('CONNECT');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('close() finishes after a send() refused with INVALID_ARGUMENT, and the refused call appended nothing (36 #2)', async () => {
    const { broker } = await setup({ t: 1 });
    const p = await createProducer({ bootstrap: broker.bootstrap });
    await p.send('t', { value: 'before' });
    await expect(p.send('t', [{ value: 'first of the call' }, { value: 42 as never }])).rejects.toMatchObject({ name: 'RecordsError', code: 'INVALID_ARGUMENT' });
    const closed = p.close().then(() => 'closed');
    expect(await Promise.race([closed, new Promise((r) => setTimeout(() => r('hung'), 3000))])).toBe('closed');
    expect(storedRecords(broker, 't')[0]!.map((r) => r.value)).toEqual(['before']);
  });

  it('close() finishes after a refused first send (nothing buffered)', async () => {
    const { broker } = await setup({ t: 1 });
    const p = await createProducer({ bootstrap: broker.bootstrap });
    await expect(p.send('t', { value: 42 as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    const closed = p.close().then(() => 'closed');
    expect(await Promise.race([closed, new Promise((r) => setTimeout(() => r('hung'), 3000))])).toBe('closed');
  });

  it('a producer closed while it renumbers after a refused batch stops asking for a new epoch (the process can exit)', async () => {
    const broker = await startMemoryBroker({ topics: { t: 1 }, maxMessageBytes: 500 });
    cleanups.push(() => broker.close());
    const p = await createProducer({ bootstrap: broker.bootstrap, retryBackoffMs: 20 });
    await expect(p.send('t', { value: 'x'.repeat(2000) })).rejects.toMatchObject({ code: 'RECORD_TOO_LARGE' });
    await p.close();
    const before = broker.requestCounts.get(ApiKey.InitProducerId) ?? 0;
    let asked = 0;
    const any = p.client.anyConnection.bind(p.client);
    p.client.anyConnection = () => { asked++; return any(); };
    await new Promise((r) => setTimeout(r, 400));
    expect(asked).toBeLessThanOrEqual(1); // a renumbering under way learns the client is closed, and ends
    const settled = asked;
    await new Promise((r) => setTimeout(r, 300));
    expect(asked).toBe(settled);
    expect(broker.requestCounts.get(ApiKey.InitProducerId) ?? 0).toBe(before);
  });

  it('kafka-wire/producer exports errorName at run time, as its types declare (36 #6)', () => {
    expect(typeof producerEntry.errorName).toBe('function');
    expect(producerEntry.errorName(6)).toBe('NOT_LEADER_OR_FOLLOWER (6)');
  });

  it('an awaited single send() does not wait out lingerMs when nothing else waits (45 goal 1)', async () => {
    const { broker } = await setup({ t: 1 });
    const p = await producer({ bootstrap: broker.bootstrap, lingerMs: 1000 });
    const t0 = Date.now();
    for (let i = 0; i < 3; i++) await p.send('t', { value: `one at a time ${i}` });
    expect(Date.now() - t0).toBeLessThan(1000); // each waited 1 s before
    // Records that keep arriving while a batch is in flight still linger and share batches.
    const acks: number[] = [];
    const q = await producer({ bootstrap: broker.bootstrap, lingerMs: 50, onBatchAcked: (a) => acks.push(a.records) });
    await Promise.all(values(1000).map((value) => q.send('t', { value })));
    expect(acks.length).toBeLessThan(10);
  });

  it('an answer that stalls after its size prefix fails TIMEOUT after requestTimeoutMs, even when its request may wait longer (fault suite: stall × group)', async () => {
    const { proxy } = await setup({ t: 1 }, { script: [{ apiKey: ApiKey.Metadata, nth: 1, kind: 'stall' }] });
    const conn = await connect({ host: proxy.host, port: proxy.port, requestTimeoutMs: 500 });
    cleanups.push(() => conn.close());
    const t0 = Date.now();
    // Its own deadline is a minute (as a JoinGroup's is the rebalance timeout and more).
    const err = await conn.request(ApiKey.Metadata, undefined, { topics: null }, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({ code: 'TIMEOUT', apiKey: ApiKey.Metadata });
    expect((err as Error).message).toMatch(/stalled mid-frame: 4 of \d+ bytes of the Metadata v\d+ answer .* then nothing for \d+ ms/);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(proxy.faults.map((f) => f.kind)).toEqual(['stall']);
    await waitUntil(() => proxy.open === 0, 'the stalled connection closed', 3000);
  });
});

const mock = await mockClusterAvailable();

/** A classic member of group g on t with short deadlines and a long rebalance timeout (a stall must not wait it out). */
function classicMember(bootstrap: string): Consumer {
  const consumer = new Consumer({
    bootstrap, groupId: 'g', topics: ['t'], groupProtocol: 'classic', resetPolicy: 'earliest',
    requestTimeoutMs: 1000, sessionTimeoutMs: 6000, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 30_000, maxWaitMs: 100,
  });
  cleanups.push(() => consumer.close());
  return consumer;
}

describe.skipIf(!mock.ok)('a hostile network in front of a group coordinator (librdkafka mock cluster)', () => {
  it('a SyncGroup answer with an error code Kafka does not have: the member fails typed, and close() leaves no connection open (37 #2)', async () => {
    const cluster = await startMockCluster({ topics: ['t:3'] });
    cleanups.push(() => cluster.stop());
    const proxy = await startFaultProxy({ upstream: cluster.brokers[0]!, script: [{ apiKey: ApiKey.SyncGroup, nth: 1, kind: 'edit', edit: (body) => { body.errorCode = 255; } }] });
    cleanups.push(() => proxy.close());
    const consumer = new Consumer({ bootstrap: proxy.bootstrap, groupId: 'g', topics: ['t'], groupProtocol: 'classic', sessionTimeoutMs: 6000, heartbeatIntervalMs: 500 });
    const errors: Error[] = [];
    consumer.on('error', (e) => errors.push(e));
    const thrown = await (async () => { for await (const _ of consumer) { /* nothing is produced */ } })().catch((e: unknown) => e);
    expect(thrown).toMatchObject({ name: 'ConsumerError', code: 'GROUP' });
    expect(proxy.faults.map((f) => f.kind)).toEqual(['edit']);
    await consumer.close();
    await waitUntil(() => proxy.open === 0, 'every client connection closed', 3000);
  }, 30_000);

  it('a stalled SyncGroup answer to the leader is given up after the session timeout, not the rebalance timeout (fault suite: stall × group)', async () => {
    const cluster = await startMockCluster({ topics: ['t:3'] });
    cleanups.push(() => cluster.stop());
    const direct = await producer({ bootstrap: cluster.bootstrap });
    await Promise.all(values(60).map((value, i) => direct.send('t', { value, partition: i % 3 })));
    const proxy = await startFaultProxy({ upstream: cluster.brokers[0]!, script: [{ apiKey: ApiKey.SyncGroup, nth: 1, kind: 'stall' }] });
    cleanups.push(() => proxy.close());
    const consumer = classicMember(proxy.bootstrap);
    const t0 = Date.now();
    let n = 0;
    for await (const batch of consumer) { n += batch.records().length; if (n >= 60) break; }
    expect(proxy.faults.map((f) => f.kind)).toEqual(['stall']);
    expect(Date.now() - t0).toBeLessThan(25_000); // 40 s (rebalance timeout + 10 s) before
  }, 60_000);

  it('a stalled JoinGroup and then a stalled SyncGroup: the member gives each up and reads everything (fault suite: stall × group, seed 5)', async () => {
    const cluster = await startMockCluster({ topics: ['t:3'] });
    cleanups.push(() => cluster.stop());
    const direct = await producer({ bootstrap: cluster.bootstrap });
    await Promise.all(values(60).map((value, i) => direct.send('t', { value, partition: i % 3 })));
    const proxy = await startFaultProxy({ upstream: cluster.brokers[0]!, script: [
      { apiKey: ApiKey.JoinGroup, nth: 1, kind: 'stall' },
      { apiKey: ApiKey.SyncGroup, nth: 1, kind: 'stall' },
    ] });
    cleanups.push(() => proxy.close());
    const consumer = classicMember(proxy.bootstrap);
    const t0 = Date.now();
    const seen = new Set<string>();
    for await (const batch of consumer) { for (const r of batch.records()) seen.add(`${batch.partition}/${r.offset}`); if (seen.size >= 60) break; }
    expect(proxy.faults.map((f) => f.kind)).toEqual(['stall', 'stall']);
    expect(seen.size).toBe(60);
    // Before: the JoinGroup alone waited out rebalance timeout + 10 s (40 s).
    expect(Date.now() - t0).toBeLessThan(25_000);
  }, 60_000);
});
