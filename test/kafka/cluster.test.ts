// The real-Kafka launcher (kafka/cluster.mjs) itself: one node and three come up with every node in
// Metadata, topics get leaders, a node stops and comes back, and stop() leaves no JVM behind.

import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { KafkaClient } from '../../src/wire/index.js';
import { kafkaPeer, launcherOptions, startKafka, useKafka } from '../helpers/kafka.js';

const ok = await kafkaPeer();
const LAUNCHER = fileURLToPath(new URL('../../kafka/cluster.mjs', import.meta.url));

/** A port on 127.0.0.1 that was free a moment ago (its listener is given back). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe('npm run kafka\'s arguments', () => {
  it('takes --port for the first node (examples assume 9092), and refuses a bad or taken one at once', async () => {
    expect(launcherOptions(['--port', '9092'])).toMatchObject({ nodes: 1, port: 9092, ssl: false });
    expect(launcherOptions(['--nodes', '3'])).not.toHaveProperty('port');
    expect(() => launcherOptions(['--port', 'x'])).toThrow(/--port must be a port number/);
    expect(() => launcherOptions(['--port'])).toThrow(/--port must be a port number/);
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    try {
      const port = (taken.address() as AddressInfo).port;
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = execFile(process.execPath, [LAUNCHER, '--port', String(port)], { timeout: 30_000 }, (_err, _out, stderr) => resolve({ code: child.exitCode, stderr }));
      });
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is not free`);
      expect(result.code).toBe(2);
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });
});

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try { process.kill(pid, 0); return true; } catch { return false; }
}

const givenPort = await freePort();

describe.skipIf(!ok)('real Kafka launcher, one node', () => {
  const kafka = useKafka({ port: givenPort });

  it('serves Metadata with its one broker on 127.0.0.1 (on the port it was given) and creates topics', async () => {
    const k = kafka();
    expect(k.bootstrap).toBe(`127.0.0.1:${givenPort}`);
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
