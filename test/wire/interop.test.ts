// Our CLI commands (connection + codec + records) against librdkafka: the mock cluster, and
// kcat as the other side; plus the same round trips against our memory broker.

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Partitioners } from 'kafkajs';
import { murmur2, partitionForKey } from '../../src/wire/partitioner.js';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { mockClusterAvailable, startMockCluster, type MockCluster } from './mock-cluster.js';
import { kcatAvailable, kcatOk, CODECS } from './kcat.js';
import { runCli, jsonLines } from './cli-io.js';
import { waitUntil } from '../helpers/wait.js';

const avail = await mockClusterAvailable();
const haveKcat = kcatAvailable();

/** Records with awkward content: tabs in values, UTF-8, empty values. */
function sample(tag: string): { key: string; value: string }[] {
  return [
    { key: `k1-${tag}`, value: `plain ${tag}` },
    { key: `k2-${tag}`, value: `tab\tinside ${tag}` },
    { key: `ключ-${tag}`, value: `значение ✓ ${tag}` },
    { key: `k4-${tag}`, value: '' },
  ];
}

function linesOf(records: { key: string; value: string }[]): string {
  return records.map((r) => `${r.key}\t${r.value}\n`).join('');
}

describe('murmur2 partitioner', () => {
  it('matches the Java client (as implemented by kafkajs DefaultPartitioner)', () => {
    const partitioner = Partitioners.DefaultPartitioner();
    const partitionMetadata = Array.from({ length: 7 }, (_, i) => ({ partitionId: i, leader: 1 }));
    for (const key of ['', 'a', 'ab', 'abc', 'abcd', 'abcde', 'hello world', 'ключ', '21', 'kafka-wire']) {
      const expected = partitioner({ topic: 't', partitionMetadata, message: { key, value: null } } as any);
      expect(partitionForKey(new TextEncoder().encode(key), 7)).toBe(expected);
    }
    expect(typeof murmur2(new Uint8Array(3))).toBe('number');
  });
});

