// The producer against real Apache Kafka (kafka/cluster.mjs, under the peer rule): 1,000,000
// records once and in order per partition with several batches in flight (read back with kcat
// and with Kafka's Java consumer), batches over the topic's max.message.bytes split and resent,
// transactions committed and aborted as read_committed consumers see them (kcat and Kafka's Java
// console consumer), zombie fencing by a second producer with the same transactional id, bad
// input named, and on three nodes the partition leader stopped mid-load.
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { kafkaJava, kafkaPeer, useKafka, startKafka } from '../helpers/kafka.js';
import { hasCommand, peer } from '../helpers/peer.js';
import { kcat } from '../wire/kcat.js';
import { main } from '../../src/cli/main.js';
import { createProducer, ProducerError, type Producer } from '../../src/producer/index.js';
import { KafkaClient } from '../../src/wire/client.js';
import { partitionForKey } from '../../src/wire/partitioner.js';

const ok = await kafkaPeer();
const haveKcat = peer('kcat', hasCommand('kcat'), 'apt-get install kcat');

/** Every record of the topic as [partition, key, value], read by kcat (raw, large output). */
async function readAll(bootstrap: string, topic: string, isolation = 'read_uncommitted', timeoutMs = 240_000): Promise<[number, string, string][]> {
  const r = await kcat(['-b', bootstrap, '-C', '-t', topic, '-o', 'beginning', '-e', '-q', '-X', `isolation.level=${isolation}`, '-f', '%p\t%k\t%s\n'], undefined, timeoutMs);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.split('\n').filter((l) => l !== '').map((l) => {
    const [p, k, v] = l.split('\t');
    return [Number(p), k!, v!];
  });
}

/** Values per partition must be increasing numbers (the order they were written) and all of 0..n-1 once. */
function expectOnceInOrder(rows: [number, string, string][], n: number): void {
  const last = new Map<number, number>();
  const seen = new Uint8Array(n);
  for (const [p, , v] of rows) {
    const i = Number(v);
    expect(i > (last.get(p) ?? -1), `partition ${p}: ${i} after ${last.get(p)}`).toBe(true);
    last.set(p, i);
    seen[i]!++;
  }
  expect(rows.length).toBe(n);
  expect(seen.every((x) => x === 1)).toBe(true);
}

async function cli(args: string[], input: string): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await main(['produce', ...args], {
    stdin: Readable.from([Buffer.from(input)]), stdout: { write: () => undefined }, stderr: { write: (t: string) => { stderr += t; } },
  });
  return { code, stderr };
}

