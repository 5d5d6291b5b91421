// The fixture itself: librdkafka's mock cluster, driven by kcat. No kafka-wire code involved;
// this proves the fixture the interop tests rely on.

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { mockClusterAvailable, startMockCluster, type MockCluster } from './mock-cluster.js';
import { kcatAvailable, kcatOk, CODECS } from './kcat.js';

const avail = await mockClusterAvailable();
const haveKcat = kcatAvailable();

function listeningSockets(pid: number): string[] {
  // Local addresses of LISTEN sockets owned by pid, from /proc (Linux only).
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const m = /socket:\[(\d+)\]/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    }
  } catch { return []; }
  const out: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try { text = readFileSync(file, 'utf8'); } catch { continue; }
    for (const row of text.split('\n').slice(1)) {
      const cols = row.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== '0A' || !inodes.has(cols[9]!)) continue;
      out.push(cols[1]!);
    }
  }
  return out;
}

describe.skipIf(!avail.ok)('mock cluster fixture', () => {
  let mc: MockCluster;
  beforeAll(async () => { mc = await startMockCluster({ brokers: 3, topics: ['fixture:2'] }); });
  afterAll(async () => { await mc?.stop(); });

  it('prints loopback bootstrap servers', () => {
    expect(mc.brokers).toHaveLength(3);
    for (const b of mc.brokers) {
      expect(b.host).toBe('127.0.0.1');
      expect(b.port).toBeGreaterThan(0);
    }
  });

  it.skipIf(process.platform !== 'linux')('listens on 127.0.0.1 only', () => {
    const socks = listeningSockets(mc.pid);
    expect(socks.length).toBe(3);
    // /proc/net/tcp: little-endian hex IPv4; 0100007F is 127.0.0.1.
    for (const s of socks) expect(s.split(':')[0]).toBe('0100007F');
  });

  it.skipIf(!haveKcat)('kcat lists metadata', async () => {
    const out = await kcatOk(['-b', mc.bootstrap, '-L', '-J']);
    const md = JSON.parse(out);
    expect(md.brokers.map((b: any) => b.id).sort()).toEqual([1, 2, 3]);
    const topic = md.topics.find((t: any) => t.topic === 'fixture');
    expect(topic.partitions).toHaveLength(2);
  });

  it.skipIf(!haveKcat)('kcat produces with every codec and consumes back', async () => {
    for (const z of CODECS) {
      await kcatOk(['-b', mc.bootstrap, '-P', '-t', 'fixture', '-p', '1', '-K', '\t', '-z', z, '-H', `codec=${z}`],
        `k-${z}\tv-${z}\nk2-${z}\tv2-${z}\n`);
    }
    const out = await kcatOk(['-b', mc.bootstrap, '-C', '-t', 'fixture', '-p', '1', '-o', 'beginning', '-e', '-J']);
    const records = out.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((r) => [r.offset, r.key, r.payload, r.headers])).toEqual(
      CODECS.flatMap((z, i) => [
        [2 * i, `k-${z}`, `v-${z}`, ['codec', z]],
        [2 * i + 1, `k2-${z}`, `v2-${z}`, ['codec', z]],
      ]));
  });

  it('stop() ends exactly the started process', async () => {
    const other = await startMockCluster();
    await other.stop();
    expect(() => process.kill(other.pid, 0)).toThrow();
    expect(() => process.kill(mc.pid, 0)).not.toThrow();
  });
});