describe.skipIf(!avail.ok || !haveKcat)('CLI ↔ librdkafka mock cluster ↔ kcat', () => {
  let mc: MockCluster;
  beforeAll(async () => {
    mc = await startMockCluster({ brokers: 3, topics: ['ours:3', 'theirs:3', 'keyed:4', 'piped:1'] });
  });
  afterAll(async () => { await mc?.stop(); });

  it('metadata agrees with kcat -L', async () => {
    const ours = await runCli('metadata', ['-b', mc.bootstrap, '--json']);
    expect(ours.stderr).toBe('');
    expect(ours.code).toBe(0);
    const md = JSON.parse(ours.stdout);
    const theirs = JSON.parse(await kcatOk(['-b', mc.bootstrap, '-L', '-J']));
    expect(md.brokers.map((b: any) => `${b.nodeId}@${b.host}:${b.port}`))
      .toEqual(theirs.brokers.map((b: any) => `${b.id}@${b.name}`).sort());
    for (const t of theirs.topics) {
      const mine = md.topics.find((x: any) => x.name === t.topic);
      expect(mine.partitions.map((p: any) => [p.partition, p.leader, p.replicas, p.isr]))
        .toEqual(t.partitions.map((p: any) => [p.partition, p.leader, p.replicas.map((r: any) => r.id), p.isrs.map((r: any) => r.id)])
          .sort((a: any, b: any) => a[0] - b[0]));
    }
  });

  it('our produce, every codec → kcat consumes identical keys, values, headers', async () => {
    const expected: { key: string; value: string; codec: string }[] = [];
    for (const z of CODECS) {
      const recs = sample(z);
      const res = await runCli('produce', ['-b', mc.bootstrap, '-t', 'ours', '-p', '2', '-z', z, '-H', `codec=${z}`, '-H', 'x=ü'], linesOf(recs));
      expect(res.stderr).toMatch(new RegExp(`^% ${recs.length} records \\(\\d+ bytes in 1 batches\\) acknowledged by ours in `));
      expect(res.code).toBe(0);
      for (const r of recs) expected.push({ ...r, codec: z });
    }
    const got = jsonLines(await kcatOk(['-b', mc.bootstrap, '-C', '-t', 'ours', '-p', '2', '-o', 'beginning', '-e', '-J']));
    expect(got.map((r) => [r.offset, r.key, r.payload, r.headers])).toEqual(
      expected.map((r, i) => [i, r.key, r.value, ['codec', r.codec, 'x', 'ü']]));
  });

  it('kcat produces, every codec → our consume reads identically', async () => {
    const expected: { key: string; value: string; codec: string }[] = [];
    for (const z of CODECS) {
      const recs = sample(`kc-${z}`).filter((r) => !r.value.includes('\t'));
      await kcatOk(['-b', mc.bootstrap, '-P', '-t', 'theirs', '-p', '1', '-K', '\t', '-z', z, '-H', `codec=${z}`], linesOf(recs));
      for (const r of recs) expected.push({ ...r, codec: z });
    }
    const res = await runCli('consume', ['-b', mc.bootstrap, '-t', 'theirs', '-p', '1', '-o', 'beginning', '-e']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const got = jsonLines(res.stdout);
    expect(got.map((r) => [r.topic, r.partition, r.offset, r.key, r.value, r.headers])).toEqual(
      expected.map((r, i) => ['theirs', 1, i, r.key, r.value === '' ? '' : r.value, [{ key: 'codec', value: r.codec }]]));
    for (const r of got) expect(Math.abs(r.timestamp - Date.now())).toBeLessThan(60_000);
  });

  it('consume offsets: absolute, relative to end, end; -c limits the count', async () => {
    const base = ['-b', mc.bootstrap, '-t', 'theirs', '-p', '1', '-e'];
    const all = jsonLines((await runCli('consume', base)).stdout);
    const n = all.length;
    expect(n).toBeGreaterThan(4);
    expect(jsonLines((await runCli('consume', [...base, '-o', '3'])).stdout).map((r) => r.offset)[0]).toBe(3);
    expect(jsonLines((await runCli('consume', [...base, '-o', '-2'])).stdout).map((r) => r.offset)).toEqual([n - 2, n - 1]);
    expect((await runCli('consume', [...base, '-o', 'end'])).stdout).toBe('');
    expect(jsonLines((await runCli('consume', [...base, '-c', '2'])).stdout)).toHaveLength(2);
  });

  it('keyed records without -p land where the Java partitioner puts them', async () => {
    const keys = Array.from({ length: 20 }, (_, i) => `key-${i}`);
    const res = await runCli('produce', ['-b', mc.bootstrap, '-t', 'keyed'], keys.map((k) => `${k}\tv\n`).join(''));
    expect(res.code).toBe(0);
    const got = jsonLines(await kcatOk(['-b', mc.bootstrap, '-C', '-t', 'keyed', '-o', 'beginning', '-e', '-J']));
    expect(got).toHaveLength(20);
    for (const r of got) expect(r.partition).toBe(partitionForKey(new TextEncoder().encode(r.key), 4));
    // and our consume over all partitions sees the same set
    const ours = jsonLines((await runCli('consume', ['-b', mc.bootstrap, '-t', 'keyed', '-e'])).stdout);
    expect(ours.map((r) => `${r.partition}/${r.offset}/${r.key}`).sort()).toEqual(got.map((r) => `${r.partition}/${r.offset}/${r.key}`).sort());
  });

  it('produce and consume many records in several batches', async () => {
    const n = 2500;
    const input = Array.from({ length: n }, (_, i) => `value-${i}\n`).join('');
    expect((await runCli('produce', ['-b', mc.bootstrap, '-t', 'piped', '-z', 'lz4'], input)).code).toBe(0);
    const got = jsonLines((await runCli('consume', ['-b', mc.bootstrap, '-t', 'piped', '-e'])).stdout);
    expect(got.map((r) => r.value)).toEqual(Array.from({ length: n }, (_, i) => `value-${i}`));
    expect(got.every((r) => r.key === null)).toBe(true);
    expect(got.map((r) => r.offset)).toEqual(Array.from({ length: n }, (_, i) => i));
  });
});

describe('CLI ↔ memory broker', () => {
  let broker: MemoryBroker;
  beforeAll(async () => { broker = await startMemoryBroker({ topics: { m: 2 } }); });
  afterAll(async () => { await broker?.close(); });

  it('round-trips through our own broker with every codec', async () => {
    for (const z of CODECS) {
      const res = await runCli('produce', ['-b', broker.bootstrap, '-t', 'm', '-p', '0', '-z', z, '-q'], linesOf(sample(z)));
      expect(res.stderr).toBe(''); // -q: no summary
    }
    const got = jsonLines((await runCli('consume', ['-b', broker.bootstrap, '-t', 'm', '-p', '0', '-e'])).stdout);
    expect(got.map((r) => [r.key, r.value])).toEqual(CODECS.flatMap((z) => sample(z).map((r) => [r.key, r.value])));
  });

  it.skipIf(!haveKcat)('kcat reads what our CLI produced to our broker', async () => {
    const got = jsonLines(await kcatOk(['-b', broker.bootstrap, '-C', '-t', 'm', '-p', '0', '-o', 'beginning', '-e', '-J']));
    expect(got.map((r) => [r.key, r.payload])).toEqual(CODECS.flatMap((z) => sample(z).map((r) => [r.key, r.value])));
  });

  it('consume without -e stops on abort', async () => {
    const ac = new AbortController();
    const run = runCli('consume', ['-b', broker.bootstrap, '-t', 'm', '-p', '1', '-o', 'end'], '', ac.signal);
    setTimeout(() => ac.abort(), 300);
    const res = await run;
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
  });

  it('acks=0 produce', async () => {
    const before = broker.topics.get('m')!.partitions[1]!.nextOffset;
    expect((await runCli('produce', ['-b', broker.bootstrap, '-t', 'm', '-p', '1', '--acks', '0'], 'fire\nforget\n')).code).toBe(0);
    await waitUntil(() => broker.topics.get('m')!.partitions[1]!.nextOffset >= before + 2n, 'the broker to store both records');
    const got = jsonLines((await runCli('consume', ['-b', broker.bootstrap, '-t', 'm', '-p', '1', '-e'])).stdout);
    expect(got.map((r) => r.value)).toEqual(['fire', 'forget']);
  });

  it('reports usage errors with exit code 2 and runtime errors with 1', async () => {
    expect((await runCli('produce', ['-b', broker.bootstrap])).code).toBe(2);
    expect((await runCli('consume', ['-b', broker.bootstrap, '-t', 'm', '-o', 'sideways'])).code).toBe(2);
    expect((await runCli('metadata', ['--nope'])).code).toBe(2);
    const missing = await runCli('consume', ['-b', broker.bootstrap, '-t', 'm', '-p', '9', '-e']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no partition 9/);
    const refused = await runCli('metadata', ['-b', '127.0.0.1:1']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/ConnectionError CONNECT/);
  });

  it('binary-safe output with --encoding', async () => {
    await runCli('produce', ['-b', broker.bootstrap, '-t', 'bin', '-p', '0'], 'k\tv\n');
    const [r] = jsonLines((await runCli('consume', ['-b', broker.bootstrap, '-t', 'bin', '-e', '--encoding', 'hex'])).stdout);
    expect([r.key, r.value]).toEqual(['6b', '76']);
  });
});