describe.skipIf(!ok || !haveKcat)('producer against real Kafka, one node', () => {
  const kafka = useKafka({ config: { 'auto.create.topics.enable': 'false' } });

  it('1,000,000 records, several batches in flight: every one once and in order per partition (kcat and the Java consumer read them back)', async () => {
    const k = kafka();
    await k.createTopic('million', { partitions: 6 });
    const p = await createProducer({ bootstrap: k.bootstrap, maxInFlight: 5, batchBytes: 64 * 1024 });
    try {
      await p.topic('million');
      const n = 1_000_000;
      for (let i = 0; i < n; i++) {
        if (!p.write('million', `k${i % 5000}`, String(i))) await p.ready();
      }
      await p.flush();
      expect(p.stats).toMatchObject({ recordsAcked: n, recordsFailed: 0 });
      expect(p.stats.maxInFlightRequests).toBeGreaterThan(1);
    } finally {
      await p.close();
    }
    const rows = await readAll(k.bootstrap, 'million');
    expectOnceInOrder(rows, 1_000_000);
    // Kafka's own Java consumer reads them too (a digest, not a million lines over a pipe).
    const java = await kafkaJava('dev.kafkawire.JavaClient', ['digest', k.bootstrap, 'million'], { timeoutMs: 300_000 });
    expect(java.code, java.stderr).toBe(0);
    const perPartition: Record<string, number> = {};
    for (const [partition] of rows) perPartition[partition] = (perPartition[partition] ?? 0) + 1;
    expect(JSON.parse(java.stdout.trim().split('\n').pop()!)).toEqual({
      records: 1_000_000, distinct: 1_000_000, duplicates: 0, outOfOrder: 0, notNumbers: 0, min: 0, max: 999_999, partitions: perPartition,
    });
  }, 600_000);

  it('kafka-wire produce: 200,000 stdin lines split in WebAssembly land once and in order per partition (the Java consumer reads them back)', async () => {
    const k = kafka();
    await k.createTopic('cli-lines', { partitions: 4 });
    const n = 200_000;
    const input = Array.from({ length: n }, (_, i) => `k${i % 5000}\t${i}\n`).join('');
    const res = await cli(['-b', k.bootstrap, '-t', 'cli-lines', '-X', 'batch.size=65536'], input);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/^% 200000 records/);
    const java = await kafkaJava('dev.kafkawire.JavaClient', ['digest', k.bootstrap, 'cli-lines'], { timeoutMs: 300_000 });
    expect(java.code, java.stderr).toBe(0);
    const digest = JSON.parse(java.stdout.trim().split('\n').pop()!);
    expect(digest).toMatchObject({ records: n, distinct: n, duplicates: 0, outOfOrder: 0, notNumbers: 0, min: 0, max: n - 1 });
    // Each key where the Java client's partitioner puts it: k0..k4999 spread over the 4 partitions as murmur2 says.
    const perPartition = [0, 0, 0, 0];
    for (let i = 0; i < n; i++) perPartition[partitionForKey(Buffer.from(`k${i % 5000}`), 4)]!++;
    expect(digest.partitions).toEqual(Object.fromEntries(perPartition.map((c, p) => [String(p), c])));
  }, 600_000);

  it('an aborted and a committed transaction: read_committed consumers (kcat, Java) see only the committed records', async () => {
    const k = kafka();
    await k.createTopic('txn', { partitions: 3 });
    const p = await createProducer({ bootstrap: k.bootstrap, transactionalId: 'kw-txn-1' });
    try {
      p.beginTransaction();
      await p.send('txn', Array.from({ length: 30 }, (_, i) => ({ key: `k${i}`, value: `aborted-${i}` })));
      await p.abortTransaction();
      p.beginTransaction();
      await p.send('txn', Array.from({ length: 30 }, (_, i) => ({ key: `k${i}`, value: `committed-${i}` })));
      await p.commitTransaction();
      // An empty transaction and one through the CLI.
      p.beginTransaction();
      await p.commitTransaction();
    } finally {
      await p.close();
    }
    const viaCli = await cli(['-b', k.bootstrap, '-t', 'txn', '--transactional-id', 'kw-txn-cli'], 'c\tcli-1\nc\tcli-2\n');
    expect(viaCli.code, viaCli.stderr).toBe(0);
    expect(viaCli.stderr).toMatch(/transaction committed/);

    const committed = (await readAll(k.bootstrap, 'txn', 'read_committed')).map((r) => r[2]).sort();
    const expected = [...Array.from({ length: 30 }, (_, i) => `committed-${i}`), 'cli-1', 'cli-2'].sort();
    expect(committed).toEqual(expected);
    expect((await readAll(k.bootstrap, 'txn', 'read_uncommitted')).length).toBe(62); // the aborted ones are in the log
    const java = await kafkaJava('org.apache.kafka.tools.consumer.ConsoleConsumer', [
      '--bootstrap-server', k.bootstrap, '--topic', 'txn', '--from-beginning', '--isolation-level', 'read_committed',
      '--timeout-ms', '15000', '--consumer-property', 'group.id=kw-txn-check',
    ], { timeoutMs: 120_000 });
    // Its stdout carries log lines too: the values are the lines that look like ours.
    const values = java.stdout.split('\n').filter((l) => /^(committed|aborted|cli)-\d+$/.test(l)).sort();
    expect(values, java.stdout + java.stderr).toEqual(expected);
  }, 300_000);

  it('a second producer with the same transactional id fences the first', async () => {
    const k = kafka();
    await k.createTopic('fence', { partitions: 1 });
    const first = await createProducer({ bootstrap: k.bootstrap, transactionalId: 'kw-fence' });
    let second: Producer | undefined;
    try {
      first.beginTransaction();
      await first.send('fence', { value: 'zombie-1' });
      second = await createProducer({ bootstrap: k.bootstrap, transactionalId: 'kw-fence' });
      expect(second.producerId.epoch).toBeGreaterThan(first.producerId.epoch);
      const err = await (async () => { await first.send('fence', { value: 'zombie-2' }); await first.commitTransaction(); })().catch((e) => e);
      expect(err).toBeInstanceOf(ProducerError);
      expect(err.code).toBe('FENCED');
      second.beginTransaction();
      await second.send('fence', { value: 'successor' });
      await second.commitTransaction();
    } finally {
      await first.close({ force: true });
      await second?.close();
    }
    expect((await readAll(k.bootstrap, 'fence', 'read_committed')).map((r) => r[2])).toEqual(['successor']);
  }, 300_000);

  it('bad input: a line over the limit is named and the lines before it stay; batches over the topic limit are split; an unknown topic is named', async () => {
    const k = kafka();
    await k.createTopic('bad', { partitions: 1 });
    const big = await cli(['-b', k.bootstrap, '-t', 'bad', '-X', 'message.max.bytes=2000'], `a\t1\na\t2\na\t${'x'.repeat(3000)}\na\t4\n`);
    expect(big.code).toBe(1);
    expect(big.stderr).toMatch(/line 3: 3002 bytes, above the record limit of 2000 bytes/);
    expect((await readAll(k.bootstrap, 'bad')).map((r) => r[2])).toEqual(['1', '2']);
    // The broker's own limit (the topic's max.message.bytes) refuses a batch: a typed error naming topic and partition.
    await k.createTopic('small', { partitions: 1, config: { 'max.message.bytes': '1000' } });
    const p = await createProducer({ bootstrap: k.bootstrap });
    try {
      await p.send('small', { value: 'fits' });
      const err = await p.send('small', { value: 'y'.repeat(5000) }).catch((e) => e);
      expect(err).toMatchObject({ code: 'RECORD_TOO_LARGE', topic: 'small', partition: 0, errorCode: 10 });
      await p.send('small', { value: 'after' }); // the producer goes on (a new epoch numbers the partition again)
    } finally {
      await p.close();
    }
    expect((await readAll(k.bootstrap, 'small')).map((r) => r[2])).toEqual(['fits', 'after']);
    // Batches larger than the topic's limit are split until they fit; one record too large alone is named by its line.
    await k.createTopic('split', { partitions: 2, config: { 'max.message.bytes': '4000' } });
    const s = await createProducer({ bootstrap: k.bootstrap, batchBytes: 64 * 1024, lingerMs: 200, maxInFlight: 5 });
    try {
      await s.topic('split');
      for (let i = 0; i < 20_000; i++) if (!s.write('split', null, String(i), i % 2)) await s.ready();
      await s.flush();
      expect(s.stats).toMatchObject({ recordsAcked: 20_000, recordsFailed: 0 });
    } finally {
      await s.close();
    }
    expectOnceInOrder(await readAll(k.bootstrap, 'split'), 20_000);
    await k.createTopic('split-cli', { partitions: 1, config: { 'max.message.bytes': '4000' } });
    const lines = Array.from({ length: 500 }, (_, i) => i === 299 ? `k\t${'z'.repeat(6000)}` : `k\t${i}`);
    const refused = await cli(['-b', k.bootstrap, '-t', 'split-cli', '-X', 'linger.ms=200'], lines.join('\n') + '\n');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/line 300: refused by the broker as too large.*MESSAGE_TOO_LARGE/);
    expect((await readAll(k.bootstrap, 'split-cli')).map((r) => Number(r[2]))).toEqual(Array.from({ length: 500 }, (_, i) => i).filter((i) => i !== 299));
    const missing = await cli(['-b', k.bootstrap, '-t', 'no-such-topic'], 'v\n');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/topic no-such-topic does not exist, and the broker does not create topics on request/);
  }, 300_000);
});

