// The admin client's replica operations on a real three-node Kafka 4.4 cluster, checked against
// Kafka's own Java Admin and kafka-reassign-partitions.sh: a partition reassigned across the nodes
// runs to completion and `kafka-wire reassign verify` says so; `kafka-wire reassign plan` (the
// nodes in racks a, a, b) prints the current assignment as the tool's --generate does and a valid
// rack-aware proposal of the same shape as the tool's, which executes to completion; a preferred-leader election moves
// leadership back to the first replica; a stopped node shows as the partitions' offline replica.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Admin, createAdmin } from '../../src/admin/index.js';
import { createProducer } from '../../src/producer/index.js';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';
import { runCli } from '../wire/cli-io.js';
import { javaAdminOne } from './java-admin.js';
import { kafkaJava } from '../helpers/kafka.js';

const ok = await kafkaPeer();

async function until(check: () => boolean | Promise<boolean>, ms = 60_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 300))) if (await check()) return true;
  return false;
}

describe.skipIf(!ok)('replica operations on three Kafka 4.4 nodes', () => {
  const kafka = useKafka({ nodes: 3, racks: ['a', 'a', 'b'] });
  let admin: Admin;
  let bootstrap: string;
  beforeAll(async () => {
    bootstrap = kafka().bootstrap;
    admin = await createAdmin({ bootstrap });
  });
  afterAll(async () => { await admin?.close(); });

  const java = async (topic: string) => (await javaAdminOne(bootstrap, { op: 'describeTopics', topics: [topic] }))[0];

  it('reassigns a partition from nodes 1,2 to 2,3: it runs to completion, and reassign verify says so', async () => {
    await admin.createTopics([{ name: 'r-move', assignments: [[1, 2]] }]);
    const producer = await createProducer({ bootstrap });
    try {
      await producer.send('r-move', Array.from({ length: 200 }, (_, i) => ({ value: `record ${i}` })), { partition: 0 });
    } finally {
      await producer.close();
    }
    const file = join(mkdtempSync(join(tmpdir(), 'kafka-wire-reassign-')), 'move.json');
    writeFileSync(file, JSON.stringify({ version: 1, partitions: [{ topic: 'r-move', partition: 0, replicas: [2, 3] }] }));
    const started = await runCli('reassign', ['execute', '-b', bootstrap, '--reassignment-json-file', file]);
    expect(started.code, started.stderr).toBe(0);
    let verified = { code: 1, stdout: '', stderr: '' };
    expect(await until(async () => (verified = await runCli('reassign', ['verify', '-b', bootstrap, '--reassignment-json-file', file])).code === 0)).toBe(true);
    expect(verified.stdout).toBe('Status of partition reassignment:\nReassignment of partition r-move-0 is completed.\n');
    expect(await admin.listPartitionReassignments()).toEqual([]);
    const [ours] = await admin.describeTopics(['r-move']);
    expect(ours!.partitions[0]!.replicas).toEqual([2, 3]);
    expect((await java('r-move')).partitions[0].replicas).toEqual([2, 3]);
    const [end] = await admin.listOffsets([{ topic: 'r-move', partition: 0, spec: 'latest' }]);
    expect(end!.offset).toBe(200n);
  });

  it('reassign plan: the current assignment as kafka-reassign-partitions.sh --generate prints it, a rack-aware proposal of its shape, which executes to completion', async () => {
    await admin.createTopics([{ name: 'r-plan', assignments: [[1, 2], [2, 1], [1, 2], [2, 1]] }, { name: 'r-plan-b', assignments: [[2], [1]] }]);
    // Every follower in sync, so each replica has its log dir on its broker (the current assignment shows them).
    expect(await until(async () => (await admin.describeTopics(['r-plan', 'r-plan-b'])).every((t) => t.partitions.every((p) => p.isr.length === p.replicas.length)))).toBe(true);
    // ... and each broker lists it among its log dirs' partitions (on a loaded machine a follower in
    // the ISR was once missing from its broker's DescribeLogDirs for a moment; the tool, asking a
    // little later, saw it).
    const placed = async () => {
      const listed = new Set((await admin.describeLogDirs([1, 2])).flatMap((d) => d.partitions.map((p) => `${d.broker}/${p.topic}/${p.partition}`)));
      return (await admin.describeTopics(['r-plan', 'r-plan-b'])).every((t) => t.partitions.every((p) => p.replicas.every((r) => listed.has(`${r}/${t.name}/${p.partition}`))));
    };
    expect(await until(placed)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-plan-'));
    const topicsFile = join(dir, 'topics.json');
    writeFileSync(topicsFile, JSON.stringify({ version: 1, topics: [{ topic: 'r-plan-b' }, { topic: 'r-plan' }] }));
    const ours = await runCli('reassign', ['plan', '--bootstrap-server', bootstrap, '--topics-to-move-json-file', topicsFile, '--broker-list', '1,2,3']);
    expect(ours.code, ours.stderr).toBe(0);
    const tool = await kafkaJava('org.apache.kafka.tools.reassign.ReassignPartitionsCommand', ['--bootstrap-server', bootstrap, '--generate', '--topics-to-move-json-file', topicsFile, '--broker-list', '1,2,3'], { timeoutMs: 120_000 });
    expect(tool.code, tool.stderr).toBe(0);
    const sections = (text: string) => {
      const m = /^Current partition replica assignment\n(.*)\n\nProposed partition reassignment configuration\n(.*)\n$/.exec(text);
      expect(m, text).not.toBeNull();
      return { current: m![1]!, proposed: JSON.parse(m![2]!) as { version: number; partitions: { topic: string; partition: number; replicas: number[]; log_dirs: string[] }[] } };
    };
    const a = sections(ours.stdout);
    const b = sections(tool.stdout);
    expect(a.current).toBe(b.current);
    const rack = new Map([[1, 'a'], [2, 'a'], [3, 'b']]);
    const shape = (p: typeof a.proposed) => p.partitions.map((x) => ({
      topic: x.topic, partition: x.partition, rf: x.replicas.length, distinct: new Set(x.replicas).size, onGiven: x.replicas.every((r) => [1, 2, 3].includes(r)),
      racks: new Set(x.replicas.map((r) => rack.get(r))).size, logDirs: x.log_dirs.join(),
    }));
    expect(a.proposed.version).toBe(1);
    expect(shape(a.proposed)).toEqual(shape(b.proposed));
    expect(shape(a.proposed).map((x) => x.racks)).toEqual([2, 2, 2, 2, 1, 1]);
    // Leaders spread over the three brokers (r-plan's four partitions: one broker leads two).
    expect(new Set(a.proposed.partitions.filter((x) => x.topic === 'r-plan').map((x) => x.replicas[0])).size).toBe(3);

    const planFile = join(dir, 'plan.json');
    writeFileSync(planFile, JSON.stringify(a.proposed));
    const started = await runCli('reassign', ['execute', '-b', bootstrap, '--reassignment-json-file', planFile]);
    expect(started.code, started.stderr).toBe(0);
    let verified = { code: 1, stdout: '', stderr: '' };
    expect(await until(async () => (verified = await runCli('reassign', ['verify', '-b', bootstrap, '--reassignment-json-file', planFile])).code === 0)).toBe(true);
    expect(verified.stdout.split('\n').filter((l) => l.endsWith('is completed.'))).toHaveLength(6);
    const described = await admin.describeTopics(['r-plan', 'r-plan-b']);
    expect(described.flatMap((t) => t.partitions.map((p) => ({ topic: t.name, partition: p.partition, replicas: p.replicas }))))
      .toEqual(a.proposed.partitions.map(({ topic, partition, replicas }) => ({ topic, partition, replicas })));
    // Racks off: still a valid plan; a broker not in the cluster refused.
    const off = await runCli('reassign', ['plan', '-b', bootstrap, '--topics-to-move-json-file', topicsFile, '--broker-list', '1,2', '--disable-rack-aware', '-J']);
    expect(off.code, off.stderr).toBe(0);
    expect(JSON.parse(off.stdout).proposed.partitions.every((x: { replicas: number[] }) => x.replicas.every((r) => r === 1 || r === 2))).toBe(true);
    const missing = await runCli('reassign', ['plan', '-b', bootstrap, '--topics-to-move-json-file', topicsFile, '--broker-list', '1,7']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('broker(s) 7 not in the cluster');
  });

  it('elects the preferred leader once it is first in the replicas again', async () => {
    await admin.createTopics([{ name: 'r-elect', assignments: [[1, 2]] }]);
    expect((await admin.describeTopics(['r-elect']))[0]!.partitions[0]!.leader).toBe(1);
    // The same replicas in the other order: node 2 is preferred now, node 1 stays leader.
    await admin.alterPartitionReassignments([{ topic: 'r-elect', partition: 0, replicas: [2, 1] }]);
    expect(await until(async () => (await admin.describeTopics(['r-elect']))[0]!.partitions[0]!.replicas.join() === '2,1')).toBe(true);
    expect(await admin.electLeaders([{ topic: 'r-elect', partition: 0 }])).toEqual([{ topic: 'r-elect', partition: 0 }]);
    expect(await until(async () => (await java('r-elect')).partitions[0].leader === 2)).toBe(true);
    expect((await admin.describeTopics(['r-elect']))[0]!.partitions[0]!.leader).toBe(2);
  });

  it('shows a stopped node as its partitions\' offline replica, as the Java Admin sees the partition', async () => {
    await admin.createTopics([{ name: 'r-offline', assignments: [[1, 3], [3, 1]] }]);
    await kafka().stopNode(3);
    expect(await until(async () => (await admin.describeTopics(['r-offline']))[0]!.partitions.every((p) => p.offlineReplicas.includes(3) && p.leader === 1))).toBe(true);
    const [ours] = await admin.describeTopics(['r-offline']);
    const theirs = await java('r-offline');
    expect(ours!.partitions.map((p) => ({ leader: p.leader, replicas: p.replicas, isr: p.isr }))).toEqual(theirs.partitions.map((p: any) => ({ leader: p.leader, replicas: p.replicas, isr: p.isr })));
    expect(ours!.partitions.map((p) => p.offlineReplicas)).toEqual([[3], [3]]);
    // Node 3 is out of the ISR: the leader is the one in-sync replica left.
    expect(ours!.partitions.map((p) => p.isr)).toEqual([[1], [1]]);
  });
});
