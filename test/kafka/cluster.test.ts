// The real-Kafka launcher (kafka/cluster.mjs) itself: one node and three come up with every node in
// Metadata, topics get leaders, a node stops and comes back, and stop() leaves no JVM behind.

import { describe, expect, it } from 'vitest';
import { KafkaClient } from '../../src/wire/index.js';
import { kafkaPeer, startKafka, useKafka } from '../helpers/kafka.js';

const ok = await kafkaPeer();

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try { process.kill(pid, 0); return true; } catch { return false; }
}

describe.skipIf(!ok)('real Kafka launcher, one node', () => {
  const kafka = useKafka();

  it('serves Metadata with its one broker on 127.0.0.1 and creates topics', async () => {
    const k = kafka();
    expect(k.bootstrap).toMatch(/^127\.0\.0\.1:\d+$/);
    const client = new KafkaClient({ bootstrap: k.bootstrap });
    try {
      await client.metadata(null);
      expect([...client.brokers.values()]).toEqual([{ nodeId: 1, host: '127.0.0.1', port: k.nodes[0].ports.PLAINTEXT }]);
      expect(client.clusterId).toBe(k.clusterId);
      await k.createTopic('launcher-t', { partitions: 4 });
      const t = await client.topic('launcher-t');
      expect(t.partitions.map((p) => p.leader)).toEqual([1, 1, 1, 1]);
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(!ok)('real Kafka launcher, three nodes', () => {
  it('starts three nodes, stops and restarts one, and stops every JVM it started', async () => {
    const k = await startKafka({ nodes: 3, heap: '512m' });
    const pids = k.nodes.map((n) => n.pid);
    try {
      const client = new KafkaClient({ bootstrap: k.bootstrap });
      try {
        await client.metadata(null);
        expect([...client.brokers.keys()].sort()).toEqual([1, 2, 3]);
        await k.createTopic('rf3', { partitions: 3, replicationFactor: 3 });
        const t = await client.topic('rf3');
        expect(t.partitions.every((p) => p.replicas.length === 3)).toBe(true);
      } finally {
        await client.close();
      }
      const before = k.nodes[1].pid;
      await k.stopNode(2);
      expect(alive(before)).toBe(false);
      await k.startNode(2);
      expect(alive(k.nodes[1].pid)).toBe(true);
    } finally {
      await k.stop();
    }
    for (const n of k.nodes) expect(alive(n.pid)).toBe(false);
    for (const pid of pids) expect(alive(pid)).toBe(false);
  }, 300_000);
});
