// The producer against librdkafka's mock cluster (an independent implementation of the broker
// side: its own sequence checks, leaders on three brokers), read back with kcat: 100,000 records
// once and in order per partition with several requests in flight per broker; the transactional
// calls (FindCoordinator, InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit,
// EndTxn) accepted. (The mock writes no transaction markers: read_committed is checked on real
// Kafka, test/producer/kafka.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockClusterAvailable, startMockCluster, type MockCluster } from '../wire/mock-cluster.js';
import { kcat } from '../wire/kcat.js';
import { hasCommand, peer } from '../helpers/peer.js';
import { createProducer } from '../../src/producer/index.js';

const avail = await mockClusterAvailable();
const ok = peer('librdkafka mock cluster and kcat', avail.ok && hasCommand('kcat'), 'apt-get install librdkafka-dev kcat');

describe.skipIf(!ok)('producer against librdkafka\'s mock cluster', () => {
  let mc: MockCluster;
  beforeAll(async () => { mc = await startMockCluster({ brokers: 3, topics: ['load:6:3', 'tx:2:3'] }); });
  afterAll(async () => { await mc?.stop(); });

  it('100,000 records across three leaders: every one once and in order per partition (kcat reads them)', async () => {
    const p = await createProducer({ bootstrap: mc.bootstrap, batchBytes: 8 * 1024, maxInFlight: 5 });
    const n = 100_000;
    try {
      await p.topic('load');
      const leaders = new Set(p.client.topics.get('load')!.partitions.map((x) => x.leader));
      expect(leaders.size).toBeGreaterThan(1);
      for (let i = 0; i < n; i++) if (!p.write('load', `key-${i % 977}`, String(i))) await p.ready();
      await p.flush();
      expect(p.stats).toMatchObject({ recordsAcked: n, recordsFailed: 0 });
      expect(p.stats.maxInFlightRequests).toBeGreaterThan(1);
    } finally {
      await p.close();
    }
    const r = await kcat(['-b', mc.bootstrap, '-C', '-t', 'load', '-o', 'beginning', '-e', '-q', '-f', '%p %s\n'], undefined, 120_000);
    expect(r.code, r.stderr).toBe(0);
    const last = new Map<number, number>();
    const seen = new Uint8Array(n);
    let count = 0;
    for (const line of r.stdout.split('\n')) {
      if (line === '') continue;
      const [p, v] = line.split(' ').map(Number) as [number, number];
      expect(v > (last.get(p) ?? -1)).toBe(true);
      last.set(p, v);
      seen[v]!++;
      count++;
    }
    expect(count).toBe(n);
    expect(seen.every((x) => x === 1)).toBe(true);
  }, 180_000);

  it('transactions: begin, send, offsets for a group, abort, commit, all accepted by the coordinator', async () => {
    const p = await createProducer({ bootstrap: mc.bootstrap, transactionalId: 'mock-tx' });
    try {
      expect(p.producerId.producerId >= 0n).toBe(true);
      p.beginTransaction();
      await p.send('tx', [{ key: 'a', value: 'one' }, { key: 'b', value: 'two' }]);
      await p.abortTransaction();
      p.beginTransaction();
      await p.send('tx', [{ key: 'a', value: 'three' }]);
      await p.sendOffsetsToTransaction([{ topic: 'load', partition: 0, offset: 10n }], 'mock-group');
      await p.commitTransaction();
      await expect(p.commitTransaction()).rejects.toMatchObject({ code: 'TRANSACTION_STATE' });
      await expect(p.send('tx', { value: 'outside' })).rejects.toMatchObject({ code: 'TRANSACTION_STATE' });
    } finally {
      await p.close();
    }
    const r = await kcat(['-b', mc.bootstrap, '-C', '-t', 'tx', '-o', 'beginning', '-e', '-q', '-f', '%s\n']);
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual(['one', 'three', 'two']); // no markers in the mock
  }, 120_000);
});