describe.skipIf(!ok || !haveKcat)('producer against real Kafka, three nodes', () => {
  it('the partition leader stopped mid-load (replication factor 3): the load finishes, nothing lost or duplicated, order kept', async () => {
    const k = await startKafka({ nodes: 3, heap: '512m' });
    let failed = true;
    try {
      await k.createTopic('failover', { partitions: 3, replicationFactor: 3, config: { 'min.insync.replicas': '2' } });
      const client = new KafkaClient({ bootstrap: k.bootstrap });
      await client.metadata(['failover']);
      const leader = client.topics.get('failover')!.partitions[0]!.leader;
      await client.close();
      const p = await createProducer({ bootstrap: k.bootstrap, batchBytes: 16 * 1024, maxInFlight: 5, retryBackoffMs: 50 });
      const n = 300_000;
      let stopped: Promise<void> | undefined;
      try {
        await p.topic('failover');
        for (let i = 0; i < n; i++) {
          if (!p.write('failover', null, String(i), i % 3)) await p.ready();
          if (i === n / 3) {
            await new Promise((r) => setTimeout(r, 20));
            stopped = k.stopNode(leader); // mid-load, batches in flight
          }
          if ((i & 0x3fff) === 0) await new Promise((r) => setImmediate(r)); // let answers in while loading
        }
        await p.flush();
        await stopped;
        expect(p.stats).toMatchObject({ recordsAcked: n, recordsFailed: 0 });
        expect(p.stats.retries).toBeGreaterThan(0);
      } finally {
        await p.close();
      }
      expectOnceInOrder(await readAll(k.bootstrap, 'failover'), n);
      failed = false;
    } finally {
      await k.stop({ keepLogs: failed });
    }
  }, 900_000);
});
