// The admin client's replica operations on a real three-node Kafka 4.4 cluster, checked against
// Kafka's own Java Admin and kafka-reassign-partitions.sh: a partition reassigned across the nodes
// runs to completion and `kafka-wire reassign verify` says so; a preferred-leader election moves
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

const ok = await kafkaPeer();

async function until(check: () => boolean | Promise<boolean>, ms = 60_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 300))) if (await check()) return true;
  return false;
}

describe.skipIf(!ok)('replica operations on three Kafka 4.4 nodes', () => {
  const kafka = useKafka({ nodes: 3 });
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
